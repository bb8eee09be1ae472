import pytest
from django.contrib.auth.models import AnonymousUser, Group
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.test import RequestFactory
from django.utils import translation

from scenarios.roles import INSTRUCTORS_GROUP, instructor_required, is_instructor
from tests.factories import AdminFactory, InstructorFactory, UserFactory


@pytest.mark.django_db
def test_instructors_group_is_created_by_a_migration():
    assert Group.objects.filter(name=INSTRUCTORS_GROUP).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "factory,expected", [(UserFactory, False), (InstructorFactory, True), (AdminFactory, True)]
)
def test_is_instructor(factory, expected):
    assert is_instructor(factory()) is expected


def test_anonymous_is_not_an_instructor():
    assert is_instructor(AnonymousUser()) is False


@instructor_required
def _protected(request):
    return HttpResponse("ok")


def test_instructor_required_sends_anonymous_users_to_login():
    request = RequestFactory().get("/en/author/")
    request.user = AnonymousUser()
    with translation.override("en"):  # no LocaleMiddleware here
        response = _protected(request)
    assert response.status_code == 302
    assert response["Location"] == "/en/accounts/login/?next=/en/author/"


@pytest.mark.django_db
def test_instructor_required_refuses_candidates():
    request = RequestFactory().get("/en/author/")
    request.user = UserFactory()
    with pytest.raises(PermissionDenied):
        _protected(request)


@pytest.mark.django_db
def test_instructor_required_admits_instructors():
    request = RequestFactory().get("/en/author/")
    request.user = InstructorFactory()
    assert _protected(request).status_code == 200


@pytest.mark.django_db
def test_the_instructors_group_has_the_scenario_permissions():
    from django.contrib.auth.models import Group

    codenames = set(Group.objects.get(name="Instructors").permissions.values_list(
        "codename", flat=True))
    assert {"author_scenario", "view_statistics", "change_scenario"} <= codenames
