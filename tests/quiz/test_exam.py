"""Mock exams a candidate can trust: nothing shows an answer while one runs, options in a
drawn order, nothing cached, a resubmitted form says "already answered", starts
throttled, a navigator with skip and flags, hand-in with confirmation, the clock."""

from __future__ import annotations

import re
from collections import Counter
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine import parse
from quiz import grading
from quiz.models import Attempt, QuizItem, QuizSession
from quiz.presenters import shown_options
from quiz.services import quiz_finish
from scenarios.library import library_files, read_document
from tests.factories import ScenarioFactory, UserFactory
from tests.quiz.test_quiz import RIGHT, WRONG, all_kinds_document, post_answer, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def library():
    return ScenarioFactory(slug="all-kinds", document=all_kinds_document())


def closed_urls(slug: str) -> list[str]:
    """Every page that shows an engine answer, a trace or an answer key of a scenario."""
    return [reverse("quiz:history"), reverse("quiz:history_scenario", args=[slug]),
            reverse("quiz:what_if", args=[slug]), reverse("quiz:rules"),
            reverse("quiz:rule", args=["combat.damage-blocked"]),
            reverse("scenarios:author_home"), reverse("scenarios:edit", args=[slug]),
            reverse("quiz:scenario_stats", args=[slug]), reverse("scenarios:export", args=[slug])]


def exam_in_state(client: Client, state: str) -> QuizSession | None:
    if state == "none":
        return None
    exam = start(client, mode="exam")
    if state == "handed-in":
        client.post(reverse("quiz:finish", args=[exam.pk]))
    elif state == "expired":
        QuizSession.objects.filter(pk=exam.pk).update(
            deadline=timezone.now() - timedelta(seconds=1))
    return exam


@pytest.mark.parametrize("who", ["instructor", "anonymous"])
@pytest.mark.parametrize("state", ["none", "running", "handed-in", "expired"])
def test_answer_pages_are_closed_while_an_exam_runs(library, who: str, state: str) -> None:
    from tests.factories import InstructorFactory

    client = Client()
    if who == "instructor":  # an instructor sees every page, so every closure shows
        client.force_login(InstructorFactory())
    exam = exam_in_state(client, state)
    for url in closed_urls("all-kinds"):
        if who == "anonymous" and url.startswith("/en/author/"):
            continue  # closed to anonymous visitors anyway
        response = client.get(url)
        if state == "running":
            assert response.status_code == 403, url
            html = response.content.decode()
            assert "reopens when you hand the exam in" in html
            assert reverse("quiz:session", args=[exam.pk]) in html
            assert "no-store" in response["Cache-Control"]
        else:
            assert response.status_code == 200, (url, response.status_code)


def test_another_sessions_feedback_and_answers_are_closed_during_an_exam(
        client: Client, library) -> None:
    practice = start(client, length=6)
    first = practice.items.get(question_id="num")
    post_answer(client, first, RIGHT["num"])
    other = practice.items.get(question_id="yn")
    client.get(reverse("quiz:item", args=[practice.pk, other.position]))
    other.refresh_from_db()
    feedback_url = reverse("quiz:item", args=[practice.pk, first.position])
    assert client.get(feedback_url).status_code == 200
    exam = start(client, mode="exam")
    assert client.get(feedback_url).status_code == 403
    response = client.post(reverse("quiz:answer", args=[practice.pk, other.position]),
                           {"answer": "yes", "seed": str(other.seed)})
    assert response.status_code == 403 and not Attempt.objects.filter(item=other).exists()
    refused = client.post(reverse("quiz:practice"), {
        "mode": "practice", "era_mode": "current", "difficulty_min": 1,
        "difficulty_max": 5, "length": 3})
    assert refused.status_code == 200 and "still running" in refused.content.decode()
    assert QuizSession.objects.count() == 2
    exam_page = client.get(reverse("quiz:item", args=[exam.pk, 1]))
    assert exam_page.status_code == 200
    client.post(reverse("quiz:finish", args=[exam.pk]))
    assert client.get(feedback_url).status_code == 200


def test_options_are_drawn_per_item_and_stable_on_reload(client: Client, library) -> None:
    orders = set()
    for _ in range(6):
        session = start(client)
        item = session.items.get(question_id="mu")
        url = reverse("quiz:item", args=[session.pk, item.position])
        first = re.findall(r'name="answer" value="(\w)"', client.get(url).content.decode())
        again = re.findall(r'name="answer" value="(\w)"', client.get(url).content.decode())
        assert first == again and sorted(first) == ["a", "b", "c"]
        orders.add(tuple(first))
    assert len(orders) > 1


