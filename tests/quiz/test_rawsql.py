"""The plain-SQL read and write on the answer path give what the ORM gives, value for
value, on SQLite and on PostgreSQL (the suite runs on both)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.forms.models import model_to_dict
from django.utils import timezone

from quiz import rawsql
from quiz.models import Attempt, QuizItem
from quiz.selectors import owned_item
from quiz.services import item_serve, quiz_start
from tests.factories import ScenarioFactory, UserFactory

pytestmark = pytest.mark.django_db


def fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


@pytest.fixture
def item() -> QuizItem:
    ScenarioFactory(slug="raw")
    session = quiz_start(user=UserFactory(), session_key="", length=1)
    return item_serve(item=session.items.get())


def test_writer_inserts_what_create_would(item) -> None:
    when = timezone.now() - timedelta(seconds=7)
    attempt = Attempt(item=item, user=item.session.user, session_key="", version=item.version,
                      question_id=item.question_id, era=item.era, seed=item.seed,
                      params={"l": 3, "nested": [1, "é"]}, answer={"assign": {"bob": 2}},
                      correct=False, expected=["lrw-2007", "m10-2009"], time_taken_ms=1234,
                      created_at=when)
    insert = rawsql.writer(Attempt)
    insert.insert(attempt, insert.params(attempt))
    assert attempt.pk is not None and not attempt._state.adding
    stored = Attempt.objects.get(pk=attempt.pk)
    assert fields(stored) == fields(attempt)
    assert model_to_dict(stored)["expected"] == ["lrw-2007", "m10-2009"]
    assert stored.created_at == when


def test_writer_raises_integrity_error_on_a_second_attempt(item) -> None:
    def attempt() -> Attempt:
        return Attempt(item=item, user=None, session_key="k", version=item.version,
                       question_id=item.question_id, era=item.era, seed=0, answer=1,
                       correct=True, expected=1)

    insert = rawsql.writer(Attempt)
    first = attempt()
    insert.insert(first, insert.params(first))
    second = attempt()
    with pytest.raises(IntegrityError), transaction.atomic():
        insert.insert(second, insert.params(second))
    assert Attempt.objects.filter(item=item).count() == 1


def test_owned_item_reads_what_the_orm_reads(item, django_assert_num_queries) -> None:
    session = item.session
    with django_assert_num_queries(1):
        read = owned_item(session_id=session.pk, position=item.position,
                          user_id=session.user_id)
        assert not hasattr(read, "attempt")  # known absent, without a second query
    assert fields(read) == fields(QuizItem.objects.get(pk=item.pk))
    assert fields(read.session) == fields(session)
    Attempt.objects.create(item=item, user=session.user, version=item.version,
                           question_id=item.question_id, era=item.era, seed=item.seed,
                           answer="yes", correct=True, expected=True)
    read = owned_item(session_id=session.pk, position=item.position, user_id=session.user_id)
    assert fields(read.attempt) == fields(Attempt.objects.get(item=item))


def test_owned_item_is_none_for_someone_else(item) -> None:
    session = item.session
    assert owned_item(session_id=session.pk, position=item.position,
                      user_id=UserFactory().pk) is None
    assert owned_item(session_id=session.pk, position=item.position,
                      session_key="someone") is None
    assert owned_item(session_id="not-a-uuid", position=1, user_id=session.user_id) is None
