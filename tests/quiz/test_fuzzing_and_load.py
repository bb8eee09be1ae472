"""Robustness of the quiz: fuzzed forms never give a 500, concurrent identical answers
make one attempt, and a small load of answer submissions gets no errors."""

from __future__ import annotations

import http.client
import re
import threading
import time
from unittest import mock
from urllib.parse import urlencode, urlparse

import pytest
from django.core.cache import cache
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from quiz.forms import AnswerForm
from quiz.models import Attempt, QuizItem, QuizSession
from quiz.services import answer_submit, item_serve, quiz_start
from tests.concurrency import at_once
from tests.factories import ScenarioFactory, UserFactory, scenario_document
from tests.quiz.test_quiz import all_kinds_document

anything = st.text(max_size=120)
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# What each question of all_kinds_document (one of each kind) reads, beside arbitrary
# text: its option ids and eras, numbers near and beyond the limits, so that examples
# reach every check of the answer form, and also get through it.
NEAR = {"num": ["4", "-3", " 6 ", "10000", "10001", "4.0", "9" * 5000],
        "yn": ["yes", "no", " yes", "Yes"], "ch": ["zero", "four", "five"],
        "mu": ["a", "b", "c", "d"], "er": ["lrw-2007", "m10-2009", "fdn-2024", "zzz-2099"],
        "as": ["4"]}
DAMAGE = st.sampled_from(["", "", "0", "2", "4", " 6 ", "-1", "1001", "x"])


@st.composite
def answer_posts(draw: st.DrawFn) -> tuple[str, list[str], dict[str, str]]:
    """A question and what is posted to it: ``answer`` values and the other fields."""
    question = draw(st.sampled_from(list(NEAR)))
    near = st.sampled_from(NEAR[question])
    some = st.lists(st.one_of(near, near, near, anything), min_size=1, max_size=3)
    answer = draw(st.one_of(some, some, some, st.just([])))
    extra: dict[str, str] = {}
    if question in ("mu", "er"):
        extra["none"] = draw(st.one_of(st.sampled_from(["", "1", "1", "0", "on"]), anything))
    if question == "as":
        for recipient in ("bears", "garruk", "bob"):
            extra[f"assign-{recipient}"] = draw(st.one_of(DAMAGE, DAMAGE, DAMAGE, anything))
    extra.update(draw(st.dictionaries(st.sampled_from(["none", "assign-wurm", "correct"]),
                                      anything, max_size=2)))
    return question, answer, extra


class QuizFormsFuzzTest(TestCase):
    def setUp(self) -> None:
        ScenarioFactory(slug="fuzz", document=scenario_document("fuzz"))
        ScenarioFactory(slug="all-kinds", document=all_kinds_document())

    @FUZZ
    @given(mode=anything, topics=st.lists(anything, max_size=3), era_mode=anything,
           era=anything, low=anything, high=anything, length=anything)
    def test_practice_form_never_fails(self, mode, topics, era_mode, era, low, high, length):
        cache.clear()  # the start throttle counts every example of this one test
        response = self.client.post("/en/practice/", {
            "mode": mode, "topics": topics, "era_mode": era_mode, "era": era,
            "difficulty_min": low, "difficulty_max": high, "length": length})
        assert response.status_code in {200, 303}

    @settings(FUZZ, max_examples=200)
    @given(post=answer_posts(), seed=st.sampled_from(["served"] * 6 + ["missing", "other"]),
           other=anything, htmx=st.booleans())
    def test_answers_never_fail(self, post, seed, other, htmx):
        """Random answers to each kind of question, posted with the seed the page served
        (mostly: else none, or another), so that they reach the answer form: a 500 never,
        an attempt only for what the form accepts, its errors shown otherwise. The events
        (``--hypothesis-show-statistics``) say how far the examples went."""
        question, answer, extra = post
        cache.clear()  # the start and answer throttles count every example of this test
        self.client.post("/en/practice/", {"mode": "practice", "era_mode": "current",
                                           "difficulty_min": 1, "difficulty_max": 5,
                                           "length": 7})
        session = QuizSession.objects.latest("created_at")
        item = session.items.get(question_id=question)
        url = f"/en/quiz/{session.pk}/q/{item.position}/"
        served = re.search(r'name="seed" value="(\d+)"', self.client.get(url).content.decode())
        item.refresh_from_db()
        assert served and served.group(1) == str(item.seed)
        data = {"answer": answer, **extra}
        if seed != "missing":
            data["seed"] = served.group(1) if seed == "served" else other
        forms: list[AnswerForm] = []
        full_clean = AnswerForm.full_clean

        def spy(form: AnswerForm) -> None:
            full_clean(form)
            forms.append(form)

        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        with mock.patch.object(AnswerForm, "full_clean", spy):
            response = self.client.post(f"{url}answer/", data, **headers)
        assert response.status_code in {200, 303, 400}, response.status_code
        event(f"question kind: {question}")
        if not forms:
            event(f"refused before the form: {response.status_code}")
            assert response.status_code == (200 if htmx else 400)  # another seed was posted
            return
        event("reached the form's clean")
        read = forms[0]  # the service's; a refused answer is shown again in a second one
        recorded = Attempt.objects.filter(item=item).first()
        if read.is_valid():
            event("accepted: an attempt recorded")
            assert recorded is not None and recorded.answer == read.answer
            assert response.status_code == (200 if htmx else 303)
            return
        for field in sorted(read.errors):
            event(f"refused by the form, field: {field}")
        assert recorded is None and response.status_code == 200
        html = response.content.decode()
        assert 'class="answer-form"' in html and 'role="alert"' in html


