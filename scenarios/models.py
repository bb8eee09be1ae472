"""Scenarios and their immutable versions.

A :class:`Scenario` is the stable identity (slug, topic, status); each edit makes a new
:class:`ScenarioVersion` holding the whole document and the answer keys the engine
computed for it. A published version never changes.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.db import models
from django.db.models import Count, Max, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from engine import ERA_KEYS, TOPICS
from scenarios.untranslated import Untranslated

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


FACT_FIELDS = ("questions", "titles", "changed_in")
"""What a version stores about itself for the public pages (:func:`version_facts`)."""


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

    def with_facts(self, *fields: str,
                   facts: tuple[str, ...] = FACT_FIELDS) -> list[dict[str, Any]]:
        """One dict per scenario: ``fields`` (``values()`` names), ``current_version_id``
        and the ``facts`` (of :data:`FACT_FIELDS`) of its current version under their own
        names, in one query that reads no document. A version saved before versions kept
        their facts has them computed from its document (one query more, until
        ``versions_refresh`` fills them)."""
        columns = {f"current_version__{name}": name for name in facts}
        rows = list(self.values(*fields, "current_version_id", *columns))
        for row in rows:
            for column, name in columns.items():
                row[name] = row.pop(column)
        missing = {row["current_version_id"] for row in rows
                   if any(row[name] is None for name in facts)}
        if missing:
            found = {pk: version_facts(document, keys) for pk, document, keys in
                     ScenarioVersion.objects.filter(pk__in=missing).values_list(
                         "pk", "document", "answer_keys")}
            for row in rows:
                if row["current_version_id"] in found:
                    row.update({name: found[row["current_version_id"]][name]
                                for name in facts})
        return rows

    def published_stamp(self) -> tuple[Any, ...]:
        """What the published library is, in one aggregate query: how many scenarios, the
        sum and the largest of their current versions' ids, the latest change to any of
        them. It changes whenever one is published (a new version), retired, re-published
        or re-filed: a per-process cache of a page listing published scenarios, keyed by
        it, is never stale, whichever worker or server made the change."""
        row = self.published().aggregate(n=Count("pk"), ids=Sum("current_version_id"),
                                         top=Max("current_version_id"), at=Max("updated_at"))
        return (row["n"], row["ids"], row["top"], row["at"])


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
        texts = version.titles if version.titles is not None else \
            version.document.get("title", {})
        return title_in(texts, language, self.slug)


def title_in(titles: dict[str, Any], language: str, fallback: str) -> str:
    """A title in ``language``, else in English (:class:`Untranslated`: pages mark it),
    else ``fallback`` (the slug)."""
    if titles.get(language):
        return str(titles[language])
    if titles.get("en"):
        return Untranslated(titles["en"]) if language != "en" else str(titles["en"])
    return str(fallback)


class ImmutableVersionError(ValidationError):
    pass


def version_facts(document: Any, answer_keys: Any) -> dict[str, Any]:
    """What the public pages read of a version instead of its document: its question ids
    in order (the quiz's pool, the practice count), its title per language (lists), and
    the eras whose answers differ from the era before (the timeline), compared as the
    database gives the answer keys back. They follow from the document and the answer
    keys alone, which a published version never changes."""
    keys = json.loads(json.dumps(answer_keys))
    questions = [str(q["id"]) for q in document.get("questions", [])
                 if isinstance(q, dict) and "id" in q]
    changed = [era for before, era in zip(ERA_KEYS, ERA_KEYS[1:], strict=False)
               if before in keys and era in keys and keys[before] != keys[era]]
    return {"questions": questions, "titles": dict(document.get("title") or {}),
            "changed_in": changed}


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
    variants = models.JSONField(
        default=dict, blank=True,
        help_text="a generator's survey from its check: distinct boards, skips per era, each "
                  "question's answers over the draws (engine.draws.Survey.as_json); {} "
                  "without parameters")
    published_at = models.DateTimeField(null=True, blank=True)
    # Facts kept on every save (version_facts): null on a row saved before they existed,
    # until versions_refresh fills it; readers compute them from the document meanwhile.
    questions = models.JSONField(null=True, blank=True, help_text="question ids, in order")
    titles = models.JSONField(null=True, blank=True, help_text="language -> title")
    changed_in = models.JSONField(
        null=True, blank=True, help_text="eras whose answers differ from the era before")

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
        update_fields = kwargs.get("update_fields")
        if update_fields is None or set(FACT_FIELDS) & set(update_fields):
            self.fill_facts()
        super().save(*args, **kwargs)

    def fill_facts(self) -> None:
        """Set :data:`FACT_FIELDS` from the document and the answer keys (saving writes
        them, or ``save(update_fields=FACT_FIELDS)``)."""
        for name, value in version_facts(self.document, self.answer_keys).items():
            setattr(self, name, value)

    @property
    def has_facts(self) -> bool:
        return all(getattr(self, name) is not None for name in FACT_FIELDS)

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
