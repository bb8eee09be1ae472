"""Robustness of the quiz: fuzzed forms never give a 500, concurrent identical answers
make one attempt, and a small load of answer submissions gets no errors."""

from __future__ import annotations

import http.client
import re
import threading
import time
from urllib.parse import urlencode, urlparse

import pytest
from django.core.cache import cache
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from quiz.models import Attempt, QuizItem, QuizSession
from quiz.services import answer_submit, item_serve, quiz_start
from tests.factories import ScenarioFactory, UserFactory, scenario_document

anything = st.text(max_size=120)
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class QuizFormsFuzzTest(TestCase):
    def setUp(self) -> None:
        ScenarioFactory(slug="fuzz", document=scenario_document("fuzz"))

    @FUZZ
    @given(mode=anything, topics=st.lists(anything, max_size=3), era_mode=anything,
           era=anything, low=anything, high=anything, length=anything)
    def test_practice_form_never_fails(self, mode, topics, era_mode, era, low, high, length):
        cache.clear()  # the start throttle counts every example of this one test
        response = self.client.post("/en/practice/", {
            "mode": mode, "topics": topics, "era_mode": era_mode, "era": era,
            "difficulty_min": low, "difficulty_max": high, "length": length})
        assert response.status_code in {200, 303}

    @FUZZ
    @given(answer=st.lists(anything, max_size=3), seed=anything,
           extra=st.dictionaries(st.sampled_from(["assign-bob", "assign-garruk", "correct"]),
                                 anything, max_size=3))
    def test_answers_never_fail(self, answer, seed, extra):
        cache.clear()  # the start throttle counts every example of this one test
        self.client.post("/en/practice/", {"mode": "practice", "era_mode": "current",
                                           "difficulty_min": 1, "difficulty_max": 5,
                                           "length": 1})
        session = QuizSession.objects.latest("created_at")
        self.client.get(f"/en/quiz/{session.pk}/q/1/")
        response = self.client.post(f"/en/quiz/{session.pk}/q/1/answer/",
                                    {"answer": answer, "seed": seed, **extra})
        assert response.status_code in {200, 303, 400, 409, 429}


@pytest.mark.django_db(transaction=True)
def test_two_identical_concurrent_submissions_make_one_attempt() -> None:
    ScenarioFactory(slug="race")
    user = UserFactory()
    session = quiz_start(user=user, session_key="", length=1)
    item = item_serve(item=session.items.get())
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def submit() -> None:
        from django.db import connection

        try:
            fresh = QuizItem.objects.select_related("session", "version__scenario").get(
                pk=item.pk)
            barrier.wait()
            answer_submit(item=fresh, data={"answer": "20"}, user=user, session_key="")
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
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
