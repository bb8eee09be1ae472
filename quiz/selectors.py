"""Reads for the quiz: which questions can be served, what is due, progress figures."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, Q, QuerySet
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
        sql = (f"SELECT {select} FROM {QuizItem._meta.db_table} i "
               f"JOIN {QuizSession._meta.db_table} s ON s.id = i.session_id "
               f"LEFT JOIN {Attempt._meta.db_table} a ON a.item_id = i.id "
               f"WHERE i.session_id = %s AND i.position = %s AND {{owner}}")
        plan = _OWNED_ITEM[connection.alias] = (item, session, attempt, sql)
    return plan


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
    items, sessions, attempts, sql = _owned_item_plan(connection)
    owner = ("s.user_id = %s" if user_id is not None else
             "s.user_id IS NULL AND s.session_key = %s")
    session_param = sid.hex if connection.vendor == "sqlite" else sid
    with connection.cursor() as cursor:
        cursor.execute(sql.format(owner=owner),
                       [session_param, position,
                        user_id if user_id is not None else session_key])
        row = cursor.fetchone()
    if row is None:
        return None
    n_item, n_session = len(items), len(sessions)
    item = items.instance(row[:n_item], connection)
    item.session = sessions.instance(row[n_item:n_item + n_session], connection)
    attempt_row = row[n_item + n_session:]
    if attempt_row[0] is not None:
        item.attempt = attempts.instance(attempt_row, connection)
    else:
        item._state.fields_cache["attempt"] = None  # known to have no attempt: no query
    return item
