"""An anonymous candidate who signs up or logs in keeps that browser's quizzes."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from quiz.models import Attempt, QuizSession, ReviewCard
from quiz.services import quiz_sessions_claim
from tests.factories import PASSWORD, ScenarioFactory, UserFactory, scenario_document

pytestmark = pytest.mark.django_db


@pytest.fixture
def library():
    """One scenario, two questions: Bob's life (20) asked twice under two ids."""
    doc = scenario_document("claim-scenario")
    doc["questions"] = [doc["questions"][0], dict(doc["questions"][0], id="life-again")]
    return ScenarioFactory(slug="claim-scenario", document=doc)


def answer_both(client: Client, *, right: bool = True) -> QuizSession:
    """Start a two-question practice and answer it: "life" right, "life-again" wrong
    (unless ``right``, when both are right)."""
    response = client.post(reverse("quiz:practice"), {
        "mode": "practice", "era_mode": "current", "difficulty_min": 1, "difficulty_max": 5,
        "length": 2})
    assert response.status_code == 303
    session = QuizSession.objects.get(pk=response["Location"].rstrip("/").split("/")[-1])
    for item in session.items.order_by("position"):
        client.get(reverse("quiz:item", args=[session.pk, item.position]))
        item.refresh_from_db()
        value = "20" if right or item.question_id == "life" else "3"
        response = client.post(reverse("quiz:answer", args=[session.pk, item.position]),
                               {"answer": value, "seed": str(item.seed)})
        assert response.status_code == 303
    return session


def last_review(card: ReviewCard) -> datetime:
    return datetime.fromisoformat(card.card["last_review"])


def test_signing_up_keeps_the_anonymous_answers(library) -> None:
    browser = Client()
    session = answer_both(browser, right=False)
    assert not ReviewCard.objects.exists()
    response = browser.post(reverse("quiz:signup"), {
        "username": "newjudge", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 303
    user = get_user_model().objects.get(username="newjudge")
    session.refresh_from_db()
    assert session.user == user and session.session_key == ""
    assert set(Attempt.objects.values_list("user", "session_key")) == {(user.pk, "")}
    cards = {c.question_id: c for c in ReviewCard.objects.filter(user=user)}
    assert set(cards) == {"life", "life-again"}
    assert cards["life"].lapses + cards["life-again"].lapses == 1
    home = browser.get(reverse("quiz:home")).content.decode()
    assert "2 answers you gave before signing in are now in your account." in home
    progress = browser.get(reverse("quiz:progress")).content.decode()
    assert "<td>Trample into planeswalkers</td><td>2</td><td>50%</td>" in progress
    assert browser.get(reverse("quiz:results", args=[session.pk])).status_code == 200


def test_another_browsers_quizzes_are_not_claimed(library) -> None:
    mine, theirs = Client(), Client()
    answer_both(mine)
    their_session = answer_both(theirs)
    mine.post(reverse("quiz:signup"), {
        "username": "newjudge", "password1": PASSWORD, "password2": PASSWORD})
    their_session.refresh_from_db()
    assert their_session.user is None and their_session.session_key
    assert Attempt.objects.filter(item__session=their_session, user__isnull=True).count() == 2
    assert mine.get(reverse("quiz:results", args=[their_session.pk])).status_code == 404
    assert theirs.get(reverse("quiz:results", args=[their_session.pk])).status_code == 200


def test_logging_in_claims_and_replays_answers_in_time_order(library) -> None:
    user = UserFactory()
    anonymous, signed_in = Client(), Client()
    early = answer_both(anonymous)                  # first, anonymously
    signed_in.force_login(user)
    answer_both(signed_in, right=False)             # later, signed in elsewhere
    newest = Attempt.objects.filter(user=user).latest("created_at").created_at
    response = anonymous.post(reverse("quiz:login"), {"username": user.username,
                                                      "password": PASSWORD})
    assert response.status_code == 302
    early.refresh_from_db()
    assert early.user == user
    assert Attempt.objects.filter(user=user).count() == 4
    for card in ReviewCard.objects.filter(user=user):
        assert card.reviews == 2
        assert last_review(card) <= newest
    again = ReviewCard.objects.get(user=user, question_id="life-again")
    assert again.lapses == 1 and last_review(again) == Attempt.objects.filter(
        user=user, question_id="life-again").latest("created_at").created_at


def test_a_failed_login_claims_nothing(library) -> None:
    user = UserFactory()
    browser = Client()
    session = answer_both(browser)
    browser.post(reverse("quiz:login"), {"username": user.username, "password": "wrong"})
    session.refresh_from_db()
    assert session.user is None and not ReviewCard.objects.exists()


def test_claiming_without_a_session_key_moves_nothing(library) -> None:
    answer_both(Client())
    assert quiz_sessions_claim(user=UserFactory(), session_key="") == (0, 0)
    assert not QuizSession.objects.filter(user__isnull=False).exists()


def test_signing_up_keeps_the_problem_reports_sent_anonymously(library) -> None:
    from scenarios.models import ProblemReport

    browser = Client()
    session = answer_both(browser)
    item = session.items.get(position=1)
    response = browser.post(reverse("quiz:report", args=[session.pk, 1]), {"kind": "unclear"})
    assert response.status_code == 303
    assert ProblemReport.objects.get().user is None
    browser.post(reverse("quiz:signup"), {
        "username": "reporter", "password1": PASSWORD, "password2": PASSWORD})
    report = ProblemReport.objects.get()
    assert report.user.username == "reporter" and report.session_key == ""
    assert report.quiz_item == item.pk