def test_the_right_option_is_not_usually_first_across_the_library() -> None:
    """Over every choice question of the library, each shown in 30 quiz items, the right
    option comes first about as often as chance says (1 in the number of options)."""
    first = total = 0
    expected_share = 0.0
    for path in library_files():
        scenario = parse(read_document(path))
        variant = scenario.variant(0)
        for question in variant.questions:
            if question.kind != "choice":
                continue
            era = scenario_era(scenario)
            right = grading.expected_answer(scenario, question.id, era, 0).value
            for n in range(30):
                item = QuizItem(session_id=f"00000000-0000-0000-0000-{n:012d}",
                                position=n % 7 + 1)
                first += shown_options(question, item)[0].id == right
                total += 1
                expected_share += 1 / len(question.options)
    assert total > 300
    assert first / total < 0.5
    assert abs(first - expected_share) < 0.1 * total


def scenario_era(scenario) -> str:
    from engine import scenario_eras

    return scenario_eras(scenario, scenario.variant(0))[-1]


def test_question_feedback_exam_and_results_pages_are_not_stored(
        client: Client, library) -> None:
    session = start(client)
    item = session.items.get(question_id="num")
    page = client.get(reverse("quiz:item", args=[session.pk, item.position]))
    feedback = post_answer(client, item, RIGHT["num"], HTTP_HX_REQUEST="true")
    results = client.get(reverse("quiz:results", args=[session.pk]))
    exam = start(client, mode="exam")
    exam_page = client.get(reverse("quiz:item", args=[exam.pk, 1]))
    confirm = client.get(reverse("quiz:finish", args=[exam.pk]))
    for response in (page, feedback, results, exam_page, confirm):
        assert "no-store" in response["Cache-Control"], response


def test_a_resubmitted_answer_says_already_answered_and_keeps_the_first(
        client: Client, library) -> None:
    session = start(client)
    item = session.items.get(question_id="num")
    post_answer(client, item, RIGHT["num"])
    url = reverse("quiz:answer", args=[session.pk, item.position])
    again = client.post(url, {"answer": "6", "seed": str(item.seed)}, follow=True)
    html = again.content.decode()
    assert "already answered" in html and "Right!" in html
    htmx = client.post(url, {"answer": "6", "seed": str(item.seed)}, HTTP_HX_REQUEST="true")
    assert "already answered" in htmx.content.decode()
    assert Attempt.objects.get(item=item).answer == 4


def test_quiz_starts_are_throttled_per_client(client: Client, library) -> None:
    limit = settings.QUIZ_START_RATE[0]
    statuses = [client.post(reverse("quiz:practice"), {
        "mode": "practice", "era_mode": "current", "difficulty_min": 1,
        "difficulty_max": 5, "length": 2}).status_code for _ in range(limit + 3)]
    assert statuses[:limit] == [303] * limit and statuses[limit:] == [429] * 3
    assert QuizSession.objects.count() == limit


def test_starts_without_a_cookie_are_throttled_per_address(library, settings) -> None:
    settings.QUIZ_START_ADDRESS_RATE = (5, 60)
    statuses = [Client().post(reverse("quiz:practice"), {
        "mode": "exam", "era_mode": "current", "difficulty_min": 1,
        "difficulty_max": 5, "length": 2}).status_code for _ in range(8)]
    assert statuses.count(303) == 5 and statuses.count(429) == 3
    assert QuizSession.objects.count() == 5


def test_behind_a_proxy_starts_are_counted_per_client_address(library, settings) -> None:
    settings.QUIZ_START_ADDRESS_RATE = (3, 60)
    settings.TRUSTED_PROXIES = 1

    def start_from(address: str) -> int:
        return Client(REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=address).post(
            reverse("quiz:practice"), {"mode": "exam", "era_mode": "current",
                                       "difficulty_min": 1, "difficulty_max": 5,
                                       "length": 2}).status_code

    assert [start_from("198.51.100.7") for _ in range(4)] == [303, 303, 303, 429]
    assert start_from("203.0.113.20") == 303  # another classroom, the same proxy
    assert start_from("203.0.113.5, 198.51.100.7") == 429  # a spoofed entry changes nothing


