"""Reads for the quiz: which questions can be served, what is due, progress figures."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from engine.eras import CURRENT
from quiz.models import Attempt, QuizSession, ReviewCard
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
