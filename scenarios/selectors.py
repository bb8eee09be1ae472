"""Reads for instructors: the scenario list with its state, problem reports. (The
per-question statistics read the quiz's attempts: ``quiz.selectors.question_stats``.)"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from engine import LANGUAGES, translation_warnings
from scenarios.models import ProblemReport, Scenario

if TYPE_CHECKING:  # django-stubs-ext is a dev dependency: for the type checker only
    from django_stubs_ext import WithAnnotations


class ScenarioCounts(TypedDict):
    """What ``scenario_list`` annotates each scenario with."""

    attempt_count: int
    right_count: int
    open_reports: int


def scenario_list(*, topic: str = "", status: str = "", query: str = "",
                  ) -> QuerySet[WithAnnotations[Scenario, ScenarioCounts]]:
    # Typed as a plain QuerySet: django-stubs matches its annotate() with WithAnnotations,
    # not the custom ScenarioQuerySet's (typeddjango/django-stubs#1190).
    scenarios: QuerySet[Scenario] = Scenario.objects.all()
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
