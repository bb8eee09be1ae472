"""Who may do what: candidates, instructors and administrators.

Every signed-in user is a judge candidate. Instructors are members of the
``Instructors`` group (created by a data migration in ``scenarios``); superusers count
as instructors too.
"""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse

INSTRUCTORS_GROUP = "Instructors"


def is_instructor(user: AbstractBaseUser | AnonymousUser) -> bool:
    """True for a superuser or a member of the Instructors group."""
    if not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    cached = getattr(user, "_is_instructor_cache", None)
    if cached is None:
        cached = user.groups.filter(name=INSTRUCTORS_GROUP).exists()
        user._is_instructor_cache = cached
    return cached


def instructor_required[V: Callable[..., HttpResponse]](view: V) -> V:
    """View decorator: anonymous users go to the login page, non-instructors get 403."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_instructor(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


def instructors_group() -> Group:
    group, _ = Group.objects.get_or_create(name=INSTRUCTORS_GROUP)
    return group


@transaction.atomic
def instructor_grant(*, user: AbstractBaseUser) -> bool:
    """Make ``user`` an instructor. Returns False if they already were a group member."""
    group = instructors_group()
    if user.groups.filter(pk=group.pk).exists():
        return False
    user.groups.add(group)
    return True


@transaction.atomic
def instructor_revoke(*, user: AbstractBaseUser) -> bool:
    """Remove ``user`` from the Instructors group. Returns False if they were not in it."""
    group = instructors_group()
    if not user.groups.filter(pk=group.pk).exists():
        return False
    user.groups.remove(group)
    return True
