"""Scenarios and their immutable versions.

A :class:`Scenario` is the stable identity (slug, topic, status); each edit makes a new
:class:`ScenarioVersion` holding the whole document and the answer keys the engine
computed for it. A published version never changes.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from engine import ERA_KEYS, TOPICS

TOPIC_LABELS = {
    "trample-into-planeswalkers": _("Trample into planeswalkers"),
    "removed-attack-target": _("Removed attack target"),
    "redirection-era": _("The redirection era"),
    "combat-damage-assignment": _("Combat damage assignment"),
    "loyalty": _("Loyalty"),
    "loyalty-abilities": _("Loyalty abilities"),
    "uniqueness-and-legend": _("Uniqueness and legend rules"),
    "two-headed-giant": _("Two-Headed Giant"),
    "planechase": _("Planechase"),
    "battles": _("Battles"),
}
TOPIC_CHOICES = [(t, TOPIC_LABELS[t]) for t in TOPICS]


class ScenarioQuerySet(models.QuerySet["Scenario"]):
    def published(self) -> ScenarioQuerySet:
        return self.filter(status=Scenario.Status.PUBLISHED, current_version__isnull=False)

    def by_topic(self, *topics: str) -> ScenarioQuerySet:
        return self.filter(topic__in=topics) if topics else self

    def in_era(self, era: str) -> ScenarioQuerySet:
        """Scenarios whose current version is asked in ``era``."""
        return self.filter(current_version__eras_text__contains=f",{era},")

    def difficulty_between(self, low: int, high: int) -> ScenarioQuerySet:
        return self.filter(difficulty__gte=low, difficulty__lte=high)

    def citing(self, key: str) -> ScenarioQuerySet:
        """Scenarios whose current version's traces cite rule ``key`` (stored by its check)."""
        return self.filter(current_version__cited_rules_text__contains=f",{key},")


