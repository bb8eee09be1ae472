"""Instructor pages for problem reports: the list (open, closed or all; every scenario or
one), where each report can be answered, closed and reopened.

One URL serves the page and, for htmx, one report's card. Every form works without
JavaScript: a POST, then a 303 back to the same list.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import (
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseRedirect,
)
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from engine import UnknownEra, find_era
from scenarios.http import AuthenticatedHttpRequest
from scenarios.models import ProblemReport
from scenarios.report_forms import ReportActionForm
from scenarios.reports import ReportRefused, report_close, report_reopen, report_reply
from scenarios.roles import instructor_required
from scenarios.selectors import REPORT_STATUSES, report_list

PER_PAGE = 20


def _era_label(key: str) -> str:
    try:
        era = find_era(key)
    except UnknownEra:
        return key
    return f"{era.name} ({era.effective:%Y-%m-%d})"


def _card(report: ProblemReport, form: ReportActionForm | None = None) -> dict[str, Any]:
    """One report as its card shows it: the stored context in words, and its reply form
    (the bound one, with its errors, when that form was just posted for this report)."""
    if form is None or str(form.data.get("report")) != str(report.pk):
        form = ReportActionForm(initial={"report": report.pk, "reply": report.reply},
                                auto_id=f"report-{report.pk}-%s")
    return {
        "report": report, "form": form, "era": _era_label(report.era),
        "params": ", ".join(f"{k} = {v}" for k, v in sorted((report.params or {}).items())),
        "answer": json.dumps(report.answer, ensure_ascii=False, sort_keys=True),
    }


def _act(request: AuthenticatedHttpRequest, form: ReportActionForm) -> ProblemReport | None:
    """Apply the posted action; the report on success, None when the form has errors."""
    if not form.is_valid():
        return None
    report = get_object_or_404(ProblemReport, pk=form.cleaned_data["report"])
    action, reply = form.cleaned_data["action"], form.cleaned_data["reply"]
    try:
        if action == ReportActionForm.REPLY:
            report_reply(report=report, by=request.user, reply=reply)
        elif action == ReportActionForm.CLOSE:
            report_close(report=report, by=request.user, reply=reply)
        else:
            report_reopen(report=report)
    except ReportRefused:
        form.add_error(None, _("The candidate has opened another report on this question "
                               "since: answer that one instead."))
        return None
    return report


DONE = {
    ReportActionForm.REPLY: gettext_lazy("The reply is saved: the candidate sees it under "
                                         "the question."),
    ReportActionForm.CLOSE: gettext_lazy("The report is closed."),
    ReportActionForm.REOPEN: gettext_lazy("The report is open again."),
}


@never_cache
@require_http_methods(["GET", "POST"])
@instructor_required
def reports(request: AuthenticatedHttpRequest) -> HttpResponse:
    status = request.GET.get("status", "open")
    if status not in REPORT_STATUSES:
        status = "open"
    scenario = request.GET.get("scenario", "")[:64]
    if not re.fullmatch(r"[-\w]+", scenario, flags=re.ASCII):
        scenario = ""  # only a slug can name a scenario (and be linked back to)
    context: dict[str, Any] = {"action_url": request.get_full_path()}
    posted: ReportActionForm | None = None
    if request.method == "POST":
        posted = ReportActionForm(request.POST)
        report = _act(request, posted)
        if report is not None or request.htmx:
            return _after_post(request, posted, report, context)
    page = Paginator(report_list(status=status, scenario=scenario),
                     PER_PAGE).get_page(request.GET.get("page"))
    cards = [_card(r, posted) for r in page]
    context.update({
        "cards": cards, "page": page, "status": status, "scenario": scenario,
        "statuses": [("open", pgettext("report filter", "Open")),
                     ("closed", pgettext("report filter", "Closed")),
                     ("all", pgettext("report filter", "All"))],
        # a posted form whose report is not among the cards shows its errors at the top
        "stray_form": posted if posted is not None and not any(
            c["form"] is posted for c in cards) else None,
    })
    return render(request, "scenarios/reports.html", context)


def _after_post(request: AuthenticatedHttpRequest, form: ReportActionForm,
                report: ProblemReport | None, context: dict[str, Any]) -> HttpResponse:
    """A saved action: the fresh card (htmx) or a 303 back to the list. A form with errors
    for htmx: its card again, with the errors (200: htmx 2 swaps no 4xx)."""
    if report is None:
        pk = form.cleaned_data.get("report") if hasattr(form, "cleaned_data") else None
        stored = report_list(status="all").filter(pk=pk).first() if pk else None
        if stored is None:
            return HttpResponseBadRequest()
        context["card"] = _card(stored, form)
        return render(request, "scenarios/reports.html#report-card", context)
    action = form.cleaned_data["action"]
    if request.htmx:
        context["card"] = _card(report_list(status="all").get(pk=report.pk))
        context["done"] = DONE[action]
        return render(request, "scenarios/reports.html#report-card", context)
    messages.success(request, DONE[action])
    return HttpResponseRedirect(request.get_full_path(), status=303)
