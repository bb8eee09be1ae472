"""The candidate's quiz: start, questions, answers with feedback, results, progress.

One view serves a full page and, for htmx, its named partial. Every form works without
JavaScript (a POST then a 303 to the page that shows the outcome).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from quiz import presenters
from quiz.forms import PracticeForm
from quiz.grading import AnswerError
from quiz.models import QuizItem, QuizSession
from quiz.selectors import due_cards, progress_by_topic, session_summary
from quiz.services import (
    QuizError,
    answer_submit,
    item_serve,
    quiz_finish,
    quiz_start,
    version_meta,
)

REFUSALS = {
    "empty": 409, "login-required": 403, "finished": 409, "expired": 409,
    "not-served": 409, "tampered": 400,
}


def _session_key(request: HttpRequest) -> str:
    if not request.session.session_key:
        request.session.save()
    return request.session.session_key or ""


def _owned_session(request: HttpRequest, session_id: Any) -> QuizSession:
    sessions = QuizSession.objects.owned_by(user=request.user,
                                            session_key=request.session.session_key)
    return get_object_or_404(sessions, pk=session_id)


@require_http_methods(["GET", "POST"])
def practice_start(request: HttpRequest) -> HttpResponse:
    form = PracticeForm(request.POST or None)
    due = due_cards(user=request.user).count() if request.user.is_authenticated else 0
    error = ""
    if request.method == "POST":
        mode = request.POST.get("mode", QuizSession.Mode.PRACTICE)
        if mode not in QuizSession.Mode.values:
            mode = QuizSession.Mode.PRACTICE
        if mode == QuizSession.Mode.REVIEW or form.is_valid():
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
                  {"form": form, "due": due, "error": error,
                   "exam_minutes": settings.QUIZ_EXAM_MINUTES})


@require_safe
def session_current(request: HttpRequest, session_id: Any) -> HttpResponse:
    session = _owned_session(request, session_id)
    if session.finished_at or session.is_expired():
        return redirect("quiz:results", session.pk)
    item = session.items.filter(attempt__isnull=True).order_by("position").first()
    if item is None:
        return redirect("quiz:results", session.pk)
    return redirect("quiz:item", session.pk, item.position)


def _owned_item(request: HttpRequest, session_id: Any, position: int) -> QuizItem:
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


@require_safe
def item_show(request: HttpRequest, session_id: Any, position: int) -> HttpResponse:
    item = _owned_item(request, session_id, position)
    session = item.session
    if session.is_exam and session.is_expired() and not session.finished_at:
        quiz_finish(session=session)
        return redirect("quiz:results", session.pk)
    answered = hasattr(item, "attempt")
    if not answered:
        if session.finished_at or session.is_expired():
            return redirect("quiz:results", session.pk)
        item = item_serve(item=item)
    context = presenters.question_context(session=session, item=item,
                                          language=get_language())
    template = "quiz/session_item.html"
    if request.htmx:
        template += "#question-card"
    return render(request, template, context)


def _throttled(request: HttpRequest, item: QuizItem) -> bool:
    who = (f"u{request.user.pk}" if request.user.is_authenticated
           else f"s{request.session.session_key}")
    limits = ((f"answer:{who}:{item.pk}", settings.QUIZ_ANSWER_RATE),
              (f"answer:{who}", settings.QUIZ_USER_RATE))
    for key, (limit, window) in limits:
        cache.add(key, 0, window)  # a new window starts at 0; an open one is kept
        try:
            count = cache.incr(key)
        except ValueError:
            cache.set(key, 1, window)
            count = 1
        if count > limit:
            return True
    return False


@require_POST
def answer(request: HttpRequest, session_id: Any, position: int) -> HttpResponse:
    item = _owned_item(request, session_id, position)
    session = item.session
    if _throttled(request, item):
        return render(request, "quiz/_refused.html",
                      {"message": _("Too many answers in a short time: wait a minute and "
                                    "try again.")}, status=429)
    try:
        answer_submit(item=item, data=request.POST, user=request.user,
                      session_key=request.session.session_key or "",
                      posted_seed=request.POST.get("seed"))
    except AnswerError as err:
        message = presenters.answer_error(err)
        if request.htmx:
            context = presenters.answer_context(session=session, item=item,
                                                language=get_language(), answer_error=message)
            return render(request, "quiz/session_item.html#answer-area", context)
        context = presenters.question_context(session=session, item=item,
                                              language=get_language(), answer_error=message)
        return render(request, "quiz/session_item.html", context)
    except QuizError as err:
        status = REFUSALS.get(err.code, 400)
        if request.htmx:
            return render(request, "quiz/_refused.html",
                          {"message": presenters.refusal_message(err.code),
                           "session": session}, status=200)
        if err.code in ("finished", "expired"):
            return redirect("quiz:results", session.pk)
        return render(request, "quiz/_refused.html",
                      {"message": presenters.refusal_message(err.code), "session": session},
                      status=status)
    if request.htmx:
        context = presenters.answer_context(session=session, item=item,
                                            language=get_language())
        context["progress_oob"] = True  # the score and progress bar above change too
        return render(request, "quiz/session_item.html#answer-area", context)
    return HttpResponseRedirect(reverse("quiz:item", args=[session.pk, item.position]),
                                status=303)


@require_POST
def finish(request: HttpRequest, session_id: Any) -> HttpResponse:
    session = _owned_session(request, session_id)
    quiz_finish(session=session)
    return HttpResponseRedirect(reverse("quiz:results", args=[session.pk]), status=303)


@require_safe
def results(request: HttpRequest, session_id: Any) -> HttpResponse:
    session = _owned_session(request, session_id)
    if session.is_exam and not session.finished_at:
        if not session.is_expired():
            return redirect("quiz:session", session.pk)
        session = quiz_finish(session=session)
    summary = session_summary(session)
    context = presenters.results_context(session=session, summary=summary,
                                         language=get_language())
    return render(request, "quiz/results.html", context)


@require_safe
@login_required
def progress(request: HttpRequest) -> HttpResponse:
    context = presenters.progress_context(user=request.user, language=get_language(),
                                          now=timezone.now(),
                                          by_topic=progress_by_topic(user=request.user))
    return render(request, "quiz/progress.html", context)
