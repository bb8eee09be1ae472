"""Quiz pages belong to whoever started the quiz: walked as anonymous, two candidates, two
instructors and an admin. Another user's session, item or results is a 404."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from quiz.models import Attempt, QuizSession
from quiz.services import item_serve, quiz_start
from tests.factories import AdminFactory, InstructorFactory, ScenarioFactory, UserFactory

pytestmark = pytest.mark.django_db

VISITORS = ("anonymous", "owner", "candidate2", "instructor1", "instructor2", "admin")


@pytest.fixture
def owned():
    ScenarioFactory(slug="perm-scenario")
    owner = UserFactory()
    users = {"anonymous": None, "owner": owner, "candidate2": UserFactory(),
             "instructor1": InstructorFactory(), "instructor2": InstructorFactory(),
             "admin": AdminFactory()}
    session = quiz_start(user=owner, session_key="", length=1)
    item_serve(item=session.items.get())
    return session, users


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize("visitor", VISITORS)
def test_session_pages_are_the_owners_alone(owned, visitor: str) -> None:
    session, users = owned
    client = client_for(users[visitor])
    expect_get = {"quiz:session": 302, "quiz:item": 200, "quiz:results": 200,
                  "quiz:finish": 200}
    for name, ok in expect_get.items():
        args = [session.pk, 1] if name == "quiz:item" else [session.pk]
        status = client.get(reverse(name, args=args)).status_code
        assert status == (ok if visitor == "owner" else 404), (name, visitor, status)
    flag = client.post(reverse("quiz:flag", args=[session.pk, 1]), {"flagged": "1"})
    answer = client.post(reverse("quiz:answer", args=[session.pk, 1]), {"answer": "20"})
    finish = client.post(reverse("quiz:finish", args=[session.pk]))
    retry = client.post(reverse("quiz:retry", args=[session.pk]))
    if visitor == "owner":
        assert flag.status_code == 303
        assert answer.status_code in (303, 200)
        assert finish.status_code == 303
        assert retry.status_code in (303, 409)  # 409: no wrong answer to practise
    else:
        assert {flag.status_code, answer.status_code, finish.status_code,
                retry.status_code} == {404}
        assert not Attempt.objects.exists()
        assert QuizSession.objects.get(pk=session.pk).finished_at is None
        assert QuizSession.objects.count() == 1
        assert not session.items.filter(flagged=True).exists()


def test_anonymous_sessions_belong_to_their_browser() -> None:
    ScenarioFactory(slug="perm-scenario")
    first, second = Client(), Client()
    first.post(reverse("quiz:practice"), {"mode": "practice", "era_mode": "current",
                                          "difficulty_min": 1, "difficulty_max": 5,
                                          "length": 1})
    session = QuizSession.objects.get()
    assert first.get(reverse("quiz:item", args=[session.pk, 1])).status_code == 200
    assert second.get(reverse("quiz:item", args=[session.pk, 1])).status_code == 404


def test_no_get_changes_quiz_state(owned) -> None:
    session, users = owned
    client = client_for(users["owner"])
    client.get(reverse("quiz:answer", args=[session.pk, 1]))
    client.get(reverse("quiz:finish", args=[session.pk]))
    assert not Attempt.objects.exists()
    assert QuizSession.objects.get(pk=session.pk).finished_at is None


@pytest.mark.parametrize("role", ("anonymous", "candidate", "instructor", "admin"))
@pytest.mark.parametrize("language", ("en", "it", "es"))
def test_history_pages_are_public(role: str, language: str) -> None:
    from django.utils import translation

    ScenarioFactory(slug="history-scenario")
    user = {"anonymous": None, "candidate": UserFactory(), "instructor": InstructorFactory(),
            "admin": AdminFactory()}[role]
    client = client_for(user)
    with translation.override(language):
        urls = [reverse("quiz:history_scenario", args=["history-scenario"]),
                reverse("quiz:what_if", args=["history-scenario"]),
                reverse("quiz:rule", args=["pw.redirection"])]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert f'lang="{language}"' in response.content.decode()
    with translation.override(language):
        missing = [reverse("quiz:history_scenario", args=["nope"]),
                   reverse("quiz:rule", args=["no.such-rule"])]
    for url in missing:
        assert client.get(url).status_code == 404