@pytest.mark.django_db(transaction=True)
def test_two_identical_concurrent_submissions_make_one_attempt() -> None:
    ScenarioFactory(slug="race")
    user = UserFactory()
    session = quiz_start(user=user, session_key="", length=1)
    item = item_serve(item=session.items.get())

    # both read the unanswered question before either submits
    fresh = [QuizItem.objects.select_related("session", "version__scenario").get(pk=item.pk)
             for _ in range(2)]

    def submit() -> None:
        answer_submit(item=fresh.pop(), data={"answer": "20"}, user=user, session_key="")

    assert at_once(2, submit) == []
    assert Attempt.objects.filter(item=item).count() == 1


@pytest.mark.django_db(transaction=True)
def test_load_smoke_sixteen_clients_answering_for_ten_seconds(live_server) -> None:
    for n in range(4):
        doc = scenario_document(f"load-{n}")
        doc["questions"] += [dict(doc["questions"][0], id=f"again-{k}") for k in range(10)]
        ScenarioFactory(slug=f"load-{n}", document=doc)
    base = urlparse(live_server.url)
    deadline = time.monotonic() + 10
    results: list[int] = []
    failures: list[str] = []

    def client() -> None:
        conn = http.client.HTTPConnection(base.hostname, base.port, timeout=30)
        cookies: dict[str, str] = {}

        def request(method: str, path: str, body: dict | None = None) -> tuple[int, str]:
            headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
            data = None
            if body is not None:
                data = urlencode(body, doseq=True)
                headers["Content-Type"] = "application/x-www-form-urlencoded"
                headers["X-CSRFToken"] = cookies.get("csrftoken", "")
                headers["HX-Request"] = "true"
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            text = response.read().decode()
            for header, value in response.getheaders():
                if header.lower() == "set-cookie":
                    name, _, rest = value.partition("=")
                    cookies[name] = rest.split(";")[0]
            return response.status, response.getheader("Location") or text

        try:
            request("GET", "/en/practice/")
            status, location = request("POST", "/en/practice/", {
                "mode": "practice", "era_mode": "current", "difficulty_min": 1,
                "difficulty_max": 5, "length": 40})
            assert status == 303, status
            session_path = urlparse(location).path
            position = 1
            while time.monotonic() < deadline and position <= 40:
                status, page = request("GET", f"{session_path}q/{position}/")
                seed = re.search(r'name="seed" value="(\d+)"', page)
                assert status == 200 and seed, status
                status, _ = request("POST", f"{session_path}q/{position}/answer/",
                                    {"answer": "20", "seed": seed.group(1)})
                results.append(status)
                position += 1
                if status != 200:
                    failures.append(f"answer {status}")
        except Exception as err:  # noqa: BLE001 - every failure is reported
            failures.append(repr(err))
        finally:
            conn.close()

    threads = [threading.Thread(target=client) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == [], failures[:5]
    assert len(results) >= 16
    assert Attempt.objects.count() >= 16
