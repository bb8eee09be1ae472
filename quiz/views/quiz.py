"""The candidate's quiz: start, questions, answers with feedback, results, progress.

One view serves a full page and, for htmx, its named partial. Every form works without
JavaScript (a POST then a 303 to the page that shows the outcome).
"""

from __future__ import annotations

from typing import Any, cast
from uuid import UUID

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from quiz import presenters
from quiz.charts import accuracy_chart, streak_days
from quiz.forms import AnswerError, PracticeForm
from quiz.middleware import exam_closed_response
from quiz.models import QuizItem, QuizSession
from quiz.selectors import (
    due_cards,
    exam_navigator,
    item_reads,
    progress_by_topic,
    review_forecast,
    running_exam,
    session_summary,
)
from quiz.services import (
    QuizError,
    answer_submit,
    item_flag,
    item_serve,
    quiz_finish,
    quiz_start,
    quiz_start_retry,
    version_meta,
)
from quiz.throttle import answer_throttled, start_throttled
from quiz.views.practice import count_context
from scenarios.http import AuthenticatedHttpRequest, HtmxHttpRequest

REFUSALS = {
    "empty": 409, "login-required": 403, "finished": 409, "expired": 409,
    "not-served": 409, "tampered": 400, "exam-running": 409,
}


def refused(request: HtmxHttpRequest, message: str, status: int,
             session: QuizSession | None = None) -> HttpResponse:
    """A refusal: the fragment for htmx, a whole page otherwise."""
    template = "quiz/refused.html" if request.htmx else "quiz/refused.html"
    return render(request, template, {"message": message, "session": session},
                  status=status)


def _too_many_starts(request: HtmxHttpRequest) -> HttpResponse:
    return refused(request, _("Too many quizzes started in a short time: wait a minute "
                               "and try again."), 429)


def _session_key(request: HttpRequest) -> str:
    if not request.session.session_key:
        request.session.save()
    return request.session.session_key or ""


def _owned_session(request: HttpRequest, session_id: Any) -> QuizSession:
    sessions = QuizSession.objects.owned_by(user=request.user,
                                            session_key=request.session.session_key)
    return get_object_or_404(sessions, pk=session_id)


@never_cache
@require_http_methods(["GET", "POST"])
def practice_start(request: HtmxHttpRequest) -> HttpResponse:
    form = PracticeForm(request.POST or None)
    due = due_cards(user=request.user).count() if request.user.is_authenticated else 0
    exam = running_exam(user=request.user, session_key=request.session.session_key)
    error = ""
    if request.method == "POST":
        mode = request.POST.get("mode", QuizSession.Mode.PRACTICE)
        if mode not in QuizSession.Mode.values:
            mode = QuizSession.Mode.PRACTICE
        if exam is not None:  # practice would show answers the exam asks for
            error = presenters.refusal_message("exam-running")
        elif mode == QuizSession.Mode.REVIEW or form.is_valid():
            if start_throttled(request):
                return _too_many_starts(request)
            data = form.cleaned_data if form.is_valid() else {}
            try:
                session = quiz_start(
                    user=request.user, session_key=_session_key(request), mode=mode,
                    topics=list(data.get("topics") or []),
                    era_mode=data.get("era_mode") or QuizSession.EraMode.CURRENT,
                    era=data.get("era") or "",
                    difficulty_min=data.get("difficulty_min") or 1,
                    difficulty_max=data.get("difficulty_max") or 5,
                    length=data.get("length") or 10)
            except QuizError as err:
                error = presenters.refusal_message(err.code)
            else:
                return HttpResponseRedirect(
                    reverse("quiz:session", args=[session.pk]), status=303)
    return render(request, "quiz/practice_start.html",
                  {"form": form, "due": due, "error": error, "running_exam": exam,
                   "filter_count": count_context(form),
                   "exam_minutes": settings.QUIZ_EXAM_MINUTES})


def _next_unanswered(session: QuizSession, after: int = 0) -> int | None:
    """The first unanswered question after position ``after``, wrapping round to the
    start (a skipped question comes back), or None when all are answered."""
    open_ = list(session.items.filter(attempt__isnull=True).order_by("position")
                 .values_list("position", flat=True))
    later = [p for p in open_ if p > after]
    ahead = later or open_
    return ahead[0] if ahead else None


