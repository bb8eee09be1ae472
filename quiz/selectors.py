"""Reads for the quiz: which questions can be served, what is due, progress figures, what
an item's page shows besides the item, and the per-question statistics of the attempts."""

from __future__ import annotations

import json
import math
import statistics
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from django.db import connection
from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    JSONField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Sum,
    When,
)
from django.utils import timezone

from engine import CURRENT, card_or_none
from quiz import rawsql
from quiz.models import (
    Attempt,
    QuestionStatsSnapshot,
    QuestionTally,
    QuizItem,
    QuizSession,
    ReviewCard,
)
from scenarios.caches import memo
from scenarios.models import ProblemReport, Scenario
from scenarios.selectors import item_reports

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User


@dataclass(frozen=True, slots=True)
class Candidate:
    """A question that can be served: a published scenario version, a question, eras."""

    scenario_id: int
    version_id: int
    question_id: str
    eras: tuple[str, ...]


def question_pool(*, topics: list[str], difficulty_min: int, difficulty_max: int,
                  era_mode: str, era: str = "") -> list[Candidate]:
    """Every question of the published scenarios the filters match, in the library's
    order, from what each version stores (:func:`_servable`): no document is read."""
    return [Candidate(s.scenario_id, s.version_id, question, eras)
            for s, eras in pool_scenarios(topics=topics, difficulty_min=difficulty_min,
                                          difficulty_max=difficulty_max,
                                          era_mode=era_mode, era=era)
            for question in s.questions]


def pool_scenarios(*, topics: list[str], difficulty_min: int, difficulty_max: int,
                   era_mode: str, era: str = "") -> list[tuple[Servable, tuple[str, ...]]]:
    """The published scenarios the filters match, each with the eras its questions may
    be asked in (:func:`question_pool` by scenario, without making every question)."""
    wanted = {"current": CURRENT.key, "one": era}.get(era_mode)
    return [(s, (wanted,) if wanted else s.eras)
            for s in _servable(Scenario.objects.published_stamp())
            if (not topics or s.topic in topics)
            and difficulty_min <= s.difficulty <= difficulty_max
            and (not wanted or wanted in s.eras)]


@dataclass(frozen=True, slots=True)
class Servable:
    """A published scenario as a quiz draws from it."""

    scenario_id: int
    version_id: int
    topic: str
    difficulty: int
    eras: tuple[str, ...]
    questions: tuple[str, ...]


@memo(maxsize=2)
def _servable(stamp: tuple[Any, ...]) -> tuple[Servable, ...]:
    """Every published scenario, from one query of what its current version stores, kept
    per process for the library ``stamp`` says (``Scenario.objects.published_stamp()``:
    a publish or retirement anywhere changes it, so a quiz never draws from a stale
    library). Bound: two entries, each about 500 bytes per scenario (~0.6 MB at 1,000)."""
    rows = Scenario.objects.published().with_facts(
        "pk", "topic", "difficulty", "current_version__eras", facts=("questions",))
    return tuple(Servable(r["pk"], r["current_version_id"], r["topic"], r["difficulty"],
                          tuple(sys.intern(e) for e in r["current_version__eras"]),
                          tuple(r["questions"])) for r in rows)


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
    """``len(question_pool(...))`` for the same filters: the practice page shows it live
    as the filters change, so it reads no document and runs no engine; it counts the
    question ids each version stores, from the per-process copy of the library
    (:func:`_servable`): one cheap query (the library's stamp) once it is kept."""
    return sum(len(s.questions) for s, _ in pool_scenarios(
        topics=topics, difficulty_min=difficulty_min, difficulty_max=difficulty_max,
        era_mode=era_mode, era=era))


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
    by_feature: list[tuple[str, str, int, float, int, float]] = field(default_factory=list)
    """A drawn card's keyword against the share right: (parameter, keyword, attempts with
    it, share right with it, attempts without, share right without)."""


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


def point_biserial_grouped(groups: list[tuple[bool, float, int]]) -> float | None:
    """``point_biserial`` of answers given as (right, overall score, how many) groups:
    the same float, bit for bit, computed exactly (fractions) from counts instead of a
    list with one entry per answer (``fmean`` and ``pstdev`` are exact sums rounded
    once, which sums of fractions reproduce)."""
    n = sum(count for _, _, count in groups)
    n_right = sum(count for right, _, count in groups if right)
    if n < 2 or n_right in (0, n):
        return None
    total = sum((Fraction(score) * count for _, score, count in groups), Fraction(0))
    mean = total / n
    variance = sum((count * (Fraction(score) - mean) ** 2 for _, score, count in groups),
                   Fraction(0)) / n
    if variance == 0:
        return None
    sd = _sqrt_correctly_rounded(variance)
    right = sum((Fraction(score) * count for r, score, count in groups if r), Fraction(0))
    mean_right = float(right) / n_right
    mean_wrong = float(total - right) / (n - n_right)
    p = n_right / n
    return (mean_right - mean_wrong) / sd * math.sqrt(p * (1 - p))


