"""Quiz sessions, the questions served in them, attempts and review schedules."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User


class QuizSessionQuerySet(models.QuerySet["QuizSession"]):
    def running_exams(self, *, now: object) -> QuizSessionQuerySet:
        """Mock exams not handed in whose deadline is still ahead."""
        return self.filter(mode=QuizSession.Mode.EXAM, finished_at__isnull=True,
                           deadline__gt=now)

    def owned_by(self, *, user: User | AnonymousUser,
                 session_key: str | None) -> QuizSessionQuerySet:
        """The sessions of a signed-in user, or of an anonymous browser session."""
        if user.is_authenticated:
            return self.filter(user=user)
        if not session_key:
            return self.none()
        return self.filter(user__isnull=True, session_key=session_key)


class QuizSession(models.Model):
    class Mode(models.TextChoices):
        PRACTICE = "practice", _("Practice")
        REVIEW = "review", _("Review")
        EXAM = "exam", _("Mock exam")
        DRILL = "drill", _("Endless drill")

    class EraMode(models.TextChoices):
        CURRENT = "current", _("The current rules")
        ONE = "one", _("One era")
        MIXED = "mixed", _("Mixed eras")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.CASCADE, related_name="quiz_sessions")
    session_key = models.CharField(max_length=64, blank=True, db_index=True)
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.PRACTICE)
    topics = models.JSONField(default=list, blank=True)
    era_mode = models.CharField(max_length=10, choices=EraMode.choices,
                                default=EraMode.CURRENT)
    era = models.CharField(max_length=16, blank=True)
    difficulty_min = models.PositiveSmallIntegerField(default=1)
    difficulty_max = models.PositiveSmallIntegerField(default=5)
    length = models.PositiveSmallIntegerField(default=10)
    created_at = models.DateTimeField(default=timezone.now)
    deadline = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    level = models.FloatField(
        null=True, blank=True,
        help_text="an endless drill's target difficulty (1 to 5): up after a right answer, "
                  "down after a wrong one (quiz.drill)")

    objects = QuizSessionQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.mode} {self.id}"

    @property
    def is_exam(self) -> bool:
        return self.mode == self.Mode.EXAM

    @property
    def is_drill(self) -> bool:
        return self.mode == self.Mode.DRILL

    def is_expired(self, now: datetime | None = None) -> bool:
        return self.deadline is not None and (now or timezone.now()) >= self.deadline

    @property
    def closed_by_clock(self) -> bool:
        """An exam closed at its deadline (automatic hand-in) rather than by the
        candidate: ``quiz_finish`` records such a close at the deadline itself."""
        return (self.deadline is not None and self.finished_at is not None
                and self.finished_at >= self.deadline)


class QuizItem(models.Model):
    """One question of a session: which scenario version, question, era and variant."""

    session = models.ForeignKey(QuizSession, on_delete=models.CASCADE, related_name="items")
    position = models.PositiveSmallIntegerField()
    version = models.ForeignKey("scenarios.ScenarioVersion", on_delete=models.PROTECT,
                                related_name="quiz_items")
    question_id = models.CharField(max_length=64)
    era = models.CharField(max_length=16)
    seed = models.PositiveIntegerField(null=True, blank=True,
                                       help_text=_("Drawn when the question is first shown."))
    params = models.JSONField(default=dict, blank=True)
    served_at = models.DateTimeField(null=True, blank=True)
    flagged = models.BooleanField(default=False,
                                  help_text=_("Marked by the candidate to come back to."))
    # Not a column: set on the items ``quiz.rawsql.owned_item`` reads (the owner's mock
    # exam still running, or None); absent on items loaded otherwise.
    running_exam_id: uuid.UUID | None

    class Meta:
        ordering = ["session", "position"]
        constraints = [
            models.UniqueConstraint(fields=["session", "position"], name="unique_item_position"),
        ]

    def __str__(self) -> str:
        return f"{self.session_id} #{self.position}"


class Attempt(models.Model):
    """An answer to a served question, graded by the engine. One per item.

    Triggers on this table keep ``QuestionTally`` and ``CandidateScore`` (migration
    0004). On SQLite, a migration that alters a column of this table rebuilds it, which
    drops its triggers: such a migration must create them again (0004's
    ``create_triggers``); ``test_the_tallies_follow_inserts_claims_and_deletes`` fails
    otherwise."""

    item = models.OneToOneField(QuizItem, on_delete=models.CASCADE, related_name="attempt")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.CASCADE, related_name="attempts")
    session_key = models.CharField(max_length=64, blank=True)
    version = models.ForeignKey("scenarios.ScenarioVersion", on_delete=models.PROTECT,
                                related_name="attempts")
    question_id = models.CharField(max_length=64)
    era = models.CharField(max_length=16)
    seed = models.PositiveIntegerField()
    params = models.JSONField(default=dict, blank=True)
    answer = models.JSONField()
    correct = models.BooleanField()
    expected = models.JSONField()
    time_taken_ms = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # a candidate's attempts, newest first (the admin's search by username)
            models.Index(fields=["user", "-created_at"], name="attempt_user_recent"),
            # a scenario's attempts, newest first (the admin's search by scenario)
            models.Index(fields=["version", "-created_at"], name="attempt_version_recent"),
            # the per-question statistics: times per question, covered by the index
            models.Index(fields=["version", "question_id", "time_taken_ms"],
                         name="attempt_question_time"),
        ]

    def __str__(self) -> str:
        return f"{self.version} {self.question_id} {self.era}: {self.correct}"


# The two tallies below are kept by the database itself: triggers on the attempts table
# (quiz/migrations/0004_attempt_tallies.py, for SQLite and PostgreSQL) count every
# insert, delete and update in the statement's own transaction, whichever way it is
# written (the answer service's raw insert, claiming anonymous attempts at login, a
# cascade when a user is deleted, bulk loads). Pages read them instead of counting
# attempts: their cost no longer grows with the number of attempts.

class CandidateScore(models.Model):
    """How many questions a candidate has answered, and how many right: the overall
    score the statistics' discrimination index correlates each answer with."""

    candidate = models.CharField(max_length=80, primary_key=True,
                                 help_text="u<user id>, or s<session key> if anonymous.")
    attempts = models.PositiveIntegerField(default=0)
    correct = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.candidate}: {self.correct}/{self.attempts}"


