"""Sessions as an idle timeout, without a database write on every request."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


class SessionIdleRefreshMiddleware:
    """Push a live session's expiry back (SESSION_COOKIE_AGE from now) at most once every
    SESSION_IDLE_REFRESH seconds: an abandoned session still ends SESSION_COOKIE_AGE after
    its last use (give or take that interval), and a busy page costs no session write.

    Only a session the request already read counts as used: a response that needed no
    session (the health check, a static file, a page without the user) costs no session
    read either. Every page that shows who is signed in reads it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        session = getattr(request, "session", None)
        if (session is not None and session.accessed and session.session_key
                and not session.is_empty()):
            now = int(time.time())
            if now - int(session.get("_seen", 0)) >= settings.SESSION_IDLE_REFRESH:
                session["_seen"] = now
        return response


class ExamLockMiddleware:
    """While the candidate's mock exam runs, the pages named in
    ``QUIZ_EXAM_CLOSED_PAGES`` (rule history, era comparison, what-if, rule pages,
    authoring) answer 403 with a page that links back to the exam: they show engine
    answers and traces. Other requests pay only a set lookup."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        pages = settings.QUIZ_EXAM_CLOSED_PAGES
        self.names = frozenset(p for p in pages if not p.endswith(":*"))
        self.namespaces = frozenset(p.removesuffix(":*") for p in pages if p.endswith(":*"))

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func: object, view_args: object,
                     view_kwargs: object) -> HttpResponse | None:
        match = request.resolver_match
        if match is None or (match.view_name not in self.names
                             and match.namespace not in self.namespaces):
            return None
        from quiz.selectors import running_exam

        exam = running_exam(user=request.user, session_key=request.session.session_key)
        if exam is None:
            return None
        return exam_closed_response(request, exam)


def exam_closed_response(request: HttpRequest, exam: object) -> HttpResponse:
    """403: this page reopens when the exam is handed in or its time is up."""
    from django.shortcuts import render
    from django.utils.cache import add_never_cache_headers

    response = render(request, "quiz/exam_closed.html", {"exam": exam}, status=403)
    add_never_cache_headers(response)
    return response
