"""Validate once, reuse what is stored: the library loader skips files unchanged since this
engine loaded them, and the editors show what a version's check stored."""

from __future__ import annotations

import copy
import shutil
from io import StringIO
from pathlib import Path
from unittest import mock

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

import engine
from engine import check_document
from scenarios import services, views
from scenarios.library import dump_document, library_files, read_document
from scenarios.models import Scenario, ScenarioVersion
from scenarios.services import (
    engine_fingerprint,
    scenario_import,
    scenario_validate,
    version_check,
)
from tests.factories import InstructorFactory, scenario_document
from tests.scenarios.test_authoring import _form_post

pytestmark = pytest.mark.django_db

PREVIEW_KEYS = ("errors", "warnings", "ok", "eras", "era", "answers", "disagreements")


@pytest.fixture
def library(tmp_path: Path) -> Path:
    for slug in ("one", "two", "three"):
        (tmp_path / f"{slug}.yaml").write_text(dump_document(scenario_document(slug)),
                                               encoding="utf-8")
    return tmp_path


@pytest.fixture
def counted() -> mock.MagicMock:
    """Every check the services make, counted (and still made)."""
    with mock.patch.object(services, "check_document", wraps=check_document) as spy:
        yield spy


def load(*args: str) -> str:
    out = StringIO()
    call_command("load_scenarios", *args, stdout=out)
    return out.getvalue()


def test_reloading_an_unchanged_library_reads_no_document_and_checks_none(
        library: Path, counted: mock.MagicMock) -> None:
    assert "3 created" in load(str(library))
    assert counted.call_count == 3
    counted.reset_mock()
    with mock.patch.object(services, "read_document", wraps=read_document) as reader:
        out = load(str(library))
    assert "scenarios: 3 files: 0 created, 0 updated, 3 unchanged, 0 failed" in out
    assert counted.call_count == 0 and reader.call_count == 0
    assert ScenarioVersion.objects.count() == 3


def test_a_changed_file_is_checked_again_and_makes_a_version(
        library: Path, counted: mock.MagicMock) -> None:
    load(str(library))
    counted.reset_mock()
    (library / "two.yaml").write_text(dump_document(scenario_document("two", difficulty=4)),
                                      encoding="utf-8")
    out = load(str(library), "-v", "2")
    assert "updated: two v2" in out and "0 created, 1 updated, 2 unchanged" in out
    assert counted.call_count == 1
    version = Scenario.objects.get(slug="two").current_version
    assert version.number == 2 and version.checked_with == engine_fingerprint()


def test_new_bytes_for_the_same_document_are_checked_once_then_remembered(
        library: Path, counted: mock.MagicMock) -> None:
    load(str(library))
    path = library / "one.yaml"
    path.write_text("# a comment changes the bytes, not the document\n"
                    + path.read_text(encoding="utf-8"), encoding="utf-8")
    counted.reset_mock()
    assert "3 unchanged" in load(str(library))
    assert counted.call_count == 1
    assert "3 unchanged" in load(str(library))
    assert counted.call_count == 1
    assert ScenarioVersion.objects.filter(scenario__slug="one").count() == 1


def test_an_engine_change_checks_every_file_again_once(
        library: Path, counted: mock.MagicMock, monkeypatch: pytest.MonkeyPatch) -> None:
    load(str(library))
    counted.reset_mock()
    monkeypatch.setattr(services, "engine_fingerprint", lambda: "another engine")
    assert "0 created, 0 updated, 3 unchanged" in load(str(library))
    assert counted.call_count == 3
    assert set(ScenarioVersion.objects.values_list("checked_with", flat=True)) == {
        "another engine"}
    load(str(library))
    assert counted.call_count == 3  # the new engine's checks are stored: none again


def test_force_checks_every_file(library: Path, counted: mock.MagicMock) -> None:
    load(str(library))
    counted.reset_mock()
    assert "3 unchanged" in load(str(library), "--force")
    assert counted.call_count == 3


def test_a_draft_loaded_again_to_publish_is_checked_and_published(
        library: Path, counted: mock.MagicMock) -> None:
    load(str(library), "--draft")
    assert not Scenario.objects.published().exists()
    counted.reset_mock()
    assert "3 unchanged" in load(str(library))
    assert counted.call_count == 3
    assert Scenario.objects.published().count() == 3


def test_other_answers_from_a_new_engine_are_never_stored_on_a_published_version(
        library: Path, counted: mock.MagicMock, monkeypatch: pytest.MonkeyPatch) -> None:
    load(str(library))
    version = Scenario.objects.get(slug="one").current_version
    stored = {**version.answer_keys, "m10-2009": {"life": 17}}
    ScenarioVersion.objects.filter(pk=version.pk).update(answer_keys=stored, checked_with="")
    counted.reset_mock()
    for _ in range(2):  # not trusted, so checked on every load, as before anything was stored
        assert "3 unchanged" in load(str(library))
    assert counted.call_count == 2
    version.refresh_from_db()
    assert version.answer_keys == stored and version.checked_with == ""


def test_the_loader_backfills_versions_no_engine_has_checked(
        library: Path, counted: mock.MagicMock) -> None:
    draft = scenario_import(document=scenario_document("drafted"), publish=False).version
    ScenarioVersion.objects.filter(pk=draft.pk).update(checked_with="", cited_rules=[],
                                                       cited_rules_text="")
    load(str(library))
    draft.refresh_from_db()
    assert draft.checked_with == engine_fingerprint()
    assert "pw.damage-removes-loyalty" in draft.cited_rules


