"""What a version stores about itself for the public pages (question ids, titles, the eras
whose answers differ from the era before): kept on every save, filled by versions_refresh
and load_scenarios for rows saved before, made again when another engine checked them;
and the library's stamp that keys the per-process copies of those pages."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from engine import ERA_KEYS
from scenarios.models import FACT_FIELDS, Scenario, ScenarioVersion, version_facts
from scenarios.services import scenario_import, scenario_load, scenario_retire, versions_refresh
from tests.factories import ScenarioFactory, scenario_document

pytestmark = pytest.mark.django_db

CHANGING = "trample-into-planeswalkers/warhammer-nighthawk-deathtouch.yaml"


def changed_by_comparing(answer_keys: dict) -> list[str]:
    """Each era whose answers differ from those of the era just before it."""
    return [era for before, era in zip(ERA_KEYS, ERA_KEYS[1:], strict=False)
            if before in answer_keys and era in answer_keys
            and answer_keys[before] != answer_keys[era]]


def stored_facts(version: ScenarioVersion) -> dict:
    version.refresh_from_db()
    return {name: getattr(version, name) for name in FACT_FIELDS}


def test_a_version_stores_its_question_ids_titles_and_changed_eras() -> None:
    from scenarios.library import LIBRARY

    version = scenario_load(path=LIBRARY / CHANGING).version
    assert stored_facts(version) == {
        "questions": [q["id"] for q in version.document["questions"]],
        "titles": version.document["title"],
        "changed_in": changed_by_comparing(version.answer_keys),
    }
    assert version.changed_in  # this scenario's answers do change


def test_a_scenario_whose_answers_never_change_changed_in_no_era() -> None:
    document = scenario_document("same-everywhere")
    document["questions"].append(dict(document["questions"][0], id="again"))
    version = ScenarioFactory(slug="same-everywhere", document=document).current_version
    assert stored_facts(version) == {"questions": ["life", "again"],
                                     "titles": document["title"], "changed_in": []}


def test_rows_saved_before_facts_were_kept_are_filled_by_versions_refresh() -> None:
    scenario = ScenarioFactory(slug="s1")
    newer = scenario_import(document=scenario_document("s1", difficulty=3), publish=False)
    draft = ScenarioFactory(slug="draft", publish=False).latest_version()
    ScenarioVersion.objects.update(**dict.fromkeys(FACT_FIELDS))
    versions_refresh(skip=ScenarioVersion.objects.values_list("pk", flat=True))
    for version in (scenario.current_version, newer.version, draft):
        assert stored_facts(version) == version_facts(version.document, version.answer_keys)
        assert version.has_facts


def test_load_scenarios_fills_the_facts_of_files_it_finds_unchanged() -> None:
    from scenarios.library import LIBRARY

    path = str(LIBRARY / CHANGING)
    call_command("load_scenarios", path, stdout=StringIO())
    ScenarioVersion.objects.update(**dict.fromkeys(FACT_FIELDS))
    out = StringIO()
    call_command("load_scenarios", path, stdout=out)
    assert "1 unchanged" in out.getvalue()
    version = Scenario.objects.get().current_version
    assert stored_facts(version) == version_facts(version.document, version.answer_keys)


def test_facts_stored_under_another_engine_are_made_again() -> None:
    version = ScenarioFactory(slug="s1").current_version
    ScenarioVersion.objects.filter(pk=version.pk).update(
        checked_with="an older engine", changed_in=["lrw-2007"], titles={"en": "stale"})
    versions_refresh()
    assert stored_facts(version) == version_facts(version.document, version.answer_keys)


def test_the_library_stamp_changes_with_every_publish_and_retirement() -> None:
    stamps = [Scenario.objects.published_stamp()]
    first = ScenarioFactory(slug="s1")
    stamps.append(Scenario.objects.published_stamp())
    assert Scenario.objects.published_stamp() == stamps[-1]  # reading changes nothing
    ScenarioFactory(slug="s2")
    stamps.append(Scenario.objects.published_stamp())
    scenario_import(document=scenario_document("s1", difficulty=4))  # a new version
    stamps.append(Scenario.objects.published_stamp())
    scenario_retire(scenario=first)
    stamps.append(Scenario.objects.published_stamp())
    ScenarioFactory(slug="draft", publish=False)
    assert Scenario.objects.published_stamp() == stamps[-1]  # drafts are not listed
    assert len(set(stamps)) == len(stamps)
