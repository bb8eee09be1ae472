"""Sessions as an idle timeout, without a database write on every request."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


class SessionIdleRefreshMiddleware:
    """Push a live session's expiry back (SESSION_COOKIE_AGE from now) at most once every
    SESSION_IDLE_REFRESH seconds: an abandoned session still ends SESSION_COOKIE_AGE after
    its last use (give or take that interval), and a busy page costs no session write."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        session = getattr(request, "session", None)
        if session is not None and session.session_key and not session.is_empty():
            now = int(time.time())
            if now - int(session.get("_seen", 0)) >= settings.SESSION_IDLE_REFRESH:
                session["_seen"] = now
        return response
