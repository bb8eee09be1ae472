"""Reads for the quiz: which questions can be served, what is due, progress figures."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from engine.eras import CURRENT
from quiz.models import Attempt, QuizItem, QuizSession, ReviewCard
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


def _columns(model: Any) -> list[str]:
    return [f.column for f in model._meta.concrete_fields]


def owned_item(*, session_id: Any, position: int, user_id: int | None = None,
               session_key: str | None = None) -> QuizItem | None:
    """One query for the item, its session and its attempt, owned by this user (or, for
    an anonymous quiz, this browser session); None otherwise."""
    import uuid

    from django.db import connection

    try:
        sid = uuid.UUID(str(session_id))
    except ValueError:
        return None
    item_cols, session_cols, attempt_cols = (_columns(QuizItem), _columns(QuizSession),
                                             _columns(Attempt))
    qn = connection.ops.quote_name
    select = ", ".join([f"i.{qn(c)}" for c in item_cols] + [f"s.{qn(c)}" for c in session_cols]
                       + [f"a.{qn(c)}" for c in attempt_cols])
    owner = ("s.user_id = %s" if user_id is not None else
             "s.user_id IS NULL AND s.session_key = %s")
    sql = (f"SELECT {select} FROM {QuizItem._meta.db_table} i "
           f"JOIN {QuizSession._meta.db_table} s ON s.id = i.session_id "
           f"LEFT JOIN {Attempt._meta.db_table} a ON a.item_id = i.id "
           f"WHERE i.session_id = %s AND i.position = %s AND {owner}")
    session_param = sid.hex if connection.vendor == "sqlite" else sid
    with connection.cursor() as cursor:
        cursor.execute(sql, [session_param, position,
                             user_id if user_id is not None else session_key])
        row = cursor.fetchone()
    if row is None:
        return None
    n_item, n_session = len(item_cols), len(session_cols)
    item = QuizItem.from_db(connection.alias, [f.attname for f in
                                                QuizItem._meta.concrete_fields],
                            _convert(QuizItem, row[:n_item]))
    session = QuizSession.from_db(connection.alias, [f.attname for f in
                                                     QuizSession._meta.concrete_fields],
                                  _convert(QuizSession, row[n_item:n_item + n_session]))
    item.session = session
    attempt_row = row[n_item + n_session:]
    if attempt_row[0] is not None:
        attempt = Attempt.from_db(connection.alias, [f.attname for f in
                                                     Attempt._meta.concrete_fields],
                                  _convert(Attempt, attempt_row))
        item.attempt = attempt
    else:
        item._state.fields_cache["attempt"] = None  # known to have no attempt: no query
    return item


def _convert(model: Any, values: tuple[Any, ...]) -> list[Any]:
    """Database values to Python values, as the ORM's compiler converts them."""
    from django.db import connection

    out = []
    for field, value in zip(model._meta.concrete_fields, values, strict=True):
        col = field.get_col(model._meta.db_table)
        for converter in (connection.ops.get_db_converters(col)
                          + col.get_db_converters(connection)):
            value = converter(value, col, connection)
        out.append(value)
    return out
