"""Reads for the quiz: which questions can be served, what is due, progress figures."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import (
    Count,
    Exists,
    Func,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Sum,
)
from django.db.models.functions import Coalesce
from django.utils import timezone

from engine.eras import CURRENT
from quiz.models import Attempt, QuizItem, QuizSession, ReviewCard
from quiz.rawsql import RowReader
from scenarios.models import Scenario


@dataclass(frozen=True, slots=True)
class Candidate:
    """A question that can be served: a published scenario version, a question, eras."""

    scenario: Scenario
    question_id: str
    eras: tuple[str, ...]


def question_pool(*, topics: list[str], difficulty_min: int, difficulty_max: int,
                  era_mode: str, era: str = "") -> list[Candidate]:
    scenarios = (Scenario.objects.published().by_topic(*topics)
                 .difficulty_between(difficulty_min, difficulty_max)
                 .select_related("current_version"))
    wanted = {"current": CURRENT.key, "one": era}.get(era_mode)
    pool: list[Candidate] = []
    for scenario in scenarios:
        version = scenario.current_version
        assert version is not None
        eras = tuple(version.eras)
        if wanted:
            if wanted not in eras:
                continue
            eras = (wanted,)
        for q in version.document.get("questions", []):
            pool.append(Candidate(scenario, q["id"], eras))
    return pool


def running_exam(*, user: Any, session_key: str | None,
                 now: datetime | None = None) -> QuizSession | None:
    """This candidate's (or anonymous browser's) mock exam still running, if any."""
    return (QuizSession.objects.owned_by(user=user, session_key=session_key)
            .running_exams(now=now or timezone.now()).order_by("deadline").first())


def exam_navigator(session: QuizSession) -> list[dict[str, Any]]:
    """Every question of a session by position: answered, flagged (one query)."""
    rows = session.items.order_by("position").values_list("position", "flagged",
                                                          "attempt__id")
    return [{"position": p, "flagged": f, "answered": a is not None} for p, f, a in rows]


def due_cards(*, user: Any, now: datetime | None = None) -> QuerySet[ReviewCard]:
    now = now or timezone.now()
    return (ReviewCard.objects.filter(user=user, due__lte=now,
                                      scenario__status=Scenario.Status.PUBLISHED)
            .select_related("scenario", "scenario__current_version").order_by("due"))


def session_summary(session: QuizSession) -> dict[str, Any]:
    """Score and breakdown by topic and era of a session."""
    items = list(session.items.select_related("version__scenario", "attempt"))
    answered = [i for i in items if hasattr(i, "attempt")]
    correct = sum(1 for i in answered if i.attempt.correct)
    by_topic: dict[str, list[int]] = {}
    by_era: dict[str, list[int]] = {}
    for i in answered:
        for key, table in ((i.version.scenario.topic, by_topic), (i.era, by_era)):
            row = table.setdefault(key, [0, 0])
            row[0] += int(i.attempt.correct)
            row[1] += 1
    return {"items": items, "answered": len(answered), "correct": correct,
            "total": len(items), "by_topic": by_topic, "by_era": by_era}


def progress_by_topic(*, user: Any) -> list[dict[str, Any]]:
    rows = (Attempt.objects.filter(user=user)
            .values("version__scenario__topic")
            .annotate(total=Count("id"), right=Count("id", filter=Q(correct=True)))
            .order_by("version__scenario__topic"))
    return [{"topic": r["version__scenario__topic"], "total": r["total"], "correct": r["right"]}
            for r in rows]


_OWNED_ITEM: dict[str, tuple[RowReader, RowReader, RowReader, str]] = {}


def _owned_item_plan(connection: Any) -> tuple[RowReader, RowReader, RowReader, str]:
    plan = _OWNED_ITEM.get(connection.alias)
    if plan is None:
        item, session, attempt = (RowReader(QuizItem, connection, "i"),
                                  RowReader(QuizSession, connection, "s"),
                                  RowReader(Attempt, connection, "a"))
        select = ", ".join(item.columns + session.columns + attempt.columns)
        # The candidate's running mock exam, if any (its id): answers and feedback of
        # other sessions are refused while it runs, at no extra round trip.
        exam = (f"(SELECT e.id FROM {QuizSession._meta.db_table} e WHERE {{exam_owner}} "
                f"AND e.mode = %s AND e.finished_at IS NULL AND e.deadline > %s "
                f"ORDER BY e.deadline LIMIT 1)")
        sql = (f"SELECT {select}, {exam} FROM {QuizItem._meta.db_table} i "
               f"JOIN {QuizSession._meta.db_table} s ON s.id = i.session_id "
               f"LEFT JOIN {Attempt._meta.db_table} a ON a.item_id = i.id "
               f"WHERE i.session_id = %s AND i.position = %s AND {{owner}}")
        plan = _OWNED_ITEM[connection.alias] = (item, session, attempt, sql)
    return plan


def owned_item(*, session_id: Any, position: int, user_id: int | None = None,
               session_key: str | None = None) -> QuizItem | None:
    """One query for the item, its session and its attempt, owned by this user (or, for
    an anonymous quiz, this browser session); None otherwise. ``item.running_exam_id``
    is the owner's mock exam still running (this session or another), or None."""
    import uuid

    from django.db import connection

    try:
        sid = uuid.UUID(str(session_id))
    except ValueError:
        return None
    items, sessions, attempts, sql = _owned_item_plan(connection)
    if user_id is not None:
        owner, exam_owner, who = "s.user_id = %s", "e.user_id = %s", user_id
    else:
        owner = "s.user_id IS NULL AND s.session_key = %s"
        exam_owner, who = "e.user_id IS NULL AND e.session_key = %s", session_key
    session_param = sid.hex if connection.vendor == "sqlite" else sid
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(sql.format(owner=owner, exam_owner=exam_owner),
                       [who, QuizSession.Mode.EXAM.value, now, session_param, position, who])
        row = cursor.fetchone()
    if row is None:
        return None
    n_item, n_session = len(items), len(sessions)
    item = items.instance(row[:n_item], connection)
    item.session = sessions.instance(row[n_item:n_item + n_session], connection)
    exam_id = row[-1]
    item.running_exam_id = None if exam_id is None else uuid.UUID(str(exam_id))
    attempt_row = row[n_item + n_session:-1]
    if attempt_row[0] is not None:
        item.attempt = attempts.instance(attempt_row, connection)
    else:
        item._state.fields_cache["attempt"] = None  # known to have no attempt: no query
    return item


