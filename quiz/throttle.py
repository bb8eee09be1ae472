"""Fixed-window request counters: answers and quiz starts per client.

A client is the signed-in user, or else the browser session; starts are also counted per
network address, because a client that drops its cookies gets a new session each time.

The counts are exact however many workers and servers answer: with a shared cache
(``REDIS_URL``: Redis's atomic increments) they live there; otherwise in the database every
worker shares (``ThrottleWindow``, counted by one upsert statement per request, which
SQLite and PostgreSQL both run atomically). ``QUIZ_THROTTLE_STORE`` says which.
"""

from __future__ import annotations

import ipaddress
import time

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.http import HttpRequest

from quiz.models import ThrottleWindow


def client_address(request: HttpRequest) -> str:
    """The client's network address, for the throttles and django-axes' lockouts
    (``AXES_CLIENT_IP_CALLABLE``). Behind ``TRUSTED_PROXIES`` proxies (settings; the
    ``DJANGO_TRUSTED_PROXIES`` environment variable), each of which appends the address
    it received the request from to ``X-Forwarded-For``, the client is the entry that
    many places from the right: what the outermost trusted proxy saw. Entries further left
    were written by the client and are never believed. A header shorter than the proxy
    chain, or an entry that is not an address, means the request did not come through
    the proxies: the connecting address is used."""
    remote = str(request.META.get("REMOTE_ADDR", ""))
    trusted = int(settings.TRUSTED_PROXIES)
    if trusted <= 0:
        return remote
    chain = [a.strip() for a in str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",")]
    chain = [a for a in chain if a]
    if len(chain) < trusted:
        return remote
    candidate = chain[-trusted]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote


def client_id(request: HttpRequest) -> str:
    """The signed-in user, or else the browser session (which the caller has created)."""
    if request.user.is_authenticated:
        return f"u{request.user.pk}"
    if not request.session.session_key:
        request.session.save()
    return f"s{request.session.session_key}"


def _cache_count(key: str, window: int) -> int:
    cache.add(key, 0, window)  # a new window starts at 0; an open one is kept
    try:
        return int(cache.incr(key))
    except ValueError:  # the window closed between add and incr
        cache.set(key, 1, window)
        return 1


_UPSERT = """
INSERT INTO quiz_throttlewindow (name, period, hits, ends) VALUES (%s, %s, 1, %s)
ON CONFLICT (name) DO UPDATE SET
    hits = CASE WHEN quiz_throttlewindow.period = excluded.period
                THEN quiz_throttlewindow.hits + 1 ELSE 1 END,
    period = excluded.period,
    ends = excluded.ends
RETURNING hits
"""


def _database_over(limits: list[tuple[str, int, int]]) -> bool:
    """Count one more request under each (key, limit, window), in one transaction: one
    statement per key, where a new key or a new window starts at 1 and an open window
    counts one more; the count returned is this request's (exact under concurrent
    requests: the row is locked by the update, SQLite's writer lock or PostgreSQL's row
    lock). True as soon as one is over its limit (the later ones are then not counted).
    One commit for all the keys: an answer counts two."""
    now = int(time.time())
    own_transaction = not connection.in_atomic_block
    with transaction.atomic(), connection.cursor() as cursor:
        # Only in a transaction of its own: inside a caller's, SET LOCAL would make the
        # caller's commit asynchronous too.
        if connection.vendor == "postgresql" and own_transaction:
            # A count needs no wait for the disk: the commit stays atomic and is seen by
            # every other transaction at once (the count is as exact), only a server crash
            # may forget the last fraction of a second of counts. A durable commit waits
            # for the WAL's flush, 4-10 ms on the bench's disk against under 1 ms, and an
            # answer would wait for it besides its own (which stays durable).
            cursor.execute("SET LOCAL synchronous_commit TO OFF")
        for key, limit, window in limits:
            number = now // window
            cursor.execute(_UPSERT, [key[:200], number, (number + 1) * window])
            if int(cursor.fetchone()[0]) > limit:
                return True
    return False


def purge_expired_windows(now: float | None = None) -> int:
    """Delete the counters whose window has ended (``manage.py purge_throttle_windows``,
    daily): a fresh window starts at 1 anyway, so they only take room."""
    deleted, _ = ThrottleWindow.objects.filter(
        ends__lt=int(now if now is not None else time.time())).delete()
    return deleted


def _throttled(*limits: tuple[str, str]) -> bool:
    """Count one more request under each (cache key, setting name) pair; True as soon as
    one of them is over its rate (the later ones are then not counted)."""
    rates = [(key, *getattr(settings, setting)) for key, setting in limits]
    if settings.QUIZ_THROTTLE_STORE != "cache":
        return _database_over(rates)
    return any(_cache_count(key, window) > limit for key, limit, window in rates)


def answer_throttled(request: HttpRequest, item_pk: int) -> bool:
    """Too many answers from this client, to this question or in all."""
    who = client_id(request)
    return _throttled((f"answer:{who}:{item_pk}", "QUIZ_ANSWER_RATE"),
                      (f"answer:{who}", "QUIZ_USER_RATE"))


def start_throttled(request: HttpRequest) -> bool:
    """Too many quizzes or exams started by this client, or from its address."""
    return _throttled((f"start:{client_id(request)}", "QUIZ_START_RATE"),
                      (f"start:ip:{client_address(request)}",
                       "QUIZ_START_ADDRESS_RATE"))


def report_throttled(request: HttpRequest) -> bool:
    """Too many problem reports from this client (``QUIZ_REPORT_RATE``, 5 in 10 minutes):
    every try counts, so a flood is refused before any form is read."""
    return _throttled((f"report:{client_id(request)}", "QUIZ_REPORT_RATE"))
