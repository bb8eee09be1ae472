"""Reads for the quiz: which questions can be served, what is due, progress figures, what
an item's page shows besides the item, and the per-question statistics of the attempts."""

from __future__ import annotations

import json
import math
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from engine import CURRENT
from quiz import rawsql
from quiz.models import Attempt, QuizItem, QuizSession, ReviewCard
from scenarios.models import ProblemReport, Scenario
from scenarios.selectors import item_reports

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User


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


def running_exam(*, user: User | AnonymousUser, session_key: str | None,
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


def owned_item(*, session_id: Any, position: int, user_id: int | None = None,
               session_key: str | None = None) -> QuizItem | None:
    """The item with its session and attempt, owned by this user (or, for an anonymous
    quiz, this browser session); None otherwise. ``item.running_exam_id`` is the owner's
    mock exam still running (this session or another), or None. One plain query
    (``quiz.rawsql.owned_item``): every question and answer runs it."""
    return rawsql.owned_item(session_id=session_id, position=position, user_id=user_id,
                             session_key=session_key)


@dataclass(frozen=True, slots=True)
class ItemReads:
    """What an item's page reads besides the item, for the presenters: the session's
    questions answered and answered right, the candidate's problem reports on the item
    (once its feedback shows), and the navigator of a running mock exam (whole pages)."""

    done: int
    right: int
    reports: list[ProblemReport] = field(default_factory=list)
    navigator: list[dict[str, Any]] | None = None


def item_reads(*, session: QuizSession, item: QuizItem, page: bool = True,
               just_recorded: bool = False) -> ItemReads:
    """The reads of an item's page (``page``) or of its answer area alone. ``just_recorded``:
    the attempt was made by this request, so no problem report can exist for it yet (one
    query fewer on the answer path)."""
    done, right = rawsql.session_counts(session)
    feedback = hasattr(item, "attempt") and (not session.is_exam
                                             or session.finished_at is not None)
    reports = item_reports(quiz_item=item.pk) if feedback and not just_recorded else []
    navigator = (exam_navigator(session)
                 if page and session.is_exam and session.finished_at is None else None)
    return ItemReads(done, right, reports, navigator)


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
        n=Coalesce(Sum(rawsql.QuestionsLength("current_version__document")), 0))["n"]
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


# -- per-question statistics, for instructors ---------------------------------------------

@dataclass(slots=True)
class QuestionStats:
    question: str
    attempts: int = 0
    facility: float | None = None
    discrimination: float | None = None
    median_ms: float | None = None
    wrong_answers: list[tuple[str, int]] = field(default_factory=list)
    by_era: list[tuple[str, int, float]] = field(default_factory=list)
    by_param: list[tuple[str, str, int, float]] = field(default_factory=list)


def _candidate(attempt: Any) -> str:
    return f"u{attempt.user_id}" if attempt.user_id else f"s{attempt.session_key}"


def point_biserial(item: list[int], totals: list[float]) -> float | None:
    """Correlation of a right/wrong item with the candidates' overall scores."""
    n = len(item)
    if n < 2:
        return None
    right = [t for i, t in zip(item, totals, strict=True) if i]
    wrong = [t for i, t in zip(item, totals, strict=True) if not i]
    if not right or not wrong:
        return None
    sd = statistics.pstdev(totals)
    if sd == 0:
        return None
    p = len(right) / n
    return (statistics.fmean(right) - statistics.fmean(wrong)) / sd * math.sqrt(p * (1 - p))


def question_stats(scenario: Scenario) -> list[QuestionStats]:
    """Per question of ``scenario``, from every attempt at any of its versions: facility,
    discrimination, median time, the commonest wrong answers, by era and by parameter."""
    attempts = list(Attempt.objects.filter(version__scenario=scenario)
                    .only("question_id", "correct", "answer", "era", "params",
                          "time_taken_ms", "user_id", "session_key"))
    if not attempts:
        return []
    candidates = {_candidate(a) for a in attempts}
    overall: dict[str, list[int]] = defaultdict(list)
    for a in (Attempt.objects.filter(Q(user_id__in=[c[1:] for c in candidates
                                                    if c.startswith("u")])
                                     | Q(session_key__in=[c[1:] for c in candidates
                                                          if c.startswith("s")]))
              .only("correct", "user_id", "session_key")):
        overall[_candidate(a)].append(int(a.correct))
    score = {c: statistics.fmean(v) for c, v in overall.items() if v}
    by_question: dict[str, list[Any]] = defaultdict(list)
    for a in attempts:
        by_question[a.question_id].append(a)
    version = scenario.current_version or scenario.latest_version()
    assert version is not None  # the attempts above answered one of its versions
    document = version.document
    order = [q["id"] for q in document.get("questions", [])]
    out = []
    for qid in sorted(by_question, key=lambda q: order.index(q) if q in order else 99):
        rows = by_question[qid]
        stats = QuestionStats(qid, len(rows))
        stats.facility = statistics.fmean(int(a.correct) for a in rows)
        stats.discrimination = point_biserial([int(a.correct) for a in rows],
                                              [score.get(_candidate(a), 0.0) for a in rows])
        stats.median_ms = statistics.median(a.time_taken_ms for a in rows)
        wrong = Counter(json.dumps(a.answer, ensure_ascii=False, sort_keys=True)
                        for a in rows if not a.correct)
        stats.wrong_answers = wrong.most_common(8)
        eras: dict[str, list[int]] = defaultdict(list)
        params: dict[tuple[str, str], list[int]] = defaultdict(list)
        for a in rows:
            eras[a.era].append(int(a.correct))
            for name, value in (a.params or {}).items():
                params[(name, str(value))].append(int(a.correct))
        stats.by_era = [(e, len(v), statistics.fmean(v)) for e, v in sorted(eras.items())]
        stats.by_param = [(n, val, len(v), statistics.fmean(v))
                          for (n, val), v in sorted(params.items())]
        out.append(stats)
    return out