class _QuestionsLength(Func):
    """The number of questions in a version's document, counted by the database, so a
    count of the pool reads no document (SQLite and PostgreSQL; MySQL's form otherwise)."""

    output_field = IntegerField()
    template = "JSON_LENGTH(%(expressions)s, '$.questions')"

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection,
                           template="JSON_ARRAY_LENGTH(%(expressions)s, '$.questions')", **extra)

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection,
                           template="jsonb_array_length(%(expressions)s -> 'questions')", **extra)


def question_count(*, topics: list[str], difficulty_min: int, difficulty_max: int,
                   era_mode: str, era: str = "") -> int:
    """``len(question_pool(...))`` for the same filters, as one aggregate query: the
    practice page shows it live as the filters change, so it must not read every
    document or run the engine. The filters are question_pool's (a test keeps them equal)."""
    scenarios = (Scenario.objects.published().by_topic(*topics)
                 .difficulty_between(difficulty_min, difficulty_max))
    wanted = {"current": CURRENT.key, "one": era}.get(era_mode)
    if wanted:
        scenarios = scenarios.in_era(wanted)
    total = scenarios.aggregate(
        n=Coalesce(Sum(_QuestionsLength("current_version__document")), 0))["n"]
    return int(total)


def review_forecast(*, user: Any, now: datetime) -> dict[str, int]:
    """How many of the candidate's review cards are due now, by the end of today
    (already due included), tomorrow, and within the next seven days (today included).
    One aggregate query, whatever the number of cards. Days end at midnight in the
    active time zone. Cards of unpublished scenarios are left out, as in ``due_cards``."""
    local = timezone.localtime(now)
    end_today = local.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1)
    end_tomorrow = end_today + timedelta(days=1)
    return (ReviewCard.objects
            .filter(user=user, scenario__status=Scenario.Status.PUBLISHED)
            .aggregate(now=Count("pk", filter=Q(due__lte=now)),
                       today=Count("pk", filter=Q(due__lt=end_today)),
                       tomorrow=Count("pk", filter=Q(due__gte=end_today,
                                                     due__lt=end_tomorrow)),
                       week=Count("pk", filter=Q(due__lt=now + timedelta(days=7)))))


def abandoned_anonymous_sessions(*, created_before: datetime,
                                 now: datetime) -> QuerySet[QuizSession]:
    """Anonymous quizzes nobody can come back to: created before ``created_before``, their
    browser session gone or expired, and never answered (an attempt is part of the
    instructors' statistics, so a session with one is kept)."""
    from importlib import import_module

    from django.conf import settings

    store = import_module(settings.SESSION_ENGINE).SessionStore
    live = store.get_model_class().objects.filter(expire_date__gt=now).values("session_key")
    answered = Attempt.objects.filter(item__session=OuterRef("pk"))
    return (QuizSession.objects
            .filter(user__isnull=True, created_at__lt=created_before)
            .exclude(session_key__in=live)
            .filter(~Exists(answered)))