class QuestionTally(models.Model):
    """The attempts at one question of one scenario version in one era, and how many
    were right."""

    version = models.ForeignKey("scenarios.ScenarioVersion", on_delete=models.CASCADE,
                                related_name="question_tallies")
    question_id = models.CharField(max_length=64)
    era = models.CharField(max_length=16)
    attempts = models.PositiveIntegerField(default=0)
    correct = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["version", "question_id", "era"],
                                    name="unique_question_tally"),
        ]

    def __str__(self) -> str:
        return f"{self.version_id} {self.question_id} {self.era}: {self.correct}/{self.attempts}"


class ReviewCard(models.Model):
    """The spaced-repetition schedule (FSRS) of one question for one candidate."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="review_cards")
    scenario = models.ForeignKey("scenarios.Scenario", on_delete=models.CASCADE,
                                 related_name="review_cards")
    question_id = models.CharField(max_length=64)
    card = models.JSONField()
    due = models.DateTimeField(db_index=True)
    reviews = models.PositiveIntegerField(default=0)
    lapses = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "scenario", "question_id"],
                                    name="unique_review_card"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.scenario_id} {self.question_id} due {self.due}"


class QuestionStatsSnapshot(models.Model):
    """The per-question statistics of a scenario with many attempts, as computed at
    ``computed_at`` (``quiz.selectors.question_stats``): the statistics page shows it
    instead of reading tens of thousands of attempts per view, and
    ``manage.py refresh_question_stats`` computes it afresh (run it every few minutes)."""

    scenario = models.OneToOneField("scenarios.Scenario", on_delete=models.CASCADE,
                                    related_name="+")
    computed_at = models.DateTimeField()
    attempts = models.PositiveIntegerField(help_text="The attempts counted then.")
    questions = models.JSONField(help_text="One object per question, its statistics.")

    def __str__(self) -> str:
        return f"{self.scenario_id} at {self.computed_at}"


class ThrottleWindow(models.Model):
    """One fixed-window request counter of quiz.throttle, when no shared cache is
    configured: the database is what every worker (and every server) shares, and one
    upsert statement counts exactly however many requests race."""

    name = models.CharField(max_length=200, primary_key=True)
    period = models.BigIntegerField()
    """The window's number: seconds since the epoch divided by its length."""
    hits = models.PositiveIntegerField(default=0)
    ends = models.BigIntegerField(db_index=True)
    """When the window ends (seconds since the epoch): purged after."""

    def __str__(self) -> str:
        return f"{self.name}: {self.hits} in window {self.period}"
