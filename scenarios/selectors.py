"""Reads for instructors: the scenario list with its state, problem reports. (The
per-question statistics read the quiz's attempts: ``quiz.selectors.question_stats``.)"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce

from engine import languages, translation_warnings
from scenarios.models import ProblemReport, Scenario, ScenarioVersion, title_in

PER_PAGE = 50  # scenarios per page of the instructors' list


def scenario_list(*, topic: str = "", status: str = "", query: str = "") -> QuerySet[Scenario]:
    """The scenarios of the instructors' list, filtered, in its order (topic, slug), and
    nothing else: a page of it is counted and sliced cheaply, and ``scenario_rows`` reads
    what that page's rows show. ``query`` matches the slug or a title (in English,
    Italian or Spanish) of any version."""
    scenarios: QuerySet[Scenario] = Scenario.objects.all()
    if topic:
        scenarios = scenarios.filter(topic=topic)
    if status:
        scenarios = scenarios.filter(status=status)
    if query:
        titled = ScenarioVersion.objects.filter(
            Q(document__title__en__icontains=query) | Q(document__title__it__icontains=query)
            | Q(document__title__es__icontains=query), scenario=OuterRef("pk"))
        scenarios = scenarios.filter(Q(slug__icontains=query) | Exists(titled))
    return scenarios.order_by("topic", "slug")


def scenario_rows(scenarios: Sequence[Scenario], *, language: str) -> list[dict[str, Any]]:
    """What the list shows of each scenario of a page: its title, latest version (number,
    validation, languages), attempts and share right (from the quiz's tallies, through
    the versions' reverse relation), open reports. Four queries, whatever the page's or
    the library's size; the documents read are the page's latest and current versions."""
    ids = [s.pk for s in scenarios]
    latest = Subquery(ScenarioVersion.objects.filter(scenario=OuterRef("pk"))
                      .order_by("-number").values("pk")[:1])
    facts = {pk: (latest_id, reports) for pk, latest_id, reports in
             Scenario.objects.filter(pk__in=ids).order_by()
             .annotate(latest_id=latest, reports=Coalesce(open_report_counts(), 0))
             .values_list("pk", "latest_id", "reports")}
    wanted = {v for v, _ in facts.values() if v} | {s.current_version_id for s in scenarios
                                                      if s.current_version_id}
    versions = {v.pk: v for v in ScenarioVersion.objects.filter(pk__in=wanted).only(
        "pk", "scenario_id", "number", "document", "errors", "disagreements")}
    counts = {row["scenario"]: (row["n_attempts"] or 0, row["n_right"] or 0) for row in
              ScenarioVersion.objects.filter(scenario__in=ids).order_by().values("scenario")
              .annotate(n_attempts=Sum("question_tallies__attempts"),
                        n_right=Sum("question_tallies__correct"))}
    rows = []
    for scenario in scenarios:
        latest_id, reports = facts.get(scenario.pk, (None, 0))
        if latest_id is None:
            continue
        version = versions[latest_id]
        shown = versions.get(scenario.current_version_id or latest_id, version)
        attempts, right = counts.get(scenario.pk, (0, 0))
        rows.append({
            "scenario": scenario, "latest": version,
            "title": title_in(shown.document.get("title", {}), language, scenario.slug),
            "languages": languages_complete(version.document), "valid": version.is_valid,
            "attempts": attempts,
            "facility": round(100 * right / attempts) if attempts else None,
            "open_reports": reports,
        })
    return rows


def languages_complete(document: dict[str, Any]) -> dict[str, bool]:
    """Whether every text of the document exists in each language of the site."""
    missing = {w.path.rsplit(".", 1)[-1] for w in translation_warnings(document)}
    return {lang: lang not in missing for lang in languages()}


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