def test_a_version_stores_what_its_check_found() -> None:
    document = scenario_document("s1")
    version = scenario_import(document=copy.deepcopy(document)).version
    report = scenario_validate(document=document)
    assert version.checked_with == engine_fingerprint()
    assert version.cited_rules == report.cited_rules and report.cited_rules
    assert version.cited_rules_text == "," + ",".join(report.cited_rules) + ","
    assert version_check(version=version) == services.StoredCheck(
        report.errors, report.warnings, list(report.check.eras), report.check.answers,
        report.check.disagreements)


def test_the_engine_fingerprint_covers_the_engine_files(tmp_path: Path) -> None:
    fingerprint = services._fingerprint()  # the engine's files now (the test run's is older)
    assert len(fingerprint) == 64 and len(engine_fingerprint()) == 64
    with mock.patch.object(services, "CHECK_FORMAT", services.CHECK_FORMAT + 1):
        assert services._fingerprint() != fingerprint
    copy_of_engine = tmp_path / "engine"
    shutil.copytree(Path(engine.__file__).parent, copy_of_engine,
                    ignore=shutil.ignore_patterns("__pycache__"))
    with mock.patch.object(engine, "__file__", str(copy_of_engine / "__init__.py")):
        assert services._fingerprint() == fingerprint
        rules = next(copy_of_engine.rglob("*.yaml"))
        rules.write_text(rules.read_text(encoding="utf-8") + "\n", encoding="utf-8")
        assert services._fingerprint() != fingerprint


# -- the editors -----------------------------------------------------------------------------

@pytest.fixture
def instructor_client() -> Client:
    client = Client()
    client.force_login(InstructorFactory())
    return client


def _draft_with_warnings() -> ScenarioVersion:
    document = scenario_document("s1")
    del document["title"]["it"]
    document["questions"][0]["expect"] = {"m10-2009": 20, "lrw-2007": 3}
    return scenario_import(document=document, publish=False).version


def _checked_now(editor: str, **query: str) -> dict:
    """The preview as the view built it before anything was stored: the YAML text of the
    latest version read and checked."""
    version = Scenario.objects.get(slug="s1").latest_version()
    context = views._preview_context(dump_document(version.document), query.get("era"), "en")
    if editor == "form":
        for item in [*context["errors"], *context["warnings"]]:
            item["line"] = None
    return context


@pytest.mark.parametrize("editor", ["edit", "form"])
def test_an_editor_shows_the_stored_check_without_checking(
        instructor_client: Client, editor: str) -> None:
    version = _draft_with_warnings()
    before = _checked_now(editor)
    assert before["warnings"] and before["disagreements"]
    with mock.patch.object(views, "check_document", side_effect=AssertionError), \
            mock.patch.object(services, "check_document", side_effect=AssertionError):
        response = instructor_client.get(reverse(f"scenarios:{editor}", args=["s1"]))
    assert response.status_code == 200
    for key in PREVIEW_KEYS:
        got, expected = response.context[key], before[key]
        if key == "warnings":  # the same, in the stored document's order of keys
            got, expected = sorted(got, key=str), sorted(expected, key=str)
        assert got == expected, key
    assert any(w["line"] for w in response.context["warnings"]) == (editor == "edit")
    assert version.warnings and "trace-steps" in response.content.decode()


def test_an_editor_checks_a_version_no_engine_has_checked_then_stores_it(
        instructor_client: Client) -> None:
    version = _draft_with_warnings()
    before = _checked_now("edit", era="lrw-2007")
    ScenarioVersion.objects.filter(pk=version.pk).update(checked_with="", warnings=[],
                                                         disagreements=[])
    url = reverse("scenarios:edit", args=["s1"]) + "?era=lrw-2007"
    response = instructor_client.get(url)
    for key in PREVIEW_KEYS:
        assert response.context[key] == before[key], key
    version.refresh_from_db()
    assert version.checked_with == engine_fingerprint() and version.warnings
    with mock.patch.object(services, "check_document", side_effect=AssertionError):
        assert instructor_client.get(url).context["warnings"] == before["warnings"]


@pytest.mark.parametrize("path", library_files()[::6], ids=lambda p: p.stem)
def test_a_library_version_shows_what_a_fresh_check_shows(path: Path) -> None:
    """A sample of the library (every sixth file): stored and fresh previews agree."""
    version = scenario_import(document=read_document(path)).version
    source = dump_document(version.document)
    stored = views._version_preview(version, None, "en", source)
    fresh = views._preview_context(source, None, "en")
    for key in PREVIEW_KEYS:
        assert stored[key] == fresh[key], key


def test_the_form_preview_checks_the_composed_document_not_a_yaml_text(
        instructor_client: Client) -> None:
    document = scenario_document("s1")
    del document["title"]["es"]
    scenario_import(document=copy.deepcopy(document), publish=False)
    before = views._preview_context(dump_document(document), None, "en")
    with mock.patch.object(views.editing, "read_source", side_effect=AssertionError), \
            mock.patch.object(views, "dump_document", side_effect=AssertionError):
        response = instructor_client.post(reverse("scenarios:form_preview", args=["s1"]),
                                          _form_post(document))
    assert response.status_code == 200 and "trace-steps" in response.content.decode()
    for key in PREVIEW_KEYS:
        expected = before[key]
        got = response.context[key]
        if key == "warnings":  # the same, in the composed document's order of keys
            expected = sorted(({**w, "line": None} for w in expected), key=str)
            got = sorted(got, key=str)
        assert got == expected, key