@never_cache
@require_safe
def session_current(request: HtmxHttpRequest, session_id: Any) -> HttpResponse:
    """Where the candidate goes on: the next unanswered question after ``?after=N``
    (skipping and "next" both come here), else the hand-in page of an exam, else the
    results."""
    session = _owned_session(request, session_id)
    if session.finished_at or session.is_expired():
        return redirect("quiz:results", session.pk)
    try:
        after = int(request.GET.get("after", 0))
    except ValueError:
        after = 0
    position = _next_unanswered(session, after)
    if position is None:
        return redirect("quiz:finish" if session.is_exam else "quiz:results", session.pk)
    return redirect("quiz:item", session.pk, position)


def owned_item_or_404(request: HttpRequest, session_id: Any, position: int) -> QuizItem:
    """The item with its session, version and attempt; 404 unless the session belongs to
    this user (or this browser, for anonymous quizzes). Answers and question pages run
    this on every request, so it is one plain query (see ``quiz.selectors.owned_item``)
    rather than an ORM join compiled afresh each time."""
    from quiz.selectors import owned_item

    if request.user.is_authenticated:
        item = owned_item(session_id=session_id, position=position, user_id=request.user.pk)
    else:
        key = request.session.session_key
        item = owned_item(session_id=session_id, position=position, session_key=key) \
            if key else None
    if item is None:
        raise Http404
    item.version = version_meta(item.version_id)
    return item


def is_locked_by_exam(item: QuizItem) -> bool:
    """Another session's page while the candidate's mock exam runs: its feedback, or
    a practice answer that would bring feedback, shows engine answers."""
    exam_id = getattr(item, "running_exam_id", None)
    return exam_id is not None and exam_id != item.session.pk


def exam_closed(request: HttpRequest, item: QuizItem) -> HttpResponse:
    # Called once is_locked_by_exam(item) held: the running exam's id is set.
    exam = QuizSession.objects.get(pk=cast(UUID, item.running_exam_id))
    return exam_closed_response(request, exam)


@never_cache
@require_safe
def item_show(request: HtmxHttpRequest, session_id: Any, position: int) -> HttpResponse:
    item = owned_item_or_404(request, session_id, position)
    session = item.session
    if session.is_exam and session.is_expired() and not session.finished_at:
        quiz_finish(session=session)
        return redirect("quiz:results", session.pk)
    if is_locked_by_exam(item):
        return exam_closed(request, item)
    answered = hasattr(item, "attempt")
    if not answered:
        if session.finished_at or session.is_expired():
            return redirect("quiz:results", session.pk)
        item = item_serve(item=item)
    context = presenters.question_context(session=session, item=item,
                                          language=get_language(),
                                          reads=item_reads(session=session, item=item))
    template = "quiz/session_item.html"
    if request.htmx:
        template += "#question-card"
    return render(request, template, context)


@never_cache
@require_POST
def answer(request: HtmxHttpRequest, session_id: Any, position: int) -> HttpResponse:
    item = owned_item_or_404(request, session_id, position)
    session = item.session
    if is_locked_by_exam(item):
        return exam_closed(request, item)
    if answer_throttled(request, item.pk):
        return refused(request, _("Too many answers in a short time: wait a minute and "
                                   "try again."), 429, session)
    try:
        _attempt, recorded = answer_submit(
            item=item, data=request.POST, user=request.user,
            session_key=request.session.session_key or "",
            posted_seed=request.POST.get("seed"))
    except AnswerError:  # the form again, with the posted answer and its errors
        if request.htmx:
            context = presenters.answer_context(
                session=session, item=item, language=get_language(), answer_data=request.POST,
                reads=item_reads(session=session, item=item, page=False))
            return render(request, "quiz/session_item.html#answer-area", context)
        context = presenters.question_context(session=session, item=item,
                                              language=get_language(), answer_data=request.POST,
                                              reads=item_reads(session=session, item=item))
        return render(request, "quiz/session_item.html", context)
    except QuizError as err:
        message = presenters.refusal_message(err.code)
        if request.htmx:
            return refused(request, message, 200, session)  # htmx 2 swaps no 4xx
        if err.code in ("finished", "expired"):
            return redirect("quiz:results", session.pk)
        return refused(request, message, REFUSALS.get(err.code, 400), session)
    if request.htmx:
        reads = item_reads(session=session, item=item, page=False, just_recorded=recorded)
        context = presenters.answer_context(session=session, item=item,
                                            language=get_language(), reads=reads,
                                            already_answered=not recorded)
        context["progress_oob"] = True  # the score, progress bar and navigator change too
        if session.is_exam:
            context["navigator"] = exam_navigator(session)
        return render(request, "quiz/session_item.html#answer-area", context)
    if not recorded:
        messages.info(request, presenters.ALREADY_ANSWERED)
    return HttpResponseRedirect(reverse("quiz:item", args=[session.pk, item.position]),
                                status=303)


