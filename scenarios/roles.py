"""Who may do what: candidates, instructors and administrators.

Every signed-in user is a judge candidate. Instructors are members of the
``Instructors`` group (created by a data migration in ``scenarios``); superusers count
as instructors too.
"""

from collections.abc import Callable
from functools import wraps
from typing import Concatenate, cast

from django.contrib.auth.models import AnonymousUser, Group, User
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse

from scenarios.http import AuthenticatedHttpRequest

INSTRUCTORS_GROUP = "Instructors"
_CACHE_ATTRIBUTE = "_is_instructor_cache"  # memo on the user object: one query per request


def is_instructor(user: User | AnonymousUser) -> bool:
    """True for a superuser or a member of the Instructors group."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    cached: bool | None = getattr(user, _CACHE_ATTRIBUTE, None)
    if cached is None:
        cached = user.groups.filter(name=INSTRUCTORS_GROUP).exists()
        setattr(user, _CACHE_ATTRIBUTE, cached)
    return cached


def instructor_required[**P](
    view: Callable[Concatenate[AuthenticatedHttpRequest, P], HttpResponse],
) -> Callable[Concatenate[HttpRequest, P], HttpResponse]:
    """View decorator: anonymous users go to the login page, non-instructors get 403."""

    @wraps(view)
    def wrapper(request: HttpRequest, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_instructor(request.user):
            raise PermissionDenied
        # Checked just above: the user is signed in (django-htmx's middleware set .htmx).
        return view(cast(AuthenticatedHttpRequest, request), *args, **kwargs)

    return wrapper


def instructors_group() -> Group:
    group, _ = Group.objects.get_or_create(name=INSTRUCTORS_GROUP)
    return group


@transaction.atomic
def instructor_grant(*, user: User) -> bool:
    """Make ``user`` an instructor. Returns False if they already were a group member."""
    group = instructors_group()
    if user.groups.filter(pk=group.pk).exists():
        return False
    user.groups.add(group)
    return True


@transaction.atomic
def instructor_revoke(*, user: User) -> bool:
    """Remove ``user`` from the Instructors group. Returns False if they were not in it."""
    group = instructors_group()
    if not user.groups.filter(pk=group.pk).exists():
        return False
    user.groups.remove(group)
    return True
