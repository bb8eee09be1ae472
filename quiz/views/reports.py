"""A candidate reports a problem with a question from its feedback.

Only the owner of the quiz item can report on it, and only once its feedback is shown:
after answering, and in a mock exam only after hand-in (until then the exam shows no
feedback). Without JavaScript the form posts and comes back to the question (303); with
htmx the report part of the feedback is swapped for a thank-you and the report.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from quiz import presenters
from quiz.models import Attempt, QuizItem
from quiz.selectors import item_reads
from quiz.throttle import report_throttled
from quiz.views.quiz import exam_closed, is_locked_by_exam, owned_item_or_404, refused
from scenarios.http import HtmxHttpRequest
from scenarios.report_forms import ProblemReportForm
from scenarios.reports import ReportRefused, ReportSource, report_create
from scenarios.selectors import item_reports

THANKS = gettext_lazy("Thank you: an instructor will read your report. Their reply will "
                      "appear under this question.")


def _feedback_shown(item: QuizItem) -> bool:
    """The question is answered and its feedback is on the page: any time in practice,
    after hand-in in a mock exam."""
    session = item.session
    return hasattr(item, "attempt") and (not session.is_exam
                                         or session.finished_at is not None)


def _source(attempt: Attempt, item: QuizItem) -> ReportSource:
    """The attempt's values, as the report keeps them."""
    return ReportSource(version_id=attempt.version_id, question_id=attempt.question_id,
                        era=attempt.era, seed=attempt.seed, params=attempt.params or {},
                        answer=attempt.answer, correct=attempt.correct, quiz_item=item.pk)


def _partial(request: HttpRequest, item: QuizItem, **extra: Any) -> HttpResponse:
    reports = item_reports(quiz_item=item.pk)
    context = {"session": item.session, "item": item,
               **presenters.report_context(item, language=get_language(), reports=reports,
                                           **extra)}
    return render(request, "quiz/_report.html", context)


@never_cache
@require_POST
def report(request: HtmxHttpRequest, session_id: Any, position: int) -> HttpResponse:
    item = owned_item_or_404(request, session_id, position)
    session = item.session
    if is_locked_by_exam(item):
        return exam_closed(request, item)
    if not _feedback_shown(item):
        return refused(request, _("A problem can be reported once the question's feedback "
                                   "is shown: after answering it, and in a mock exam after "
                                   "handing the exam in."), 409, session)
    form = ProblemReportForm(request.POST)
    if report_throttled(request):
        message = _("Too many reports in a short time: wait a few minutes and try again.")
        if not request.htmx:
            return refused(request, message, 429, session)
        form.add_error(None, message)  # htmx 2 swaps no 4xx: say it in the form
        return _partial(request, item, form=form)
    if form.is_valid():
        try:
            report_create(source=_source(item.attempt, item), user=request.user,
                          session_key=request.session.session_key or "",
                          language=get_language(), kind=form.cleaned_data["kind"],
                          text=form.cleaned_data["text"])
        except ReportRefused:
            form.add_error(None, _("You already have an open report on this question: an "
                                   "instructor will answer it first."))
    if form.is_valid():
        if request.htmx:
            return _partial(request, item, thanks=True)
        messages.success(request, THANKS)
        return HttpResponseRedirect(reverse("quiz:item", args=[session.pk, item.position]),
                                    status=303)
    if request.htmx:  # htmx 2 swaps no 4xx: the form comes back with its errors (200)
        return _partial(request, item, form=form)
    reads = item_reads(session=session, item=item)
    context = presenters.question_context(session=session, item=item, language=get_language(),
                                          reads=reads)
    context.update(presenters.report_context(item, language=get_language(),
                                             reports=reads.reports, form=form))
    return render(request, "quiz/session_item.html", context)
