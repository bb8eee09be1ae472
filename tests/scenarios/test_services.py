"""Importing, versioning, publishing, exporting and re-checking scenarios."""

from __future__ import annotations

import copy
from io import StringIO
from pathlib import Path

import pytest
import yaml
from django.core.management import CommandError, call_command

from scenarios.library import dump_document, library_files, read_document
from scenarios.models import ImmutableVersionError, Scenario, ScenarioVersion
from scenarios.services import (
    NotPublishable,
    ScenarioInvalid,
    scenario_export,
    scenario_import,
    scenario_publish,
    scenario_retire,
    scenarios_recheck,
)
from tests.factories import ScenarioFactory, scenario_document

pytestmark = pytest.mark.django_db


def test_import_creates_a_published_version_with_answer_keys() -> None:
    result = scenario_import(document=scenario_document("s1"))
    assert result.outcome == "created"
    version = result.version
    assert version.number == 1 and version.is_published
    assert result.scenario.current_version == version
    assert result.scenario.status == Scenario.Status.PUBLISHED
    assert version.answer_keys["m10-2009"] == {"life": 20}
    assert "lrw-2007" in version.eras and ",fdn-2024," in version.eras_text


def test_importing_the_same_document_again_adds_nothing() -> None:
    scenario_import(document=scenario_document("s1"))
    again = scenario_import(document=scenario_document("s1"))
    assert again.outcome == "unchanged"
    assert ScenarioVersion.objects.count() == 1


def test_an_edit_makes_a_new_version_and_the_old_one_stays() -> None:
    first = scenario_import(document=scenario_document("s1")).version
    edited = scenario_document("s1", difficulty=3)
    second = scenario_import(document=edited)
    assert second.outcome == "updated" and second.version.number == 2
    first.refresh_from_db()
    assert first.document["difficulty"] == 2
    assert Scenario.objects.get(slug="s1").current_version == second.version


def test_a_published_version_never_changes() -> None:
    version = scenario_import(document=scenario_document("s1")).version
    version.document = scenario_document("s1", difficulty=5)
    with pytest.raises(ImmutableVersionError):
        version.save()
    with pytest.raises(ImmutableVersionError):
        ScenarioVersion.objects.get(pk=version.pk).delete()


def test_an_invalid_document_writes_nothing() -> None:
    bad = scenario_document("s1")
    bad["actions"][1] = {"block": {"garruk": "wurm"}}
    with pytest.raises(ScenarioInvalid) as info:
        scenario_import(document=bad)
    assert info.value.report.errors[0]["path"] == "actions[1].block.garruk"
    assert not Scenario.objects.exists() and not ScenarioVersion.objects.exists()


def test_drafts_without_translations_are_kept_but_not_publishable() -> None:
    doc = scenario_document("s1")
    del doc["title"]["it"]
    with pytest.raises(NotPublishable):
        scenario_import(document=doc)
    assert not Scenario.objects.exists()
    draft = scenario_import(document=doc, publish=False)
    assert draft.version.published_at is None
    assert draft.scenario.status == Scenario.Status.DRAFT
    with pytest.raises(NotPublishable) as info:
        scenario_publish(scenario=draft.scenario, version=draft.version)
    assert "title.it" in str(info.value)


def test_a_disagreement_with_expect_blocks_publishing() -> None:
    doc = scenario_document("s1")
    doc["questions"][0]["expect"] = 14
    with pytest.raises(NotPublishable) as info:
        scenario_import(document=doc)
    assert "expect 14, engine 20" in str(info.value)


def test_retired_scenarios_leave_the_published_queryset() -> None:
    scenario = ScenarioFactory()
    assert Scenario.objects.published().filter(pk=scenario.pk).exists()
    scenario_retire(scenario=scenario)
    assert not Scenario.objects.published().filter(pk=scenario.pk).exists()
    assert scenario.versions.count() == 1


def test_queryset_filters() -> None:
    a = ScenarioFactory(slug="a")
    ScenarioFactory(slug="b", document=scenario_document("b", topic="loyalty", difficulty=4))
    assert list(Scenario.objects.published().by_topic("trample-into-planeswalkers")) == [a]
    assert Scenario.objects.in_era("m14-2013").count() == 2
    assert list(Scenario.objects.difficulty_between(1, 2)) == [a]


def test_export_gives_the_document_back() -> None:
    doc = scenario_document("s1")
    scenario = scenario_import(document=copy.deepcopy(doc)).scenario
    assert scenario_export(scenario=scenario) == doc


def test_recheck_reports_changed_answer_keys() -> None:
    version = scenario_import(document=scenario_document("s1")).version
    assert scenarios_recheck() == []
    ScenarioVersion.objects.filter(pk=version.pk).update(
        answer_keys={**version.answer_keys, "m10-2009": {"life": 17}})
    changes = scenarios_recheck()
    assert [(c.scenario, c.era, c.question, c.stored, c.now) for c in changes] == [
        ("s1", "m10-2009", "life", 17, 20)]
    with pytest.raises(CommandError):
        call_command("recheck_scenarios", stdout=StringIO())


def test_load_scenarios_is_idempotent_and_reports_bad_files(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text(dump_document(scenario_document("good")), encoding="utf-8")
    bad_doc = scenario_document("bad")
    bad_doc["setup"]["battlefield"][1]["card"] = "garruk-wildspeakr"
    (tmp_path / "bad.yaml").write_text(dump_document(bad_doc), encoding="utf-8")
    out, err = StringIO(), StringIO()
    with pytest.raises(CommandError):
        call_command("load_scenarios", str(tmp_path), stdout=out, stderr=err)
    assert "setup.battlefield[1].card: unknown card 'garruk-wildspeakr'" in err.getvalue()
    assert list(Scenario.objects.values_list("slug", flat=True)) == ["good"]
    good.unlink()
    (tmp_path / "bad.yaml").unlink()
    call_command("load_scenarios", str(tmp_path), stdout=StringIO())
    assert Scenario.objects.count() == 1


def test_every_library_file_round_trips_through_import_and_export(tmp_path: Path) -> None:
    call_command("load_scenarios", stdout=StringIO())
    call_command("export_scenarios", "--out", str(tmp_path), stdout=StringIO())
    for path in library_files():
        original = read_document(path)
        exported = yaml.safe_load((tmp_path / original["topic"] / path.name).read_text(
            encoding="utf-8"))
        assert exported == original, path
    out = StringIO()
    call_command("load_scenarios", stdout=out)
    assert "0 created, 0 updated" in out.getvalue()
