"""Typed requests for views (django-htmx's and django-stubs' documented recipes).

Both apps' views take these instead of a bare ``HttpRequest``: ``request.htmx`` is set by
django-htmx's middleware, and ``request.user`` is a signed-in ``User`` behind
``login_required`` or ``instructor_required``.
"""

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request that went through ``django_htmx.middleware.HtmxMiddleware``."""

    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request whose view is behind ``login_required`` or ``instructor_required``."""

    user: User
