"""Every authoring URL that reads YAML goes through the one reader: an alias bomb and
documents over the caps get a clear refusal, never a 500, and nothing is written. One size
limit, said once. (The time these requests take is in tests/bench/authoring_bench.py.)"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from engine import MAX_DOCUMENT_BYTES
from scenarios.library import dump_document
from scenarios.models import Scenario, ScenarioVersion
from tests.bench.authoring_bench import alias_bomb, at_caps_document
from tests.factories import InstructorFactory, ScenarioFactory, scenario_document
from tests.scenarios.test_authoring import _form_post, _submitted

pytestmark = pytest.mark.django_db

ANCHORS = "anchors and aliases (&name, *name) are not allowed in a scenario document"


def _source(extra: str = "", **overrides: Any) -> str:
    return dump_document(scenario_document("s1", **overrides)) + extra


# A document text past each cap, and what the reader says of it.
HOSTILE: list[tuple[str, Callable[[], str], str]] = [
    ("alias bomb", alias_bomb, ANCHORS),
    ("a second id", lambda: _source("id: another-scenario\n"), '"id" given twice'),
    ("over the size limit", lambda: _source("#" * MAX_DOCUMENT_BYTES),
     "the document is larger than 256 KB"),
    ("too deep", lambda: _source("params: " + "[" * 30 + "]" * 30 + "\n"),
     "the document is nested too deeply (more than 12 levels)"),
    ("too many values", lambda: _source("params: [" + ", ".join(["1"] * 4001) + "]\n"),
     "the document is too large (more than 4000 values)"),
    ("a NUL", lambda: _source().replace("Alice attacks.", "Alice\x00attacks."),
     "a control character U+0000 is not allowed in a scenario document"),
]

# One YAML value for a form field: nine levels of nine aliases (387 million strings).
VALUE_BOMB = "{" + ", ".join(
    [f"a0: &a0 [{', '.join(['lol'] * 9)}]"]
    + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 9)]) + "}"


@pytest.fixture
def client() -> Client:
    client = Client()
    client.force_login(InstructorFactory())
    return client


@pytest.fixture
def existing() -> Scenario:
    return ScenarioFactory(slug="s1", document=scenario_document("s1"))


def _page(response: Any) -> str:
    assert response.status_code == 200, response.status_code
    return html.unescape(response.content.decode())


@pytest.mark.parametrize(("name", "text", "message"), HOSTILE, ids=[c[0] for c in HOSTILE])
@pytest.mark.parametrize("url", ["preview", "new", "edit"])
def test_the_yaml_editor_and_its_preview_refuse_a_hostile_document_clearly(
        client: Client, existing: Scenario, url: str, name: str, text: Callable[[], str],
        message: str) -> None:
    versions = ScenarioVersion.objects.count()
    args = ["s1"] if url == "edit" else []
    page = _page(client.post(reverse(f"scenarios:{url}", args=args),
                             {"source": text(), "action": "save"}))
    assert message in page
    assert ScenarioVersion.objects.count() == versions


@pytest.mark.parametrize(("name", "text", "message"), HOSTILE, ids=[c[0] for c in HOSTILE])
def test_import_refuses_a_hostile_file_clearly(client: Client, name: str,
                                               text: Callable[[], str], message: str) -> None:
    upload = SimpleUploadedFile("hostile.yaml", text().encode("utf-8"))
    page = _page(client.post(reverse("scenarios:import"), {"files": [upload]}))
    assert "not imported" in page and message.removeprefix("the document is ") in page
    assert not Scenario.objects.exists()


def test_import_gives_the_one_size_limit() -> None:
    client = Client()
    client.force_login(InstructorFactory())
    page = _page(client.get(reverse("scenarios:import")))
    assert "(256 KB each at most)" in page
    big = SimpleUploadedFile("big.yaml", b"#" * (MAX_DOCUMENT_BYTES + 1))
    assert "larger than 256 KB" in _page(client.post(reverse("scenarios:import"),
                                                     {"files": [big]}))


@pytest.mark.parametrize(("field", "value", "message"), [
    ("questions-0-answer", VALUE_BOMB, ANCHORS),
    ("questions-0-expect", "[" * 30 + "]" * 30, "nested too deeply"),
    ("questions-0-answer", "{life: bob, life: alice}", '"life" given twice'),
])
@pytest.mark.parametrize("url", ["form", "form_preview"])
def test_the_form_editor_reads_its_yaml_fields_through_the_reader(
        client: Client, existing: Scenario, url: str, field: str, value: str,
        message: str) -> None:
    data = _form_post(scenario_document("s1"))
    data[field] = value
    page = _page(client.post(reverse(f"scenarios:{url}", args=["s1"]), data))
    assert message in page
    assert ScenarioVersion.objects.count() == 1


@pytest.mark.parametrize("url", ["form_new", "form_new_preview"])
def test_a_new_scenario_in_the_form_editor_refuses_an_alias_bomb(client: Client,
                                                                  url: str) -> None:
    data = _submitted(client.get(reverse("scenarios:form_new")).content.decode())
    data["questions-0-answer"] = [VALUE_BOMB]
    page = _page(client.post(reverse(f"scenarios:{url}"), data))
    assert ANCHORS in page
    assert not Scenario.objects.exists()


def test_the_advanced_action_field_refuses_an_alias_bomb(client: Client,
                                                         existing: Scenario) -> None:
    data = _form_post(scenario_document("s1"))
    data.update({"actions-0-advanced": "1", "actions-0-details": VALUE_BOMB})
    page = _page(client.post(reverse("scenarios:form_preview", args=["s1"]), data))
    assert ANCHORS in page


def test_a_document_at_the_caps_gets_a_preview_not_an_error_page(client: Client) -> None:
    source = dump_document(at_caps_document())
    assert MAX_DOCUMENT_BYTES - 10 * 1024 < len(source.encode()) <= MAX_DOCUMENT_BYTES
    page = _page(client.post(reverse("scenarios:preview"), {"source": source}))
    assert "larger than" not in page and "too large" not in page


def test_the_preview_reads_the_document_once(client: Client, monkeypatch: Any) -> None:
    from scenarios import editing

    reads: list[str] = []
    real = editing.read_text

    def counting(text: str, **kwargs: Any) -> Any:
        reads.append(text)
        return real(text, **kwargs)

    monkeypatch.setattr(editing, "read_text", counting)
    client.post(reverse("scenarios:preview"), {"source": _source()})
    assert len(reads) == 1


# -- one size limit, said once -----------------------------------------------------------------

def _files(pattern: str) -> list[Path]:
    base = Path(settings.BASE_DIR)
    return [p for top in ("engine", "scenarios", "quiz", "config", "templates", "docs")
            for p in (base / top).rglob(pattern)]


def test_the_size_limit_is_one_constant() -> None:
    found = [(p.name, m) for p in _files("*.py") + _files("*.html")
             for m in re.findall(r"\d+\s*\*\s*1024|\b\d+ ?KB each", p.read_text("utf-8"))]
    assert found == [("reader.py", "256 * 1024")]
    for name in ("MAX_UPLOAD_BYTES", "MAX_SOURCE", "MAX_FILE_BYTES"):
        assert not [p for p in _files("*.py") if name in p.read_text("utf-8")], name


def test_the_documentation_states_the_same_size_limit() -> None:
    docs = (Path(settings.BASE_DIR) / "docs" / "scenario-format.md").read_text("utf-8")
    sizes = set(re.findall(r"(\d+) KB", docs))
    assert sizes == {str(MAX_DOCUMENT_BYTES // 1024)}


def test_the_apps_read_yaml_only_through_the_reader() -> None:
    base = Path(settings.BASE_DIR)
    offenders = [str(p.relative_to(base)) for top in ("scenarios", "quiz", "config")
                 for p in (base / top).rglob("*.py")
                 if re.search(r"yaml\.(safe_)?load|yaml\.compose", p.read_text("utf-8"))]
    assert offenders == []
