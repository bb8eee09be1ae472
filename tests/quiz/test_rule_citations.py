"""Rule pages list the published scenarios whose traces cite a rule, from the rule keys
each version's check stored (no scenario is run to draw the page)."""

from __future__ import annotations

from io import StringIO
from unittest import mock

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from engine import find_era, parse, rulebook, run_variant
from quiz import history
from scenarios.models import Scenario, ScenarioVersion
from tests.factories import ScenarioFactory, scenario_document

pytestmark = pytest.mark.django_db


def cited_by_running() -> dict[str, list[int]]:
    """rule key -> published scenario ids, as the rule pages found them before anything was
    stored: variant 0 of every published version run in each of its eras."""
    index: dict[str, set[int]] = {}
    for scenario in Scenario.objects.published().select_related("current_version"):
        version = scenario.current_version
        variant = parse(version.document).variant(0)
        for era in version.eras:
            for step in run_variant(find_era(era), variant).trace.steps:
                if step.rule_key:
                    index.setdefault(step.rule_key, set()).add(scenario.pk)
    return {key: sorted(ids) for key, ids in index.items()}


def test_the_stored_rule_keys_name_the_scenarios_running_them_would() -> None:
    call_command("load_scenarios", stdout=StringIO())
    expected = cited_by_running()
    assert history.citations() == expected
    for key in sorted(rulebook.catalogue()):
        found = [s.pk for s, _ in history.scenarios_citing(key, "en")]
        assert found == list(Scenario.objects.filter(pk__in=expected.get(key, [])).values_list(
            "pk", flat=True)), key


def test_a_rule_page_reads_the_stored_keys_in_one_query(django_assert_num_queries) -> None:
    ScenarioFactory(slug="s1")
    ScenarioFactory(slug="s2", document=scenario_document("s2", difficulty=3))
    with mock.patch.object(history, "rules_cited", side_effect=AssertionError), \
            django_assert_num_queries(1):
        citing = history.scenarios_citing("keyword.trample", "en")
    assert [(s.slug, title) for s, title in citing] == [("s1", "Trample into {garruk}"),
                                                        ("s2", "Trample into {garruk}")]
    ids = sorted(Scenario.objects.values_list("pk", flat=True))
    with mock.patch.object(history, "rules_cited", side_effect=AssertionError), \
            django_assert_num_queries(1):
        assert history.citations()["keyword.trample"] == ids


def test_a_version_no_engine_has_checked_is_run_instead(client: Client) -> None:
    scenario = ScenarioFactory(slug="s1")
    ScenarioVersion.objects.filter(pk=scenario.current_version_id).update(
        checked_with="", cited_rules=[], cited_rules_text="")
    assert [s.slug for s, _ in history.scenarios_citing("keyword.trample", "en")] == ["s1"]
    assert history.citations()["keyword.trample"] == [scenario.pk]
    html = client.get(reverse("quiz:rule", args=["keyword.trample"])).content.decode()
    assert reverse("quiz:history_scenario", args=["s1"]) in html


def test_a_retired_scenario_leaves_the_rule_pages() -> None:
    scenario = ScenarioFactory(slug="s1")
    Scenario.objects.filter(pk=scenario.pk).update(status=Scenario.Status.RETIRED)
    assert history.scenarios_citing("keyword.trample", "en") == []
    assert "keyword.trample" not in history.citations()
