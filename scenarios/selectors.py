"""Reads for instructors: the scenario list with its state, and per-question statistics."""

from __future__ import annotations

import json
import math
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from engine.check import translation_warnings
from engine.notation import LANGUAGES
from scenarios.models import ProblemReport, Scenario


def scenario_list(*, topic: str = "", status: str = "", query: str = "",
                  ) -> QuerySet[Scenario]:
    scenarios = Scenario.objects.all()
    if topic:
        scenarios = scenarios.filter(topic=topic)
    if status:
        scenarios = scenarios.filter(status=status)
    if query:
        scenarios = scenarios.filter(Q(slug__icontains=query)
                                     | Q(versions__document__title__en__icontains=query)
                                     | Q(versions__document__title__it__icontains=query)
                                     | Q(versions__document__title__es__icontains=query))
    return (scenarios.distinct()
            .annotate(attempt_count=Count("versions__attempts", distinct=True),
                      right_count=Count("versions__attempts",
                                        filter=Q(versions__attempts__correct=True),
                                        distinct=True),
                      open_reports=Coalesce(open_report_counts(), 0))
            .prefetch_related("versions"))


def languages_complete(document: dict[str, Any]) -> dict[str, bool]:
    """Whether every text of the document exists in each language."""
    missing = {w.path.rsplit(".", 1)[-1] for w in translation_warnings(document)}
    return {lang: lang not in missing for lang in LANGUAGES}


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
    from quiz.models import Attempt

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
    document = (scenario.current_version or scenario.latest_version()).document  # type: ignore[union-attr]
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


REPORT_STATUSES = ("open", "closed", "all")


def report_list(*, status: str = "open", scenario: str = "") -> QuerySet[ProblemReport]:
    """Problem reports for instructors, newest first, filtered by state (``open``,
    ``closed`` or ``all``) and scenario slug; the version's number without its document."""
    reports = ProblemReport.objects.all()
    if status == "open":
        reports = reports.open()
    elif status == "closed":
        reports = reports.closed()
    if scenario:
        reports = reports.filter(scenario__slug=scenario)
    return (reports.select_related("scenario", "user", "replied_by", "closed_by")
            .annotate(version_number=F("version__number")))


def item_reports(*, quiz_item: int) -> list[ProblemReport]:
    """The reports raised from one quiz item, oldest first: the caller has checked that
    the item is the requester's own, so these are theirs."""
    return list(ProblemReport.objects.filter(quiz_item=quiz_item).order_by("created_at", "pk"))


def open_report_counts() -> Subquery:
    """Per scenario (``OuterRef('pk')``), how many of its reports are open, for annotating
    a list of scenarios with one subquery rather than one more join."""
    counts = (ProblemReport.objects.open().filter(scenario=OuterRef("pk"))
              .order_by().values("scenario").annotate(n=Count("pk")).values("n"))
    return Subquery(counts)