def _sqrt_correctly_rounded(x: Fraction) -> float:
    """The square root of a positive fraction as the nearest float (what ``pstdev``
    returns for an exact variance): an integer square root with enough bits, rounded to
    odd, then one rounding to a float."""
    n, m = x.numerator, x.denominator
    q = (n.bit_length() - m.bit_length() - (2 * sys.float_info.mant_dig + 3)) // 2
    if q >= 0:
        root = math.isqrt(n // (m << 2 * q))
        exact = root * root * (m << 2 * q) == n
        return ((root | (not exact)) << q) / 1
    root = math.isqrt((n << -2 * q) // m)
    exact = root * root * m == n << -2 * q
    return (root | (not exact)) / (1 << -q)


LIVE_STATISTICS_LIMIT = 1_000
"""Up to this many attempts, a scenario's statistics are computed on each view (tens of
milliseconds); beyond, the page shows the snapshot ``manage.py refresh_question_stats``
last stored (the computation reads every attempt at the scenario: 1.2 s for the 88,000
of the most answered at 100x data, against 10 ms for a snapshot)."""


def question_stats_shown(scenario: Scenario) -> tuple[list[QuestionStats], datetime | None]:
    """The statistics the page shows, and when they were computed (None: just now).
    Never writes: without a snapshot yet, a large scenario's are computed now."""
    total = (QuestionTally.objects.filter(version__scenario=scenario)
             .aggregate(n=Sum("attempts"))["n"] or 0)
    if total > LIVE_STATISTICS_LIMIT:
        snapshot = QuestionStatsSnapshot.objects.filter(scenario=scenario).first()
        if snapshot is not None:
            return [stats_from_json(q) for q in snapshot.questions], snapshot.computed_at
    return question_stats(scenario), None


def stats_from_json(data: dict[str, Any]) -> QuestionStats:
    """A question's statistics as stored in a snapshot (``dataclasses.asdict``)."""
    return QuestionStats(
        question=data["question"], attempts=data["attempts"], facility=data["facility"],
        discrimination=data["discrimination"], median_ms=data["median_ms"],
        wrong_answers=[(a, n) for a, n in data["wrong_answers"]],
        by_era=[(e, n, f) for e, n, f in data["by_era"]],
        by_param=[(name, value, n, f) for name, value, n, f in data["by_param"]],
        by_feature=[(name, kw, n, f, n_out, f_out)
                    for name, kw, n, f, n_out, f_out in data.get("by_feature", [])])


def question_stats(scenario: Scenario) -> list[QuestionStats]:
    """Per question of ``scenario``, from every attempt at any of its versions: facility,
    discrimination, median time, the commonest wrong answers, by era and by parameter.

    Counts come from the tallies the database keeps (``QuestionTally``, and each
    candidate's overall score in ``CandidateScore``); the rest from grouped queries over
    this scenario's attempts alone, each returning one row per distinct value (time,
    wrong answer, variant, score), never one per attempt or per candidate."""
    versions = list(scenario.versions.values_list("pk", flat=True))
    tallies = list(QuestionTally.objects.filter(version__in=versions, attempts__gt=0)
                   .values_list("question_id", "era")
                   .annotate(n=Sum("attempts"), right=Sum("correct")).order_by())
    if not tallies:
        return []
    attempts = Attempt.objects.filter(version__in=versions).order_by()
    by_question: dict[str, QuestionStats] = {}
    rights: Counter[str] = Counter()
    for qid, era, n, right in sorted(tallies):
        stats = by_question.setdefault(qid, QuestionStats(qid))
        stats.attempts += n
        rights[qid] += right
        stats.by_era.append((era, n, right / n))
    for qid, stats in by_question.items():
        stats.facility = rights[qid] / stats.attempts
    _medians(by_question, attempts)
    _answers_and_variants(by_question, attempts)
    _discrimination(by_question, versions)
    version = scenario.current_version or scenario.latest_version()
    assert version is not None  # the attempts counted answered one of its versions
    order = [q["id"] for q in version.document.get("questions", [])]
    unknown = [q for q in by_question if q not in order]
    latest: dict[str, Any] = {}
    if unknown:  # questions since removed: last answered first, as the attempts' order
        latest = dict(attempts.filter(question_id__in=unknown).values_list("question_id")
                      .annotate(last=Max("created_at")))
    ranked = sorted(by_question, key=lambda q: (order.index(q) if q in order else 99,
                                                 -latest[q].timestamp() if q in latest else 0))
    return [by_question[q] for q in ranked]


def _medians(by_question: dict[str, QuestionStats], attempts: QuerySet[Attempt]) -> None:
    times: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for qid, ms, n in (attempts.values_list("question_id", "time_taken_ms")
                       .annotate(n=Count("pk")).order_by("question_id", "time_taken_ms")):
        times[qid].append((ms, n))
    for qid, counts in times.items():
        total = sum(n for _, n in counts)
        middle = [(total - 1) // 2, total // 2]
        found: list[int] = []
        seen = 0
        for ms, n in counts:
            while middle and middle[0] < seen + n:
                found.append(ms)
                middle.pop(0)
            seen += n
        by_question[qid].median_ms = found[0] if total % 2 else (found[0] + found[1]) / 2


def _answers_and_variants(by_question: dict[str, QuestionStats],
                          attempts: QuerySet[Attempt]) -> None:
    """The commonest wrong answers and the share right per parameter value, from one
    query grouped by (question, right, variant, the answer when wrong)."""
    wrong: dict[str, dict[str, list[Any]]] = defaultdict(dict)
    params: dict[str, dict[tuple[str, str], list[int]]] = defaultdict(
        lambda: defaultdict(lambda: [0, 0]))
    features: dict[str, dict[tuple[str, str], list[int]]] = defaultdict(
        lambda: defaultdict(lambda: [0, 0]))
    given = Case(When(correct=False, then=F("answer")), default=None,
                 output_field=JSONField())
    for qid, correct, values, answer, n, last in (
            attempts.annotate(given=given)
            .values_list("question_id", "correct", "params", "given")
            .annotate(n=Count("pk"), last=Max("created_at"))):
        for name, value in (values or {}).items():
            tally = params[qid][(name, str(value))]
            tally[0] += n
            tally[1] += n if correct else 0
            for keyword in _keywords(value):
                having = features[qid][(name, keyword)]
                having[0] += n
                having[1] += n if correct else 0
        if not correct:
            key = json.dumps(answer, ensure_ascii=False, sort_keys=True)
            seen = wrong[qid].setdefault(key, [0, last])
            seen[0] += n
            seen[1] = max(seen[1], last)
    for qid, answers in wrong.items():
        # the commonest first; of equal counts the one given last first
        ranked = sorted(answers.items(), key=lambda kv: (-kv[1][0], -kv[1][1].timestamp()))
        by_question[qid].wrong_answers = [(key, n) for key, (n, _) in ranked[:8]]
    for qid, counts in params.items():
        by_question[qid].by_param = [(name, value, n, right / n)
                                     for (name, value), (n, right) in sorted(counts.items())]
    for qid, keyed in features.items():
        # A card parameter's attempts: those of every card it drew (each value's tally).
        drawn: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for (name, _value), (n, right) in params[qid].items():
            drawn[name][0] += n
            drawn[name][1] += right
        rows = []
        for (name, keyword), (n, right) in sorted(keyed.items()):
            total, total_right = drawn[name]
            n_without, right_without = total - n, total_right - right
            if n_without:  # a keyword every drawn card had tells nothing
                rows.append((name, keyword, n, right / n, n_without,
                             right_without / n_without))
        by_question[qid].by_feature = rows


def _keywords(value: Any) -> frozenset[str]:
    """The keywords of the catalog card a parameter drew (none for another value)."""
    card = card_or_none(value)
    return card.keywords if card is not None else frozenset()


def _discrimination(by_question: dict[str, QuestionStats], versions: list[int]) -> None:
    """Each answer against its candidate's overall score (``CandidateScore``, the key the
    tally triggers write: u<user id> or s<session key>), grouped by (question, right,
    score): one row per distinct score, one join, no list of candidates in the query."""
    marks = ", ".join(["%s"] * len(versions))
    sql = (  # noqa: S608 - placeholders only
        "SELECT a.question_id, a.correct, s.correct, s.attempts, COUNT(*) "
        "FROM quiz_attempt a LEFT JOIN quiz_candidatescore s ON s.candidate = "
        "CASE WHEN a.user_id IS NOT NULL THEN 'u' || CAST(a.user_id AS VARCHAR(20)) "
        "ELSE 's' || a.session_key END "
        f"WHERE a.version_id IN ({marks}) GROUP BY a.question_id, a.correct, s.correct, "
        "s.attempts")
    groups: dict[str, list[tuple[bool, float, int]]] = defaultdict(list)
    with connection.cursor() as cursor:
        cursor.execute(sql, versions)
        for qid, correct, right, total, n in cursor.fetchall():
            groups[qid].append((bool(correct), right / total if total else 0.0, n))
    for qid, rows in groups.items():
        by_question[qid].discrimination = point_biserial_grouped(rows)
