"""Pages whose cost could grow with the data (issue 16): the instructors' scenario list
and the admin's attempt list run as many queries at ten times the rows, page, filter and
search correctly, and stay closed to candidates."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scenarios.models import Scenario
from tests.factories import ScenarioFactory, scenario_document
from tests.quiz.test_statistics import _answers

pytestmark = pytest.mark.django_db


def _queries(client: Any, url: str) -> int:
    """The queries of a request, after one the same (the first of a client reads its
    session and the per-process caches fill)."""
    client.get(url)
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured)


def _scenarios(n: int, start: int = 0) -> list[Scenario]:
    return [ScenarioFactory(slug=f"s{i:03d}") for i in range(start, start + n)]


def test_the_scenario_list_runs_as_many_queries_for_ten_times_the_scenarios(
        instructor: Any, client: Any) -> None:
    client.force_login(instructor)
    few = _scenarios(3)
    _answers(random.Random(1), few, candidates=4, attempts=20)
    small = _queries(client, reverse("scenarios:author_home"))
    searched = _queries(client, reverse("scenarios:author_home") + "?q=garruk")
    many = _scenarios(27, start=3)
    _answers(random.Random(2), many, candidates=20, attempts=200)

    assert _queries(client, reverse("scenarios:author_home")) == small
    assert _queries(client, reverse("scenarios:author_home") + "?q=garruk") == searched


def test_the_scenario_list_counts_attempts_and_right_answers(instructor: Any,
                                                            client: Any) -> None:
    (scenario,) = _scenarios(1)
    _answers(random.Random(3), [scenario], candidates=4, attempts=30)
    client.force_login(instructor)
    from quiz.models import Attempt

    right = Attempt.objects.filter(correct=True).count()
    html = client.get(reverse("scenarios:author_home")).content.decode()

    assert f">{Attempt.objects.count()}</a>" in html
    assert f"{round(100 * right / Attempt.objects.count())}%" in html


def test_the_scenario_list_pages_by_fifty_keeping_the_filters(instructor: Any,
                                                             client: Any) -> None:
    _scenarios(55)
    client.force_login(instructor)
    url = reverse("scenarios:author_home")

    first = client.get(url + "?topic=trample-into-planeswalkers")
    second = client.get(url + "?topic=trample-into-planeswalkers&page=2")
    beyond = client.get(url + "?topic=trample-into-planeswalkers&page=9")
    nonsense = client.get(url + "?page=abc")

    assert len(first.context["rows"]) == 50 and len(second.context["rows"]) == 5
    html = first.content.decode()
    assert '<nav aria-label="Pages">' in html and 'aria-current="page"' in html
    assert "?topic=trample-into-planeswalkers&amp;page=2" in html  # the filter kept
    assert beyond.status_code == 200 and beyond.context["page"].number == 2  # the last
    assert nonsense.status_code == 200 and nonsense.context["page"].number == 1
    assert "s054" in second.content.decode() and "s054" not in html


@pytest.mark.parametrize(("query", "found"), [
    ("travolgere", True), ("ARROLLAR", True), ("trample into", True), ("s000", True),
    ("nothing-like-it", False), ("%", False), ("_", False)])
def test_the_scenario_list_searches_slugs_and_titles_in_every_language(
        instructor: Any, client: Any, query: str, found: bool) -> None:
    ScenarioFactory(slug="s000", document=scenario_document(
        "s000", title={"en": "Trample into {garruk}", "it": "Travolgere {garruk}",
                       "es": "Arrollar a {garruk}"}))
    client.force_login(instructor)
    response = client.get(reverse("scenarios:author_home"), {"q": query})

    assert response.status_code == 200
    assert (len(response.context["rows"]) == 1) is found


def test_candidates_may_not_read_the_scenario_list(candidate: Any, client: Any) -> None:
    client.force_login(candidate)
    assert client.get(reverse("scenarios:author_home")).status_code == 403
    assert client.get(reverse("scenarios:author_home") + "?page=2").status_code == 403


# -- the admin's attempt list -------------------------------------------------------------

ATTEMPTS = "/admin/quiz/attempt/"


def test_the_admin_attempt_list_runs_as_many_queries_for_ten_times_the_attempts(
        superuser: Any, client: Any) -> None:
    client.force_login(superuser)
    scenarios = _scenarios(2)
    _answers(random.Random(4), scenarios, candidates=4, attempts=20)
    small = [_queries(client, ATTEMPTS + q) for q in ("", "?q=candidate", "?era=fdn-2024")]
    _answers(random.Random(5), scenarios, candidates=30, attempts=200)

    assert [_queries(client, ATTEMPTS + q) for q in ("", "?q=candidate", "?era=fdn-2024")] \
        == small


def test_the_admin_attempt_list_searches_a_username_or_a_slug(superuser: Any,
                                                              client: Any) -> None:
    from quiz.models import Attempt

    client.force_login(superuser)
    scenarios = _scenarios(2)
    _answers(random.Random(6), scenarios, candidates=6, attempts=40)
    someone = Attempt.objects.filter(user__isnull=False).first().user  # type: ignore[union-attr]

    def found(term: str) -> set[int]:
        response = client.get(ATTEMPTS, {"q": term})
        assert response.status_code == 200
        return {a.pk for a in response.context["cl"].result_list}

    assert found(someone.username) == set(
        Attempt.objects.filter(user=someone).values_list("pk", flat=True)[:100])
    assert found("s001") == set(Attempt.objects.filter(version__scenario__slug="s001")
                                .values_list("pk", flat=True)[:100])
    assert found(someone.username[:4]) == set(
        Attempt.objects.filter(user__username__startswith=someone.username[:4])
        .values_list("pk", flat=True)[:100])
    assert found("no-such-person") == set()
    assert client.get(ATTEMPTS, {"q": "%' OR 1=1 --"}).status_code == 200


def test_the_admin_attempt_count_stops_at_its_cap(superuser: Any, client: Any,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from quiz.admin import CappedCountPaginator

    monkeypatch.setattr(CappedCountPaginator, "CAP", 15)
    client.force_login(superuser)
    _answers(random.Random(7), _scenarios(1), candidates=4, attempts=30)

    response = client.get(ATTEMPTS)
    assert response.status_code == 200
    assert response.context["cl"].result_count == 15


def test_instructors_who_are_not_staff_may_not_open_the_admin(instructor: Any,
                                                              client: Any) -> None:
    client.force_login(instructor)
    assert client.get(ATTEMPTS).status_code == 302  # to the admin's login
