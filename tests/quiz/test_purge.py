"""``manage.py purge_anonymous_sessions``: abandoned anonymous quizzes go, answers stay."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.core.management import call_command
from django.utils import timezone

from quiz.models import Attempt, QuizItem, QuizSession
from quiz.services import answer_submit, item_serve, quiz_start
from tests.factories import ScenarioFactory, UserFactory, scenario_document

pytestmark = pytest.mark.django_db


@pytest.fixture
def library():
    doc = scenario_document("purge-scenario")
    doc["questions"] = [doc["questions"][0], dict(doc["questions"][0], id="life-again")]
    return ScenarioFactory(slug="purge-scenario", document=doc)


def anonymous_quiz(*, days_old: int, session_key: str = "gone-browser") -> QuizSession:
    return quiz_start(user=None, session_key=session_key, length=2,
                      now=timezone.now() - timedelta(days=days_old))


def live_browser_session() -> str:
    store = SessionStore()
    store["seen"] = True
    store.create()
    return store.session_key


def purge(*args: str) -> str:
    out = StringIO()
    call_command("purge_anonymous_sessions", *args, stdout=out)
    return out.getvalue()


def test_an_old_abandoned_session_is_deleted_with_its_items(library) -> None:
    old = anonymous_quiz(days_old=31)
    assert "Deleted 1 anonymous session(s) older than 30 day(s) and 2 question item(s)." in \
        purge()
    assert not QuizSession.objects.filter(pk=old.pk).exists()
    assert not QuizItem.objects.exists()


def test_recent_answered_live_and_signed_in_sessions_are_kept(library) -> None:
    recent = anonymous_quiz(days_old=29)
    answered = anonymous_quiz(days_old=90, session_key="answered-browser")
    item = item_serve(item=answered.items.first())
    answer_submit(item=item, data={"answer": "20"}, user=None,
                  session_key="answered-browser")
    alive = anonymous_quiz(days_old=90, session_key=live_browser_session())
    signed_in = quiz_start(user=UserFactory(), session_key="", length=2,
                           now=timezone.now() - timedelta(days=90))
    assert "Deleted 0 anonymous session(s)" in purge()
    kept = set(QuizSession.objects.values_list("pk", flat=True))
    assert kept == {recent.pk, answered.pk, alive.pk, signed_in.pk}
    assert Attempt.objects.count() == 1 and QuizItem.objects.count() == 8


def test_an_expired_browser_session_no_longer_protects_its_quiz(library) -> None:
    key = live_browser_session()
    anonymous_quiz(days_old=40, session_key=key)
    SessionStore().model.objects.filter(session_key=key).update(
        expire_date=timezone.now() - timedelta(minutes=1))
    assert "Deleted 1 anonymous session(s)" in purge()
    assert not QuizSession.objects.exists()


def test_days_override_the_setting(library, settings) -> None:
    settings.QUIZ_ANONYMOUS_PURGE_DAYS = 60
    anonymous_quiz(days_old=45)
    assert "Deleted 0" in purge()
    assert "Deleted 1 anonymous session(s) older than 10 day(s)" in purge("--days", "10")


def test_a_dry_run_counts_and_deletes_nothing(library) -> None:
    anonymous_quiz(days_old=31)
    anonymous_quiz(days_old=35)
    assert "Would delete 2 anonymous session(s) older than 30 day(s) and 4 question item(s)." \
        in purge("--dry-run")
    assert QuizSession.objects.count() == 2 and QuizItem.objects.count() == 4


def test_a_large_purge_goes_in_batches(library) -> None:
    from quiz.services import quiz_sessions_purge

    for _ in range(7):
        anonymous_quiz(days_old=31)
    assert quiz_sessions_purge(created_before=timezone.now() - timedelta(days=30),
                               batch=3) == (7, 14)
    assert not QuizSession.objects.exists()