@never_cache
@require_POST
def flag(request: HtmxHttpRequest, session_id: Any, position: int) -> HttpResponse:
    """Mark a question to come back to, or unmark it (``flagged`` = "1" or "0")."""
    item = owned_item_or_404(request, session_id, position)
    session = item.session
    try:
        item_flag(item=item, flagged=request.POST.get("flagged") == "1")
    except QuizError:
        return redirect("quiz:results", session.pk)
    if request.htmx:
        context = {"session": session, "item": item, "navigator": exam_navigator(session),
                   "progress_oob": True}
        return render(request, "quiz/_flag_response.html", context)
    return HttpResponseRedirect(reverse("quiz:item", args=[session.pk, item.position]),
                                status=303)


@never_cache
@require_http_methods(["GET", "POST"])
def finish(request: HtmxHttpRequest, session_id: Any) -> HttpResponse:
    """GET: how many questions are unanswered or flagged, and a confirmation to hand in.
    POST: hand in (or end a practice session)."""
    session = _owned_session(request, session_id)
    if request.method == "POST" or session.finished_at or session.is_expired():
        quiz_finish(session=session)
        return HttpResponseRedirect(reverse("quiz:results", args=[session.pk]), status=303)
    context: dict[str, Any] = {"session": session, "hand_in_page": True}
    if session.is_exam:
        context.update(presenters.exam_context(session, exam_navigator(session)))
    else:
        context["navigator"] = exam_navigator(session)
    navigator = context["navigator"]
    context["unanswered"] = [q for q in navigator if not q["answered"]]
    context["flagged"] = [q for q in navigator if q["flagged"]]
    return render(request, "quiz/finish_confirm.html", context)


@never_cache
@require_safe
def results(request: HtmxHttpRequest, session_id: Any) -> HttpResponse:
    session = _owned_session(request, session_id)
    if session.is_exam and not session.finished_at:
        if not session.is_expired():
            return redirect("quiz:session", session.pk)
        session = quiz_finish(session=session)
    summary = session_summary(session)
    context = presenters.results_context(session=session, summary=summary,
                                         language=get_language())
    return render(request, "quiz/results.html", context)


@never_cache
@require_POST
def retry(request: HtmxHttpRequest, session_id: Any) -> HttpResponse:
    """Practise the questions of a finished session that were answered wrongly."""
    session = _owned_session(request, session_id)
    if session.is_exam and session.finished_at is None and not session.is_expired():
        return redirect("quiz:session", session.pk)  # an exam's answers stay hidden
    if running_exam(user=request.user, session_key=request.session.session_key):
        return refused(request, presenters.refusal_message("exam-running"), 409)
    if start_throttled(request):
        return _too_many_starts(request)
    try:
        retry_session = quiz_start_retry(session=session, user=request.user,
                                         session_key=_session_key(request))
    except QuizError as err:
        return refused(request, presenters.refusal_message(err.code),
                        REFUSALS.get(err.code, 400))
    return HttpResponseRedirect(reverse("quiz:session", args=[retry_session.pk]), status=303)


@never_cache
@require_safe
@login_required
def progress(request: AuthenticatedHttpRequest) -> HttpResponse:
    user, now = request.user, timezone.now()
    context = presenters.progress_context(
        language=get_language(), by_topic=progress_by_topic(user=user),
        forecast=review_forecast(user=user, now=now), chart=accuracy_chart(user=user, now=now),
        streak=streak_days(user=user, now=now))
    return render(request, "quiz/progress.html", context)
