"""The endless drill (issue 18): one question at a time, drawn afresh, harder after a
right answer and easier after a wrong one, until the candidate stops."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from quiz import drill
from quiz.models import Attempt, QuizItem, QuizSession
from quiz.services import answer_submit, item_serve, quiz_finish, quiz_start
from tests.engine.test_generators import _doc
from tests.factories import ScenarioFactory, UserFactory

pytestmark = pytest.mark.django_db


def trilingual(node: Any) -> Any:
    """Every English text given in Italian and Spanish too (publishing asks for them)."""
    if isinstance(node, dict):
        if isinstance(node.get("en"), str):
            return {**node, "it": node["en"], "es": node["en"]}
        return {k: trilingual(v) for k, v in node.items()}
    if isinstance(node, list):
        return [trilingual(v) for v in node]
    return node


@pytest.fixture
def generators() -> list[Any]:
    out = []
    for slug, difficulty in (("gen-easy", 1), ("gen-hard", 5)):
        doc = trilingual(_doc(id=slug, difficulty=difficulty,
                              eras=["dom-2018", "mh2-2021", "mom-2023", "fdn-2024"],
                              explain={"en": "Trample (702.19)."}))
        doc["params"]["life"] = {"range": [10, 20]}
        doc["setup"]["players"][1]["life"] = "$life"
        out.append(ScenarioFactory(slug=slug, document=doc))
    return out


def _answer_right(item: QuizItem, user: Any) -> Attempt:
    from quiz.grading import expected_answer
    from quiz.services import scenario_of

    item = QuizItem.objects.select_related("session", "version").get(pk=item.pk)
    expected = expected_answer(scenario_of(item.version), item.question_id, item.era,
                               item.seed)
    attempt, recorded = answer_submit(item=item, data={"answer": str(expected.value)},
                                      user=user, session_key="")
    assert recorded
    return attempt


def _answer_wrong(item: QuizItem, user: Any) -> Attempt:
    item = QuizItem.objects.select_related("session", "version").get(pk=item.pk)
    attempt, _ = answer_submit(item=item, data={"answer": "999"}, user=user, session_key="")
    assert not attempt.correct
    return attempt


def test_the_level_goes_up_after_a_right_answer_and_down_after_a_wrong_one() -> None:
    assert drill.next_level(2.0, True) == 2.3
    assert drill.next_level(2.0, False) == 1.3
    assert drill.next_level(4.9, True) == 5.0 and drill.next_level(1.2, False) == 1.0
    # a weighted staircase settles where right answers are STEP_DOWN / (UP + DOWN): 70%
    assert drill.STEP_DOWN / (drill.STEP_UP + drill.STEP_DOWN) == pytest.approx(0.7)


def test_calibration_moves_the_estimate_towards_the_facility() -> None:
    assert drill.calibrated(3.0, 0, 0) == 3.0
    assert drill.calibrated(3.0, 20, 20) == pytest.approx(2.0)  # everyone right: towards 1
    assert drill.calibrated(3.0, 20, 0) == pytest.approx(4.0)  # nobody right: towards 5
    assert drill.calibrated(3.0, 2000, 0) > 4.9


def test_a_drill_serves_one_question_at_a_time_and_adapts(generators) -> None:
    user = UserFactory()
    session = quiz_start(user=user, session_key="", mode=QuizSession.Mode.DRILL,
                         topics=["trample-into-planeswalkers"])
    assert session.is_drill and session.length == 1 and session.level == drill.LEVEL_START
    first = session.items.get()
    assert first.seed is not None and first.served_at is None  # drawn for its difficulty
    first = item_serve(item=first)
    assert first.served_at is not None
    _answer_right(first, user)
    session.refresh_from_db()
    assert session.length == 2 and session.level == pytest.approx(2.3)
    second = item_serve(item=session.items.get(position=2))
    _answer_wrong(second, user)
    session.refresh_from_db()
    assert session.length == 3 and session.level == pytest.approx(1.6)
    assert session.finished_at is None  # it goes on until the candidate stops
    quiz_finish(session=session)
    session.refresh_from_db()
    assert session.finished_at is not None and session.length == 2
    assert session.items.count() == 2  # the question waiting unanswered is gone


def test_a_repeated_answer_appends_no_second_question(generators) -> None:
    user = UserFactory()
    session = quiz_start(user=user, session_key="", mode=QuizSession.Mode.DRILL)
    item = item_serve(item=session.items.get())
    _answer_right(item, user)
    again = QuizItem.objects.select_related("session", "version").get(pk=item.pk)
    _attempt, recorded = answer_submit(item=again, data={"answer": "1"}, user=user,
                                       session_key="")
    assert not recorded
    session.refresh_from_db()
    assert session.length == 2 and session.items.count() == 2


def test_a_higher_level_picks_harder_questions(generators) -> None:
    session = QuizSession(mode=QuizSession.Mode.DRILL, topics=[], era_mode="current")
    rng = random.Random(5)
    low = [drill.pick(session, 1.0, rng, set()) for _ in range(12)]
    high = [drill.pick(session, 5.0, rng, set()) for _ in range(12)]
    assert all(p is not None for p in low + high)
    assert sum(p.difficulty for p in high if p) > sum(p.difficulty for p in low if p)


def test_the_drill_in_the_browser_flow_stops_and_shows_its_summary(generators) -> None:
    client = Client()
    client.force_login(UserFactory())
    response = client.post(reverse("quiz:practice"), {
        "mode": "drill", "era_mode": "current", "difficulty_min": 1, "difficulty_max": 5,
        "length": 10})
    assert response.status_code == 303
    session = QuizSession.objects.latest("created_at")
    assert session.mode == "drill"
    page = client.get(reverse("quiz:item", args=[session.pk, 1])).content.decode()
    assert "Question 1" in page and "of 1" not in page and "Stop the drill" in page
    assert "Drill level: 2.0 of 5" in page
    seed = re.search(r'name="seed" value="(\d+)"', page)
    assert seed
    client.post(reverse("quiz:answer", args=[session.pk, 1]),
                {"answer": "999", "seed": seed.group(1)})
    after = client.get(reverse("quiz:item", args=[session.pk, 1])).content.decode()
    assert "Next question" in after
    stop = client.post(reverse("quiz:finish", args=[session.pk]))
    assert stop.status_code == 303
    results = client.get(reverse("quiz:results", args=[session.pk])).content.decode()
    assert "The drill ended at level 1.3 of 5" in results
    assert "0 right out of 1" in results


def test_an_anonymous_candidate_can_drill_too(generators) -> None:
    client = Client()
    response = client.post(reverse("quiz:practice"), {
        "mode": "drill", "era_mode": "current", "difficulty_min": 1, "difficulty_max": 5,
        "length": 10})
    assert response.status_code == 303
    other = Client()  # another browser sees nothing of it
    session = QuizSession.objects.latest("created_at")
    assert other.get(reverse("quiz:item", args=[session.pk, 1])).status_code == 404


def test_review_of_a_missed_generator_question_serves_a_new_draw(generators) -> None:
    """Issue 18: review of a missed question serves a new draw of the same generator."""
    from django.utils import timezone

    from quiz.models import ReviewCard

    user = UserFactory()
    practice = quiz_start(user=user, session_key="", topics=["trample-into-planeswalkers"],
                          length=2)
    missed = item_serve(item=practice.items.order_by("position").first())
    _answer_wrong(missed, user)
    ReviewCard.objects.filter(user=user).update(due=timezone.now())
    seeds = set()
    for _ in range(5):
        review = quiz_start(user=user, session_key="", mode=QuizSession.Mode.REVIEW)
        item = item_serve(item=review.items.get(question_id=missed.question_id,
                                                version__scenario=missed.version.scenario))
        assert item.seed != missed.seed
        seeds.add(item.seed)
    assert len(seeds) == 5  # a fresh draw each time


@pytest.mark.django_db(transaction=True)  # the foreign key is checked at the real commit
def test_an_answer_racing_the_stop_of_a_drill_is_refused_cleanly(generators) -> None:
    """The candidate stops the drill in one tab while an answer to the waiting question is
    on its way in another: the stop drops that question, and the answer is refused as
    'finished' (no 500), with nothing appended after the stop."""
    from quiz.services import QuizError

    user = UserFactory()
    session = quiz_start(user=user, session_key="", mode=QuizSession.Mode.DRILL)
    first = item_serve(item=session.items.get())
    _answer_right(first, user)
    waiting = item_serve(item=session.items.get(position=2))
    stale = QuizItem.objects.select_related("session", "version").get(pk=waiting.pk)
    quiz_finish(session=session)  # the other tab
    assert not QuizItem.objects.filter(pk=waiting.pk).exists()
    with pytest.raises(QuizError) as err:
        answer_submit(item=stale, data={"answer": "1"}, user=user, session_key="")
    assert err.value.code == "finished"
    session.refresh_from_db()
    assert session.length == 1 and session.items.count() == 1
