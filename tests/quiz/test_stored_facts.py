"""The pages that list every published scenario (the history timeline, the rule index and
a rule's page, the practice count, starting a quiz) read the facts each version stores
(question ids, titles, the eras whose answers changed, cited rules), not the documents:
they show what reading every document showed, run as many queries for 30 scenarios as
for 3, and see a publish made by another worker at their next request."""

from __future__ import annotations

import re
from collections import Counter
from io import StringIO
from itertools import product
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from engine import ERA_KEYS
from quiz import history
from quiz.models import QuizItem
from quiz.selectors import question_count, question_pool
from scenarios import caches
from scenarios.library import LIBRARY
from scenarios.models import FACT_FIELDS, Scenario, ScenarioVersion
from scenarios.services import content_hash, scenario_load, scenario_retire, versions_refresh
from tests.quiz.test_rule_citations import cited_by_running

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "it", "es")
CHANGING = LIBRARY / "trample-into-planeswalkers" / "warhammer-nighthawk-deathtouch.yaml"
"""A library scenario whose answers change in two eras and whose trace cites trample."""


# -- the computations before versions stored their facts, kept as the reference ----------------

def timeline_by_reading_documents(language: str) -> dict[str, list[tuple[str, str]]]:
    """era -> (slug, title) of the published scenarios whose answer keys differ from the
    era before, every document read (as the timeline was drawn before)."""
    published = list(Scenario.objects.published().select_related("current_version"))
    out: dict[str, list[tuple[str, str]]] = {}
    for before, era in zip([None, *ERA_KEYS], ERA_KEYS, strict=False):
        out[era] = []
        for scenario in published:
            keys = scenario.current_version.answer_keys
            if before in keys and era in keys and keys[before] != keys[era]:
                texts = scenario.current_version.document.get("title", {})
                out[era].append((scenario.slug, str(texts.get(language) or texts.get("en")
                                                    or scenario.slug)))
    return out


def pool_by_reading_documents(*, topics: list[str], difficulty_min: int,
                              difficulty_max: int, era_mode: str,
                              era: str = "") -> list[tuple[int, int, str, tuple[str, ...]]]:
    """(scenario, version, question, eras) of every question the filters match, every
    document read (as the pool was drawn before)."""
    wanted = {"current": ERA_KEYS[-1], "one": era}.get(era_mode)
    pool = []
    for scenario in (Scenario.objects.published().by_topic(*topics)
                     .difficulty_between(difficulty_min, difficulty_max)
                     .select_related("current_version")):
        version = scenario.current_version
        eras = tuple(version.eras)
        if wanted:
            if wanted not in eras:
                continue
            eras = (wanted,)
        pool.extend((scenario.pk, version.pk, q["id"], eras)
                    for q in version.document.get("questions", []))
    return pool


def main_of(response: Any) -> str:
    assert response.status_code == 200
    html = response.content.decode()
    return re.search(r"<main.*?</main>", html, re.S).group(0)


def pages_now(client: Client) -> dict[str, str]:
    """Every page these facts feed, as shown now, with the process's caches emptied."""
    caches.clear()
    pages = {}
    for language in LANGUAGES:
        pages[f"timeline {language}"] = main_of(client.get(f"/{language}/history/"))
        pages[f"rules {language}"] = main_of(client.get(f"/{language}/history/rules/"))
    cited = history.citations()
    for key in sorted(cited, key=lambda k: (-len(cited[k]), k))[:4]:  # the longest lists
        pages[f"rule {key}"] = main_of(client.get(reverse("quiz:rule", args=[key])))
    return pages


