"""The practice page's live count of the questions its filters match."""

from __future__ import annotations

from io import StringIO
from itertools import product

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from engine import ERA_KEYS
from quiz.selectors import question_count, question_pool
from tests.factories import ScenarioFactory, scenario_document

pytestmark = pytest.mark.django_db

TOPIC = "trample-into-planeswalkers"
OTHER_TOPIC = "loyalty"


def two_questions(slug: str, **overrides) -> dict:
    doc = scenario_document(slug, **overrides)
    second = dict(doc["questions"][0], id="life-again")
    doc["questions"] = [*doc["questions"], second]
    return doc


@pytest.fixture
def small_library():
    """Five questions over three scenarios; one draft that never counts."""
    ScenarioFactory(slug="easy", document=scenario_document("easy", difficulty=1))
    ScenarioFactory(slug="hard", document=two_questions("hard", difficulty=4))
    ScenarioFactory(slug="old", document=two_questions(
        "old", topic=OTHER_TOPIC, difficulty=2, eras=["m10-2009", "m11-2010"]))
    ScenarioFactory(slug="draft", document=scenario_document("draft"), publish=False)


def count_of(client: Client, **query) -> str:
    response = client.get(reverse("quiz:practice_count"), query)
    assert response.status_code == 200
    return response.content.decode()


FILTERS = [
    {"topics": [], "era_mode": "current", "era": "", "difficulty_min": 1, "difficulty_max": 5},
    {"topics": [], "era_mode": "mixed", "era": "", "difficulty_min": 1, "difficulty_max": 5},
    {"topics": [TOPIC], "era_mode": "mixed", "era": "", "difficulty_min": 1,
     "difficulty_max": 5},
    {"topics": [OTHER_TOPIC], "era_mode": "one", "era": "m10-2009", "difficulty_min": 1,
     "difficulty_max": 5},
    {"topics": [], "era_mode": "one", "era": "fdn-2024", "difficulty_min": 2,
     "difficulty_max": 4},
    {"topics": [TOPIC, OTHER_TOPIC], "era_mode": "one", "era": "lrw-2007",
     "difficulty_min": 1, "difficulty_max": 5},
    {"topics": [], "era_mode": "mixed", "era": "", "difficulty_min": 5, "difficulty_max": 5},
]


@pytest.mark.parametrize("filters", FILTERS)
def test_the_count_equals_the_pool_a_quiz_draws_from(small_library, filters: dict) -> None:
    assert question_count(**filters) == len(question_pool(**filters))


def test_the_endpoint_counts_questions_not_scenarios(client: Client, small_library) -> None:
    html = count_of(client, era_mode="mixed", difficulty_min=1, difficulty_max=5, length=10)
    assert "5 questions match these filters." in html
    html = count_of(client, era_mode="one", era="m10-2009", topics=OTHER_TOPIC,
                    difficulty_min=1, difficulty_max=5)
    assert "2 questions match these filters." in html
    html = count_of(client, era_mode="current", difficulty_min=1, difficulty_max=1)
    assert "1 question matches these filters." in html


def test_no_match_asks_to_widen_the_filters(client: Client, small_library) -> None:
    html = count_of(client, era_mode="mixed", difficulty_min=5, difficulty_max=5)
    assert "No question matches: widen the filters." in html


def test_the_practice_page_shows_the_count_without_javascript(client: Client,
                                                              small_library) -> None:
    html = client.get(reverse("quiz:practice")).content.decode()
    current = question_count(topics=[], era_mode="current", difficulty_min=1, difficulty_max=5)
    assert current == 3
    assert 'id="practice-count"' in html and 'aria-live="polite"' in html
    assert "3 questions match these filters." in html
    assert f'hx-get="{reverse("quiz:practice_count")}"' in html and 'hx-trigger="change"' in html


def test_a_rejected_start_shows_the_count_of_the_posted_filters(client: Client,
                                                                small_library) -> None:
    response = client.post(reverse("quiz:practice"), {
        "mode": "practice", "era_mode": "mixed", "difficulty_min": 5, "difficulty_max": 5,
        "length": 10})
    assert response.status_code == 200
    assert "No question matches: widen the filters." in response.content.decode()


@pytest.mark.parametrize("query", [
    {"era_mode": "<script>alert(1)</script>", "difficulty_min": "1", "difficulty_max": "5"},
    {"era_mode": "one", "era": "", "difficulty_min": "1", "difficulty_max": "5"},
    {"era_mode": "one", "era": "no-such-era'--", "difficulty_min": "1", "difficulty_max": "5"},
    {"era_mode": "current", "topics": ["x" * 5000], "difficulty_min": "1",
     "difficulty_max": "5"},
    {"era_mode": "current", "difficulty_min": "1e999", "difficulty_max": "-7"},
    {"era_mode": "current", "difficulty_min": "4", "difficulty_max": "2"},
    {"era_mode": "current", "difficulty_min": "\x00", "difficulty_max": "５"},
    {},
])
def test_a_hostile_query_string_gets_a_message_not_an_error(client: Client, small_library,
                                                             query: dict) -> None:
    response = client.get(reverse("quiz:practice_count"), query)
    html = response.content.decode()
    assert response.status_code == 200
    assert "These filters can't be used:" in html or "match" in html
    assert "<script>" not in html
    assert len(html) < 2048


def test_the_count_endpoint_is_read_only(client: Client) -> None:
    assert client.post(reverse("quiz:practice_count")).status_code == 405


def test_the_count_is_one_query_whatever_the_library_size(small_library,
                                                          django_assert_num_queries) -> None:
    """Two queries the first time (the library's stamp, what its versions store), then one
    (the stamp): tests/quiz/test_stored_facts.py checks it at two library sizes."""
    question_count(topics=[], era_mode="mixed", era="", difficulty_min=1, difficulty_max=5)
    with django_assert_num_queries(1):
        question_count(topics=[TOPIC], era_mode="one", era="fdn-2024", difficulty_min=1,
                       difficulty_max=5)


def test_the_count_equals_the_pool_over_the_shipped_library() -> None:
    call_command("load_scenarios", stdout=StringIO())
    from scenarios.models import TOPIC_CHOICES

    topic_sets = [[], [TOPIC_CHOICES[0][0]], [t for t, _ in TOPIC_CHOICES[1:4]]]
    eras = [("current", ""), ("mixed", ""), *(("one", era) for era in ERA_KEYS)]
    ranges = [(1, 5), (1, 2), (3, 5), (4, 4)]
    for topics, (era_mode, era), (low, high) in product(topic_sets, eras, ranges):
        filters = {"topics": topics, "era_mode": era_mode, "era": era,
                   "difficulty_min": low, "difficulty_max": high}
        assert question_count(**filters) == len(question_pool(**filters)), filters
