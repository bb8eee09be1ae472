"""The session store (quiz.sessions): Django's database store, read with plain SQL."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.utils import timezone

from quiz.sessions import SessionStore


def test_the_project_uses_it():
    assert settings.SESSION_ENGINE == "quiz.sessions"


@pytest.mark.django_db
def test_a_live_session_reads_back_what_was_saved():
    store = SessionStore()
    store["quiz"] = {"n": 3, "era": "dom-2018"}
    store.save()
    again = SessionStore(store.session_key)
    assert again["quiz"] == {"n": 3, "era": "dom-2018"}
    assert again.session_key == store.session_key


@pytest.mark.django_db
def test_an_expired_session_reads_as_empty_and_gets_a_new_key_when_saved():
    store = SessionStore()
    store["secret"] = "old"
    store.save()
    Session.objects.filter(session_key=store.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1))
    again = SessionStore(store.session_key)
    assert "secret" not in again
    again["fresh"] = 1
    again.save()
    assert again.session_key != store.session_key


@pytest.mark.django_db
def test_an_unknown_or_malformed_key_reads_as_empty():
    assert dict(SessionStore("x" * 32).items()) == {}
    assert dict(SessionStore("short").items()) == {}  # refused by Django's key check
    assert dict(SessionStore("'; DROP TABLE django_session; --").items()) == {}
    assert Session.objects.count() == 0


@pytest.mark.django_db
def test_a_session_whose_data_was_tampered_with_reads_as_empty():
    store = SessionStore()
    store["user"] = "alice"
    store.save()
    Session.objects.filter(session_key=store.session_key).update(session_data="forged")
    assert dict(SessionStore(store.session_key).items()) == {}