FILTERS = [
    {"topics": topics, "era_mode": mode, "era": era, "difficulty_min": low,
     "difficulty_max": high}
    for topics, (mode, era), (low, high) in product(
        [[], ["trample-into-planeswalkers", "battles", "loyalty"]],
        [("current", ""), ("mixed", ""),
         *(("one", e) for e in (ERA_KEYS[0], ERA_KEYS[len(ERA_KEYS) // 2], ERA_KEYS[-1]))],
        [(1, 5), (2, 3)])
]


def test_the_pages_show_what_reading_every_document_showed_with_or_without_facts(
        client: Client) -> None:
    call_command("load_scenarios", stdout=StringIO())
    assert not ScenarioVersion.objects.filter(questions__isnull=True).exists()
    expected = cited_by_running()

    def check() -> None:
        for language in LANGUAGES:
            caches.clear()
            shown = {era["key"]: [(listed.slug, title) for listed, title in era["scenarios"]]
                     for era in history.timeline(language)}
            assert shown == timeline_by_reading_documents(language)
        caches.clear()
        assert {r["key"]: r["uses"] for r in history.rule_index("en")} == {
            r["key"]: len(expected.get(r["key"], [])) for r in history.rule_index("en")}
        caches.clear()
        for filters in FILTERS:
            pool = [(c.scenario_id, c.version_id, c.question_id, c.eras)
                    for c in question_pool(**filters)]
            assert pool == pool_by_reading_documents(**filters), filters
            assert question_count(**filters) == len(pool), filters

    check()
    assert any(era["scenarios"] for era in history.timeline("en"))
    with_facts = pages_now(client)
    # Rows saved before versions kept their facts: the readers compute them instead.
    ScenarioVersion.objects.update(**dict.fromkeys(FACT_FIELDS))
    check()
    assert pages_now(client) == with_facts
    versions_refresh()
    assert not ScenarioVersion.objects.filter(titles__isnull=True).exists()
    assert pages_now(client) == with_facts


# -- flatness ----------------------------------------------------------------------------------

def copies(version: ScenarioVersion, slugs: list[str]) -> None:
    """Published copies of ``version`` under other slugs (as a library grows)."""
    for slug in slugs:
        document = dict(version.document, id=slug)
        scenario = Scenario.objects.create(slug=slug, topic=version.scenario.topic,
                                           difficulty=version.scenario.difficulty,
                                           status=Scenario.Status.PUBLISHED)
        scenario.current_version = ScenarioVersion.objects.create(
            scenario=scenario, number=1, document=document, content_hash=content_hash(document),
            eras=version.eras, answer_keys=version.answer_keys, cited_rules=version.cited_rules,
            checked_with=version.checked_with, published_at=timezone.now())
        scenario.save()


@pytest.fixture
def changing() -> ScenarioVersion:
    version = scenario_load(path=CHANGING).version
    assert version.changed_in and "keyword.trample" in version.cited_rules
    return version


PAGES = [
    ("timeline", "get", "/en/history/", {}),
    ("rule index", "get", "/en/history/rules/", {}),
    ("rule page", "get", "/en/history/rules/keyword.trample/", {}),
    ("practice count", "get", "/en/practice/count/",
     {"era_mode": "mixed", "difficulty_min": 1, "difficulty_max": 5}),
    ("quiz start", "post", "/en/practice/",
     {"mode": "practice", "era_mode": "mixed", "difficulty_min": 1, "difficulty_max": 5,
      "length": 10}),
]


def queries_per_page() -> dict[str, tuple[int, int]]:
    """page -> (queries with the process's caches empty, queries once they are kept)."""
    counts = {}
    for name, method, url, data in PAGES:
        caches.clear()
        runs = []
        for address in ("10.0.0.1", "10.0.0.2"):
            client = Client(REMOTE_ADDR=address)
            with CaptureQueriesContext(connection) as queries:
                response = getattr(client, method)(url, data)
            assert response.status_code == (303 if method == "post" else 200), name
            assert not any('"document"' in q["sql"] for q in queries.captured_queries), name
            runs.append(len(queries.captured_queries))
        counts[name] = (runs[0], runs[1])
    return counts


def test_the_pages_run_as_many_queries_for_30_scenarios_as_for_3(changing) -> None:
    copies(changing, [f"copy-{i}" for i in range(2)])
    small = queries_per_page()
    copies(changing, [f"copy-{i}" for i in range(2, 29)])
    assert Scenario.objects.published().count() == 30
    assert queries_per_page() == small
    assert small["timeline"][1] <= 1 and small["rule index"][1] <= 1  # the library's stamp


def test_a_quiz_draws_one_question_of_each_scenario_before_repeating_one(changing) -> None:
    copies(changing, [f"copy-{i}" for i in range(11)])
    client = Client()
    response = client.post("/en/practice/", {"mode": "practice", "era_mode": "mixed",
                                            "difficulty_min": 1, "difficulty_max": 5,
                                            "length": 10})
    assert response.status_code == 303
    items = list(QuizItem.objects.select_related("version__scenario"))
    assert len(items) == 10
    assert len({i.version.scenario_id for i in items}) == 10
    for item in items:
        assert item.version_id == item.version.scenario.current_version_id
        assert item.question_id in item.version.questions
        assert item.era in item.version.eras


def test_fewer_scenarios_than_questions_give_their_questions_in_turn(changing) -> None:
    copies(changing, ["copy-1", "copy-2"])  # three scenarios of four questions each
    response = Client().post("/en/practice/", {"mode": "practice", "era_mode": "mixed",
                                               "difficulty_min": 1, "difficulty_max": 5,
                                               "length": 10})
    assert response.status_code == 303
    items = list(QuizItem.objects.select_related("version"))
    per_scenario = Counter(i.version.scenario_id for i in items)
    assert sorted(per_scenario.values()) == [3, 3, 4]
    assert len({(i.version_id, i.question_id) for i in items}) == 10  # none twice


# -- another worker publishes ------------------------------------------------------------------

def test_a_publish_by_another_worker_shows_on_the_next_request(changing) -> None:
    """This process's caches are kept; the database changes under them (as another
    worker or server publishing does): the next request shows the change."""
    client = Client()
    count_url = reverse("quiz:practice_count")
    query = {"era_mode": "mixed", "difficulty_min": 1, "difficulty_max": 5}

    def uses(key: str) -> int:
        html = client.get("/en/history/rules/").content.decode()
        row = re.search(rf"<code>{re.escape(key)}</code>.*?</tr>", html, re.S).group(0)
        return int(re.findall(r"<td>(\d+)</td>", row)[-1])

    timeline = client.get("/en/history/").content.decode()
    assert "/history/scenario/other-worker/" not in timeline
    before = uses("keyword.trample")
    counted = client.get(count_url, query).content.decode()
    copies(changing, ["other-worker"])  # no cache of this process is touched
    assert "/history/scenario/other-worker/" in client.get("/en/history/").content.decode()
    assert uses("keyword.trample") == before + 1
    assert client.get(count_url, query).content.decode() != counted

    scenario_retire(scenario=Scenario.objects.get(slug="other-worker"))
    assert "/history/scenario/other-worker/" not in \
        client.get("/en/history/").content.decode()
    assert uses("keyword.trample") == before
    assert client.get(count_url, query).content.decode() == counted


def test_a_new_version_published_elsewhere_shows_its_title(changing) -> None:
    client = Client()
    assert "Renamed in another worker" not in client.get("/en/history/").content.decode()
    document = dict(changing.document, title={**changing.document["title"],
                                              "en": "Renamed in another worker"})
    scenario = changing.scenario
    version = ScenarioVersion.objects.create(
        scenario=scenario, number=2, document=document, content_hash=content_hash(document),
        eras=changing.eras, answer_keys=changing.answer_keys,
        cited_rules=changing.cited_rules, checked_with=changing.checked_with,
        published_at=timezone.now())
    Scenario.objects.filter(pk=scenario.pk).update(current_version=version)  # no timestamp
    html = client.get("/en/history/").content.decode()
    assert "Renamed in another worker" in html
    rule = client.get("/en/history/rules/keyword.trample/").content.decode()
    assert "Renamed in another worker" in rule


def test_a_version_saved_before_facts_were_kept_still_shows(changing, client: Client) -> None:
    title = changing.document["title"]["it"]
    ScenarioVersion.objects.filter(pk=changing.pk).update(**dict.fromkeys(FACT_FIELDS))
    assert title in client.get("/it/history/").content.decode()
    assert title in client.get("/it/history/rules/keyword.trample/").content.decode()
    questions = [q["id"] for q in changing.document["questions"]]
    pool = question_pool(topics=[], difficulty_min=1, difficulty_max=5, era_mode="mixed")
    assert [c.question_id for c in pool] == questions
    assert question_count(topics=[], difficulty_min=1, difficulty_max=5,
                          era_mode="mixed") == len(questions)
    assert client.post("/en/practice/", {"mode": "practice", "era_mode": "mixed",
                                         "difficulty_min": 1, "difficulty_max": 5,
                                         "length": 3}).status_code == 303
