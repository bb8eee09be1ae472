"""Fixed-window request counters in the cache: answers and quiz starts per client.

A client is the signed-in user, or else the browser session; starts are also counted per
network address, because a client that drops its cookies gets a new session each time.
The counts live in ``CACHES['default']`` (see the settings for what that means with
several workers).
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest


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


def _over(key: str, limit: int, window: int) -> bool:
    """Count one more request in ``key``'s window; True once the window holds more than
    ``limit``."""
    cache.add(key, 0, window)  # a new window starts at 0; an open one is kept
    try:
        count = cache.incr(key)
    except ValueError:  # the window closed between add and incr
        cache.set(key, 1, window)
        count = 1
    return count > limit


def _throttled(*limits: tuple[str, str]) -> bool:
    """Count one more request under each (cache key, setting name) pair; True as soon as
    one of them is over its rate (the later ones are then not counted)."""
    for key, setting in limits:
        limit, window = getattr(settings, setting)
        if _over(key, limit, window):
            return True
    return False


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