def test_exam_navigator_skip_flag_and_come_back(client: Client, library) -> None:
    exam = start(client, mode="exam")
    first = exam.items.get(position=1)
    html = client.get(reverse("quiz:item", args=[exam.pk, 1])).content.decode()
    assert 'id="exam-navigator"' in html and html.count('class="exam-nav-item') == exam.length
    assert "Skip for now" in html
    # skip: the next unanswered question after this one
    skip = client.get(reverse("quiz:session", args=[exam.pk]) + "?after=1")
    assert skip["Location"].endswith("/q/2/")
    # flag question 1, see it in the navigator; unflag by htmx
    client.post(reverse("quiz:flag", args=[exam.pk, 1]), {"flagged": "1"})
    first.refresh_from_db()
    assert first.flagged
    html = client.get(reverse("quiz:item", args=[exam.pk, 2])).content.decode()
    assert re.search(r'class="exam-nav-item is-flagged"[^>]*>1', html)
    partial = client.post(reverse("quiz:flag", args=[exam.pk, 1]), {"flagged": "0"},
                          HTTP_HX_REQUEST="true").content.decode()
    assert 'id="flag-control"' in partial and 'hx-swap-oob="true"' in partial
    first.refresh_from_db()
    assert not first.flagged
    # answer question 2, then "next" wraps round to the skipped question 1
    item2 = exam.items.get(position=2)
    post_answer(client, item2, RIGHT[item2.question_id])
    last = exam.items.order_by("position").last()
    nxt = client.get(reverse("quiz:session", args=[exam.pk]) + f"?after={last.position}")
    assert nxt["Location"].endswith("/q/1/")
    # an answer stays final
    client.post(reverse("quiz:answer", args=[exam.pk, 2]), {"answer": "0", "seed": "0"})
    assert Attempt.objects.filter(item=item2).count() == 1


