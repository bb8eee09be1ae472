"""Running the site: the health check, the request id in every log line, logs as JSON, and a
"try again" page when the database refuses a write.

- ``/healthz`` answers 200 when the database and the cache both answer, else 503; it says
  which part failed and nothing else (no versions, no settings, no error text), reads no
  session and renders no template, so a load balancer may call it every second.
- ``RequestIdMiddleware`` gives each request an id: the proxy's ``X-Request-ID`` when it
  is a plain token, else a new one. It is sent back in the response's ``X-Request-ID`` and
  put on every log record made while the request runs (``JsonFormatter``).
- ``DatabaseUnavailableMiddleware`` turns a database that refuses to work (disk full,
  locked past the busy timeout, read-only, the server gone) into a 503 page with
  ``Retry-After``, logged, instead of a 500: nothing was saved, and trying again later is
  the right thing for the user to do. Integrity errors are bugs and stay 500s.
- ``StaticFilesStorage`` is production's static files storage: WhiteNoise's compressed,
  fingerprinted one, with each file's URL looked up once per process.
"""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from django.core.cache import cache
from django.db import InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from whitenoise.storage import (  # type: ignore[import-untyped]  # WhiteNoise ships no types
    CompressedManifestStaticFilesStorage,
)

REQUEST_ID: ContextVar[str] = ContextVar("request_id", default="")
_TOKEN = re.compile(r"[A-Za-z0-9._-]{1,64}")
log = logging.getLogger("quiz.ops")


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": _database_answers(), "cache": _cache_answers()}
    ok = all(checks.values())
    return JsonResponse({"status": "ok" if ok else "unavailable",
                         **{k: "ok" if v else "unavailable" for k, v in checks.items()}},
                        status=200 if ok else 503)


def _database_answers() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return bool(cursor.fetchone() == (1,))
    except Exception:  # any failure is "unavailable"; the reason goes to the log only
        log.exception("health check: the database did not answer")
        return False


def _cache_answers() -> bool:
    key = f"healthz:{uuid.uuid4().hex}"
    try:
        cache.set(key, 1, 5)
        answered = bool(cache.get(key) == 1)
        cache.delete(key)
        return answered
    except Exception:
        log.exception("health check: the cache did not answer")
        return False


class RequestIdMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        given = str(request.META.get("HTTP_X_REQUEST_ID", ""))
        request_id = given if _TOKEN.fullmatch(given) else uuid.uuid4().hex
        token = REQUEST_ID.set(request_id)
        try:
            response = self.get_response(request)
        finally:
            REQUEST_ID.reset(token)
        response["X-Request-ID"] = request_id
        return response


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest,
                          exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        log.error("the database refused the request: %s", exception,
                  extra={"path": request.path, "method": request.method})
        # without the request: its context would read the session and the user, from the
        # database that just failed
        response = HttpResponse(render_to_string("503.html"), status=503)
        response["Retry-After"] = "30"
        return response


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, message, the
    request's id when there is one, the exception's traceback when there is one, and any
    ``extra`` fields given to the log call."""

    _STANDARD = frozenset(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {
        "message", "asctime"}

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname, "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = REQUEST_ID.get()
        if request_id:
            out["request_id"] = request_id
        for key, value in record.__dict__.items():
            if key not in self._STANDARD and not key.startswith("_"):
                out[key] = value if isinstance(value, (str, int, float, bool)) else str(value)
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


class StaticFilesStorage(CompressedManifestStaticFilesStorage):  # type: ignore[misc]
    """WhiteNoise's storage (``collectstatic`` writes each file under its content's hash,
    with a compressed copy), whose ``url()`` is kept per name: the manifest is read when
    the process starts and never changes while it runs, and each page links seven static
    files at about 65 us a lookup (a tenth of the question page). The names come from the
    templates, so they are few; past ``_MAX_URLS`` they are looked up each time."""

    _MAX_URLS = 512

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._urls: dict[str, str] = {}

    def url(self, name: str | None, force: bool = False) -> str:
        if force or name is None:
            return str(super().url(name, force))
        url = self._urls.get(name)
        if url is None:
            url = str(super().url(name))
            if len(self._urls) < self._MAX_URLS:
                self._urls[name] = url
        return url