class Scenario(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")
        RETIRED = "retired", _("Retired")

    slug = models.SlugField(_("slug"), max_length=64, unique=True)
    topic = models.CharField(_("topic"), max_length=40, choices=TOPIC_CHOICES)
    difficulty = models.PositiveSmallIntegerField(_("difficulty"))
    status = models.CharField(_("status"), max_length=12, choices=Status.choices,
                              default=Status.DRAFT)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                               on_delete=models.SET_NULL, related_name="scenarios")
    current_version = models.ForeignKey(
        "ScenarioVersion", null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+", help_text=_("The published version quizzes use."))
    source_path = models.CharField(max_length=255, blank=True,
                                   help_text=_("Library file it was loaded from."))
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = ScenarioQuerySet.as_manager()

    class Meta:
        ordering = ["topic", "slug"]
        permissions = [
            ("author_scenario", "Can author, translate and publish scenarios"),
            ("view_statistics", "Can read per-question statistics"),
        ]

    def __str__(self) -> str:
        return self.slug

    def latest_version(self) -> ScenarioVersion | None:
        return self.versions.order_by("-number").first()

    def title(self, language: str) -> str:
        version = self.current_version or self.latest_version()
        if version is None:
            return self.slug
        texts = version.document.get("title", {})
        return str(texts.get(language) or texts.get("en") or self.slug)


class ImmutableVersionError(ValidationError):
    pass


class ScenarioVersion(models.Model):
    scenario = models.ForeignKey(Scenario, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    document = models.JSONField()
    content_hash = models.CharField(max_length=64, db_index=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    eras = models.JSONField(default=list, blank=True)
    eras_text = models.CharField(max_length=255, blank=True,
                                 help_text="',era,era,' for filtering by era")
    answer_keys = models.JSONField(default=dict, blank=True,
                                   help_text="era -> question id -> answer (seed 0)")
    errors = models.JSONField(default=list, blank=True)
    warnings = models.JSONField(default=list, blank=True)
    disagreements = models.JSONField(default=list, blank=True)
    cited_rules = models.JSONField(default=list, blank=True,
                                   help_text="rule keys the traces of variant 0 cite, any era")
    cited_rules_text = models.TextField(blank=True,
                                        help_text="',key,key,' for filtering by rule")
    checked_with = models.CharField(
        max_length=64, blank=True,
        help_text="fingerprint of the engine whose check the stored results are ('' before "
                  "it was recorded): see scenarios.services.engine_fingerprint")
    source_hash = models.CharField(
        max_length=64, blank=True, db_index=True,
        help_text="sha256 of the library file's bytes this version's document was read from")
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["scenario", "number"]
        constraints = [
            models.UniqueConstraint(fields=["scenario", "number"], name="unique_version_number"),
        ]

    def __str__(self) -> str:
        return f"{self.scenario.slug} v{self.number}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            stored = ScenarioVersion.objects.filter(pk=self.pk).values(
                "published_at", "document", "content_hash", "answer_keys", "number").first()
            if stored is not None and stored["published_at"] is not None:
                changed = (stored["document"] != self.document
                           or stored["content_hash"] != self.content_hash
                           or stored["answer_keys"] != self.answer_keys
                           or stored["number"] != self.number
                           or stored["published_at"] != self.published_at)
                if changed:
                    raise ImmutableVersionError(
                        _("A published version never changes: save a new version instead."))
        self.eras_text = "," + ",".join(self.eras) + "," if self.eras else ""
        self.cited_rules_text = ("," + ",".join(self.cited_rules) + ","
                                 if self.cited_rules else "")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        if self.published_at is not None:
            raise ImmutableVersionError(_("A published version can't be deleted."))
        return super().delete(*args, **kwargs)

    @property
    def is_valid(self) -> bool:
        return not self.errors and not self.disagreements

    @property
    def is_published(self) -> bool:
        return self.published_at is not None

    @property
    def eras_in_order(self) -> list[str]:
        """The eras this version is asked in, oldest first (a document may list them in
        any order)."""
        return [e for e in ERA_KEYS if e in self.eras]


class ProblemReportQuerySet(models.QuerySet["ProblemReport"]):
    def open(self) -> ProblemReportQuerySet:
        return self.filter(closed_at__isnull=True)

    def closed(self) -> ProblemReportQuerySet:
        return self.filter(closed_at__isnull=False)


class ProblemReport(models.Model):
    """A candidate's report of a problem with a question they answered, with an
    instructor's reply.

    The quiz's values (item, era, variant, answer, verdict) are copied here as plain
    fields: the scenarios app sits below the quiz and never points at its tables, and a
    report stays readable after the quiz that raised it is gone.
    """

    class Kind(models.TextChoices):
        ANSWER = "answer", _("The answer is wrong")
        UNCLEAR = "unclear", _("The question is unclear")
        TRANSLATION = "translation", _("A translation is wrong")
        OTHER = "other", _("Something else")

    TEXT_MAX = 2000
    REPLY_MAX = 4000

    scenario = models.ForeignKey(Scenario, on_delete=models.CASCADE,
                                 related_name="problem_reports")
    version = models.ForeignKey(ScenarioVersion, on_delete=models.PROTECT,
                                related_name="problem_reports")
    question_id = models.CharField(max_length=64)
    era = models.CharField(max_length=16)
    seed = models.PositiveIntegerField()
    params = models.JSONField(default=dict, blank=True)
    answer = models.JSONField(null=True, blank=True)
    correct = models.BooleanField(help_text="Whether the answer was graded right.")
    language = models.CharField(max_length=8, blank=True)
    quiz_item = models.PositiveBigIntegerField(
        db_index=True, help_text="The quiz item it was raised from (no foreign key: the "
                                 "quiz is a layer above).")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="problem_reports")
    session_key = models.CharField(max_length=64, blank=True)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    text = models.TextField(max_length=TEXT_MAX, blank=True,
                            validators=[MaxLengthValidator(TEXT_MAX)])
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    reply = models.TextField(max_length=REPLY_MAX, blank=True,
                             validators=[MaxLengthValidator(REPLY_MAX)])
    replied_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    replied_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")

    objects = ProblemReportQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["scenario", "closed_at"], name="report_scenario_open")]
        constraints = [
            models.UniqueConstraint(fields=["quiz_item"], condition=Q(closed_at__isnull=True),
                                    name="one_open_report_per_item"),
        ]

    def __str__(self) -> str:
        return f"{self.version} {self.question_id} {self.era}: {self.kind}"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None