def test_hand_in_asks_for_confirmation_with_the_unanswered_count(
        client: Client, library) -> None:
    exam = start(client, mode="exam")
    item = exam.items.get(position=1)
    post_answer(client, item, RIGHT[item.question_id])
    client.post(reverse("quiz:flag", args=[exam.pk, 3]), {"flagged": "1"})
    page = client.get(reverse("quiz:finish", args=[exam.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert f"{exam.length - 1} questions are not answered yet" in html
    assert "You flagged 1 question" in html
    exam.refresh_from_db()
    assert exam.finished_at is None
    done = client.post(reverse("quiz:finish", args=[exam.pk]))
    assert done.status_code == 303
    exam.refresh_from_db()
    assert exam.finished_at is not None and not exam.closed_by_clock


def test_exam_page_shows_the_server_deadline_and_time_left(client: Client, library) -> None:
    exam = start(client, mode="exam")
    html = client.get(reverse("quiz:item", args=[exam.pk, 1])).content.decode()
    deadline = exam.deadline.isoformat()
    assert f'<time id="exam-deadline" datetime="{deadline}"' in html
    assert re.search(r'data-remaining="(2[34]\d\d)"', html)  # 40 minutes, give or take
    assert "js/exam-clock" in html and "<script>" not in html
    QuizSession.objects.filter(pk=exam.pk).update(
        deadline=timezone.now() + timedelta(minutes=4))
    html = client.get(reverse("quiz:item", args=[exam.pk, 1])).content.decode()
    assert "exam-clock mb-0 is-warning" in html


def test_an_exam_past_its_deadline_is_handed_in_at_the_deadline(
        client: Client, library) -> None:
    exam = start(client, mode="exam")
    deadline = timezone.now() - timedelta(minutes=3)
    QuizSession.objects.filter(pk=exam.pk).update(deadline=deadline)
    html = client.get(reverse("quiz:results", args=[exam.pk])).content.decode()
    exam.refresh_from_db()
    assert exam.finished_at == deadline and exam.closed_by_clock
    assert "handed in automatically" in html


def test_choice_multi_and_eras_feedback_marks_each_option(client: Client, library) -> None:
    session = start(client)
    item = session.items.get(question_id="mu")
    html = post_answer(client, item, {"answer": ["a", "c"]}, follow=True).content.decode()
    marks = re.findall(r'<tr class="mark-(agrees|differs)">', html)
    assert Counter(marks) == {"agrees": 1, "differs": 2}  # a right; b missed; c wrong
    er = session.items.get(question_id="er")
    html = post_answer(client, er, WRONG["er"], follow=True).content.decode()
    assert len(re.findall(r'<tr class="mark-', html)) == 9
    assert 'class="era-banner"' not in html  # no single-era badge on an eras question


def test_an_eras_answer_links_to_the_two_eras_where_it_flips() -> None:
    from quiz.presenters import _era_flips

    expected = grading.Expected(question=None, value=["lrw-2007", "m10-2009", "xln-2017"],
                                outcome=None, variant=None,
                                eras=("lrw-2007", "m10-2009", "m11-2010", "xln-2017",
                                      "dom-2018"))
    flips = _era_flips("some-slug", expected)
    assert [(f["url"].split("?")[1], f["holds_after"]) for f in flips] == [
        ("a=m10-2009&b=m11-2010", False), ("a=m11-2010&b=xln-2017", True),
        ("a=xln-2017&b=dom-2018", False)]


@pytest.mark.parametrize("qid", ["mu", "er"])
def test_nothing_ticked_needs_an_explicit_none_of_them(client: Client, library, qid) -> None:
    session = start(client)
    item = session.items.get(question_id=qid)
    html = post_answer(client, item, {}).content.decode()
    assert "Nothing is ticked" in html and not Attempt.objects.exists()
    pick = "a" if qid == "mu" else "lrw-2007"
    html = post_answer(client, item, {"answer": [pick], "none": "1"}).content.decode()
    assert "go with other ticks" in html and not Attempt.objects.exists()
    post_answer(client, item, {"none": "1"})
    attempt = Attempt.objects.get(item=item)
    assert attempt.answer == [] and attempt.correct is False


def test_review_these_mistakes_now_practises_the_wrong_ones(client: Client, library) -> None:
    session = start(client)
    for item in session.items.all():
        data = WRONG if item.question_id in ("num", "yn") else RIGHT
        post_answer(client, item, data[item.question_id])
    html = client.get(reverse("quiz:results", args=[session.pk])).content.decode()
    assert "Review these 2 mistakes now" in html
    response = client.post(reverse("quiz:retry", args=[session.pk]))
    assert response.status_code == 303
    retry = QuizSession.objects.latest("created_at")
    assert retry.pk != session.pk and retry.mode == "practice"
    assert sorted(retry.items.values_list("question_id", flat=True)) == ["num", "yn"]


def test_a_running_exam_has_no_retry(client: Client, library) -> None:
    user = UserFactory()
    client.force_login(user)
    exam = start(client, mode="exam")
    response = client.post(reverse("quiz:retry", args=[exam.pk]))
    assert response.status_code == 302 and QuizSession.objects.count() == 1
    quiz_finish(session=exam)


def test_review_mistakes_of_an_exam_includes_the_unanswered(client: Client, library) -> None:
    exam = start(client, mode="exam")
    first = exam.items.get(position=1)
    post_answer(client, first, RIGHT[first.question_id])
    client.post(reverse("quiz:finish", args=[exam.pk]))
    html = client.get(reverse("quiz:results", args=[exam.pk])).content.decode()
    assert f"Review these {exam.length - 1} mistakes now" in html
    client.post(reverse("quiz:retry", args=[exam.pk]))
    retry = QuizSession.objects.latest("created_at")
    assert retry.length == exam.length - 1
    assert not retry.items.filter(question_id=first.question_id, era=first.era).exists()


def test_the_admin_is_closed_to_an_admin_sitting_an_exam(client: Client, library) -> None:
    from tests.factories import AdminFactory

    client.force_login(AdminFactory())
    assert client.get(reverse("admin:index")).status_code == 200
    exam = start(client, mode="exam")
    assert client.get(reverse("admin:index")).status_code == 403
    assert client.get(reverse("admin:quiz_attempt_changelist")).status_code == 403
    client.post(reverse("quiz:finish", args=[exam.pk]))
    assert client.get(reverse("admin:index")).status_code == 200


def test_exam_posts_need_the_csrf_token(library) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(UserFactory())
    page = client.get(reverse("quiz:practice"))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode())
    started = client.post(reverse("quiz:practice"), {"mode": "exam", "era_mode": "current",
                                                     "difficulty_min": 1, "difficulty_max": 5,
                                                     "length": 2})
    assert started.status_code == 403 and not QuizSession.objects.exists()
    client.post(reverse("quiz:practice"), {"mode": "exam", "era_mode": "current",
                                           "difficulty_min": 1, "difficulty_max": 5,
                                           "length": 2,
                                           "csrfmiddlewaretoken": token.group(1)})
    exam = QuizSession.objects.get()
    for url in (reverse("quiz:flag", args=[exam.pk, 1]), reverse("quiz:finish", args=[exam.pk]),
                reverse("quiz:retry", args=[exam.pk])):
        assert client.post(url, {"flagged": "1"}).status_code == 403, url
    exam.refresh_from_db()
    assert exam.finished_at is None and not exam.items.filter(flagged=True).exists()
    assert QuizSession.objects.count() == 1
