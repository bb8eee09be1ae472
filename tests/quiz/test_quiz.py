"""The candidate's quiz: starting, serving, grading, integrity, exams, review."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from quiz.models import Attempt, QuizItem, QuizSession, ReviewCard
from quiz.services import QuizError, answer_submit, item_serve, quiz_start
from tests.factories import ScenarioFactory, UserFactory, scenario_document

pytestmark = pytest.mark.django_db


def all_kinds_document(slug: str = "all-kinds") -> dict:
    doc = scenario_document(slug)
    doc["params"] = {"l": {"range": [2, 3], "default": 3}}
    doc["setup"]["battlefield"][1]["counters"] = {"loyalty": "$l"}
    t = {"en": "x", "it": "x", "es": "x"}
    to_bob = {"max_damage_to": ["wurm", "bob"]}
    doc["actions"] = [{"attack": {"wurm": "garruk"}}, {"block": {"bears": "wurm"}}]
    doc["questions"] = [
        {"id": "num", "kind": "number", "ask": t, "answer": {"max_damage_to": ["wurm", "garruk"]},
         "expect": 4},
        {"id": "yn", "kind": "yesno", "ask": t, "answer": {"blocked": "wurm"}, "expect": True},
        {"id": "ch", "kind": "choice", "ask": t, "expect": "zero", "options": [
            {"id": "zero", "text": t, "claim": {"query": to_bob, "is": 0}},
            {"id": "four", "text": t, "claim": {"query": to_bob, "is": 4}}]},
        {"id": "mu", "kind": "multi", "ask": t, "expect": ["a", "b"], "options": [
            {"id": "a", "text": t, "claim": {"query": {"blocked": "wurm"}, "is": True}},
            {"id": "b", "text": t, "claim": {"query": {"life": "bob"}, "is": 20}},
            {"id": "c", "text": t, "claim": {"query": {"life": "bob"}, "is": 14}}]},
        {"id": "as", "kind": "assign", "ask": t, "attacker": "wurm", "goal": {"most_to": "garruk"},
         "expect": 4},
        {"id": "er", "kind": "eras", "ask": t, "claim": {"query": to_bob, "is": 0},
         "expect": ["lrw-2007", "m10-2009", "m11-2010", "m14-2013", "xln-2017", "dom-2018",
                    "mh2-2021", "mom-2023", "fdn-2024"]},
    ]
    return doc


@pytest.fixture
def library():
    return ScenarioFactory(slug="all-kinds", document=all_kinds_document())


def start(client: Client, **data) -> QuizSession:
    payload = {"mode": "practice", "era_mode": "current", "difficulty_min": 1,
               "difficulty_max": 5, "length": 6, **data}
    response = client.post(reverse("quiz:practice"), payload)
    assert response.status_code == 303, response.content
    return QuizSession.objects.latest("created_at")


def item_for(session: QuizSession, qid: str) -> QuizItem:
    return session.items.get(question_id=qid)


RIGHT = {"num": {"answer": "4"}, "yn": {"answer": "yes"}, "ch": {"answer": "zero"},
         "mu": {"answer": ["a", "b"]}, "as": {"assign-bears": "2", "assign-garruk": "4"},
         "er": {"answer": ["lrw-2007", "m10-2009", "m11-2010", "m14-2013", "xln-2017",
                           "dom-2018", "mh2-2021", "mom-2023", "fdn-2024"]}}
WRONG = {"num": {"answer": "6"}, "yn": {"answer": "no"}, "ch": {"answer": "four"},
         "mu": {"answer": ["a"]}, "as": {"assign-bears": "1", "assign-garruk": "5"},
         "er": {"answer": ["lrw-2007"]}}


def post_answer(client: Client, item: QuizItem, data: dict, **extra):
    client.get(reverse("quiz:item", args=[item.session_id, item.position]))
    item.refresh_from_db()
    payload = {"seed": str(item.seed), **data}
    return client.post(reverse("quiz:answer", args=[item.session_id, item.position]), payload,
                       **extra)


@pytest.mark.parametrize("qid", list(RIGHT))
def test_every_question_kind_right_and_wrong(client: Client, library, qid: str) -> None:
    session = start(client)
    item = item_for(session, qid)
    response = post_answer(client, item, RIGHT[qid])
    assert response.status_code == 303
    attempt = Attempt.objects.get(item=item)
    assert attempt.correct, (qid, attempt.answer, attempt.expected)
    other = start(client)
    response = post_answer(client, item_for(other, qid), WRONG[qid])
    assert Attempt.objects.get(item=item_for(other, qid)).correct is False


def test_seeds_drawing_the_same_values_share_one_answer_key() -> None:
    """Seeds are drawn from two billion, a scenario has a handful of variants: the engine
    runs once per variant, era and question, not once per seed."""
    from engine import parse
    from quiz import grading

    scenario = parse(all_kinds_document())
    by_values: dict[str, list[int]] = {}
    for seed in range(1, 40):
        by_values.setdefault(repr(scenario.values_for(seed)), []).append(seed)
    first, second = next(seeds for seeds in by_values.values() if len(seeds) >= 2)[:2]
    a = grading.expected_answer(scenario, "num", "fdn-2024", first)
    b = grading.expected_answer(scenario, "num", "fdn-2024", second)
    assert a is b
    other = next(seeds[0] for seeds in by_values.values() if first not in seeds)
    c = grading.expected_answer(scenario, "num", "fdn-2024", other)
    assert c is not a and c.variant.values != a.variant.values


def test_feedback_shows_the_trace_with_rule_numbers_of_the_era(client: Client, library) -> None:
    session = start(client, era_mode="one", era="m10-2009")
    item = item_for(session, "num")
    response = post_answer(client, item, RIGHT["num"], HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="answer-area"' in html and "<html" not in html and "<svg" not in html
    assert '<ol class="trace-steps">' in html and "&lt;ol" not in html
    assert "508.1" in html  # the attack declaration, as numbered from Magic 2010
    assert "509.1a" in html


def test_an_htmx_answer_also_updates_the_score_and_progress(client: Client, library) -> None:
    session = start(client)
    item = item_for(session, "num")
    html = post_answer(client, item, RIGHT["num"], HTTP_HX_REQUEST="true").content.decode()
    assert re.search(r'<p id="quiz-score" [^>]*hx-swap-oob="true">Score: 1 of 1</p>', html)
    assert re.search(r'<progress id="quiz-progress" [^>]*value="1" max="6"[^>]*'
                     r'hx-swap-oob="true"', html)
    page = client.get(reverse("quiz:item", args=[session.pk, item.position])).content.decode()
    assert page.count('id="quiz-progress"') == page.count('id="quiz-score"') == 1
    assert "hx-swap-oob" not in page


def test_feedback_in_italian_uses_card_names_and_summaries(client: Client, library) -> None:
    client.post(reverse("set_language"), {"language": "it", "next": "/it/"})
    session = start(client)
    item = item_for(session, "num")
    post_answer(client, item, RIGHT["num"])
    html = client.get(f"/it/quiz/{session.pk}/q/{item.position}/").content.decode()
    assert "Garruk Lingua Selvaggia" in html
    assert 'lang="it"' in html


def test_no_answer_leak_before_submission(client: Client, library) -> None:
    session = start(client)
    for item in session.items.all():
        html = client.get(reverse("quiz:item", args=[session.pk, item.position])).content.decode()
        partial = client.get(reverse("quiz:item", args=[session.pk, item.position]),
                             HTTP_HX_REQUEST="true").content.decode()
        for page in (html, partial):
            assert "trace-steps" not in page and "The correct answer" not in page
            assert "expect" not in page.lower().replace("expected", "")
            assert not re.search(r"data-(correct|answer|expected)", page)
            assert "<!--" not in page
            for step in ("combat.assign", "702.19", "damage.planeswalker"):
                assert step not in page


def test_the_same_answer_twice_makes_one_attempt(client: Client, library) -> None:
    session = start(client)
    item = item_for(session, "num")
    post_answer(client, item, RIGHT["num"])
    post_answer(client, item, WRONG["num"])
    assert Attempt.objects.filter(item=item).count() == 1
    assert Attempt.objects.get(item=item).correct


def test_a_question_not_yet_shown_is_refused(client: Client, library) -> None:
    session = start(client)
    item = item_for(session, "num")
    response = client.post(reverse("quiz:answer", args=[session.pk, item.position]),
                           {"answer": "4", "seed": "0"})
    assert response.status_code == 409
    assert not Attempt.objects.exists()


def test_a_tampered_seed_is_refused(client: Client, library) -> None:
    session = start(client)
    item = item_for(session, "num")
    client.get(reverse("quiz:item", args=[session.pk, item.position]))
    item.refresh_from_db()
    response = client.post(reverse("quiz:answer", args=[session.pk, item.position]),
                           {"answer": "4", "seed": str((item.seed or 0) + 1)})
    assert response.status_code == 400
    assert not Attempt.objects.exists()


def test_posted_correct_and_score_fields_are_ignored(client: Client, library) -> None:
    session = start(client)
    item = item_for(session, "num")
    post_answer(client, item, {"answer": "6", "correct": "true", "score": "100"})
    assert Attempt.objects.get(item=item).correct is False


def test_another_users_session_is_404(client: Client, library) -> None:
    session = start(client)
    other = Client()
    other.force_login(UserFactory())
    for name, args in (("quiz:session", [session.pk]), ("quiz:results", [session.pk]),
                       ("quiz:item", [session.pk, 1])):
        assert other.get(reverse(name, args=args)).status_code == 404
    assert other.post(reverse("quiz:answer", args=[session.pk, 1]), {}).status_code == 404


def test_a_bad_answer_form_rerenders_with_an_error(client: Client, library) -> None:
    session = start(client)
    item = item_for(session, "num")
    response = post_answer(client, item, {"answer": "four"})
    assert response.status_code == 200
    assert "Enter a whole number." in response.content.decode()
    assert not Attempt.objects.exists()


def test_exam_deadline_is_enforced_by_the_server_clock(client: Client, library) -> None:
    user = UserFactory()
    client.force_login(user)
    session = start(client, mode="exam")
    assert session.is_exam and session.deadline is not None
    item = session.items.first()
    client.get(reverse("quiz:item", args=[session.pk, item.position]))
    QuizSession.objects.filter(pk=session.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    item.refresh_from_db()
    with pytest.raises(QuizError) as info:
        answer_submit(item=item, data={"answer": "4"}, user=user, session_key="")
    assert info.value.code == "expired"
    response = client.post(reverse("quiz:answer", args=[session.pk, item.position]),
                           {"answer": "4", "seed": str(item.seed)})
    assert response.status_code == 302
    assert not Attempt.objects.exists()


def test_exam_gives_no_feedback_until_the_end(client: Client, library) -> None:
    user = UserFactory()
    client.force_login(user)
    session = start(client, mode="exam")
    item = session.items.order_by("position").first()
    post_answer(client, item, RIGHT[item.question_id])
    html = client.get(reverse("quiz:item", args=[session.pk, item.position])).content.decode()
    assert "trace-steps" not in html and "Answer recorded" in html
    client.post(reverse("quiz:finish", args=[session.pk]))
    html = client.get(reverse("quiz:item", args=[session.pk, item.position])).content.decode()
    assert "trace-steps" in html


def test_finished_quiz_refuses_answers(client: Client, library) -> None:
    session = start(client)
    item = item_for(session, "num")
    client.get(reverse("quiz:item", args=[session.pk, item.position]))
    client.post(reverse("quiz:finish", args=[session.pk]))
    item.refresh_from_db()
    with pytest.raises(QuizError):
        answer_submit(item=item, data={"answer": "4"}, user=None, session_key="")


def test_results_page_breaks_down_by_topic_and_era(client: Client, library) -> None:
    session = start(client)
    for item in session.items.all():
        post_answer(client, item, RIGHT[item.question_id] if item.position % 2 else
                    WRONG[item.question_id])
    response = client.get(reverse("quiz:results", args=[session.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Trample into planeswalkers" in html and "Foundations" in html


def test_spaced_repetition_schedules_and_serves_due_questions(client: Client, library) -> None:
    user = UserFactory()
    client.force_login(user)
    session = start(client)
    item = item_for(session, "num")
    post_answer(client, item, WRONG["num"])
    card = ReviewCard.objects.get(user=user, question_id="num")
    assert card.lapses == 1 and card.due <= timezone.now() + timedelta(minutes=11)
    later = timezone.now() + timedelta(days=1)
    review = quiz_start(user=user, session_key="", mode="review", now=later)
    assert review.items.filter(question_id="num").exists()


def test_review_needs_an_account(client: Client, library) -> None:
    response = client.post(reverse("quiz:practice"), {"mode": "review"})
    assert response.status_code == 200
    assert "Log in to review" in response.content.decode()


def test_variants_are_drawn_when_shown_and_kept(client: Client, library) -> None:
    session = start(client)
    item = item_for(session, "num")
    assert item.seed is None
    item_serve(item=item)
    item.refresh_from_db()
    seed = item.seed
    assert seed is not None and "l" in item.params
    item_serve(item=item)
    item.refresh_from_db()
    assert item.seed == seed


def test_answer_flood_is_throttled(client: Client, library, settings) -> None:
    settings.QUIZ_ANSWER_RATE = (3, 60)
    session = start(client)
    item = item_for(session, "num")
    client.get(reverse("quiz:item", args=[session.pk, item.position]))
    item.refresh_from_db()
    codes = [client.post(reverse("quiz:answer", args=[session.pk, item.position]),
                         {"answer": "x", "seed": str(item.seed)}).status_code for _ in range(6)]
    assert codes[-1] == 429
    assert not Attempt.objects.exists()


def test_csrf_is_required_for_answers(library) -> None:
    client = Client(enforce_csrf_checks=True)
    session = start_with(client)
    item = session.items.first()
    client.get(reverse("quiz:item", args=[session.pk, item.position]))
    response = client.post(reverse("quiz:answer", args=[session.pk, item.position]),
                           {"answer": "4"})
    assert response.status_code == 403


def start_with(client: Client) -> QuizSession:
    response = client.get(reverse("quiz:practice"))
    token = client.cookies["csrftoken"].value if "csrftoken" in client.cookies else \
        re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', response.content.decode()).group(1)
    client.post(reverse("quiz:practice"), {"mode": "practice", "era_mode": "current",
                                           "difficulty_min": 1, "difficulty_max": 5,
                                           "length": 3, "csrfmiddlewaretoken": token})
    return QuizSession.objects.latest("created_at")


def test_progress_page(client: Client, library) -> None:
    user = UserFactory()
    client.force_login(user)
    session = start(client)
    post_answer(client, item_for(session, "num"), RIGHT["num"])
    response = client.get(reverse("quiz:progress"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "progress-chart" in html and "days in a row" in html
