"""The scenario document's JSON Schema: built from the engine, checked against the engine's
validator, and served publicly for authors' editors."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from engine import ERA_KEYS, KEYWORDS, EngineError, catalog, check_document
from engine.notation import ACTION_KINDS, QUERY_KINDS, TOPICS
from engine.schema import CARD_TYPES, SCHEMA_FILE, scenario_schema, schema_text
from scenarios.library import library_files, read_document
from tests.conftest import ROLES, make_user
from tests.factories import scenario_document
from tests.scenarios.test_malformed import CASES

SCHEMA = scenario_schema()
VALIDATOR = Draft202012Validator(SCHEMA)

# Cases of the malformed-document suite that are shape errors: the schema refuses them
# too, at the field the engine names or at the mapping that holds it.
SHAPE_CASES = {
    "unknown field", "wrong type", "difficulty out of range", "format version",
    "unknown topic", "unknown era", "unknown card", "unknown keyword", "action with two kinds",
    "unknown action", "unknown query", "number question with a yes/no query",
    "choice with one option", "unknown language", "missing English", "team of three",
    "negative damage assignment", "unknown card type", "too many actions", "deeply nested",
    "huge document",
}
CASES_BY_NAME = {case[0]: case for case in CASES}


def schema_errors(document: Any) -> list[ValidationError]:
    return list(VALIDATOR.iter_errors(document))


def engine_refuses(document: Any) -> bool:
    try:
        return not check_document(document).ok
    except EngineError:
        return True


def dotted(path: Any) -> str:
    """A jsonschema error path in the engine's notation: ``actions[2].assign.wurm``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def test_committed_schema_file_is_what_the_engine_builds() -> None:
    assert SCHEMA_FILE.read_text(encoding="utf-8") == schema_text(), (
        "engine/data/scenario.schema.json is stale: run `python -m engine.schema`")


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_schema_lists_come_from_the_engine() -> None:
    defs = SCHEMA["$defs"]
    assert SCHEMA["properties"]["topic"]["enum"] == list(TOPICS)
    assert defs["era"]["enum"] == list(ERA_KEYS)
    assert defs["card_slug"]["enum"] == sorted(catalog())
    assert list(defs["action"]["properties"]) == [*ACTION_KINDS, "when"]
    assert list(defs["query"]["properties"]) == list(QUERY_KINDS)
    keywords = defs["object"]["properties"]["keywords"]["items"]["anyOf"][0]["enum"]
    assert set(keywords) == KEYWORDS


def test_every_card_type_of_the_schema_is_one_the_engine_accepts() -> None:
    assert {t for card in catalog().values() for t in card.types} <= set(CARD_TYPES)
    for card_type in CARD_TYPES:
        doc = scenario_document("types")
        doc["setup"]["battlefield"][0]["types"] = [card_type]
        result = check_document(doc)
        assert not any("unknown card type" in e.message for e in result.errors), card_type


def test_the_base_document_is_valid_under_the_schema() -> None:
    assert schema_errors(scenario_document("fine")) == []


@pytest.mark.parametrize("path", library_files(), ids=lambda p: p.stem)
def test_every_library_file_is_valid_under_the_schema(path: Path) -> None:
    errors = schema_errors(read_document(path))
    assert not errors, [f"{dotted(e.absolute_path)}: {e.message}" for e in errors]


@pytest.mark.parametrize(("name", "mutate", "path", "message"), CASES,
                         ids=[c[0] for c in CASES])
def test_every_malformed_document_is_refused_by_the_schema_or_the_engine(
        name: str, mutate: Callable[[dict[str, Any]], None], path: str, message: str) -> None:
    doc = scenario_document("bad-doc")
    mutate(doc)
    assert schema_errors(copy.deepcopy(doc)) or engine_refuses(doc)


@pytest.mark.parametrize("name", sorted(SHAPE_CASES))
def test_shape_errors_are_refused_by_the_schema_where_the_engine_finds_them(name: str) -> None:
    _name, mutate, engine_path, _message = CASES_BY_NAME[name]
    doc = scenario_document("bad-doc")
    mutate(doc)
    paths = [dotted(e.absolute_path) for e in schema_errors(doc)]
    assert paths, f"the schema accepts the {name!r} document"
    assert any(engine_path.startswith(p) or p.startswith(engine_path) for p in paths), (
        engine_path, paths)


def test_a_parameter_may_stand_for_a_number_a_card_or_a_step() -> None:
    doc = scenario_document("params", params={"p": {"range": [5, 8]},
                                              "c": {"choice": ["craw-wurm", "grizzly-bears"]}})
    doc["setup"]["battlefield"][0]["power"] = "$p"
    doc["setup"]["battlefield"][2]["card"] = "$c"
    assert schema_errors(doc) == []
    doc["setup"]["battlefield"][0]["power"] = "six"
    assert [dotted(e.absolute_path) for e in schema_errors(doc)] == ["setup.battlefield[0].power"]


def test_a_question_needs_the_fields_of_its_kind() -> None:
    doc = scenario_document("kinds")
    doc["questions"][0] = {"id": "q", "kind": "eras", "ask": {"en": "When?"}}
    assert any("'claim' is a required property" in e.message for e in schema_errors(doc))


# -- served at a stable URL ------------------------------------------------------------------

@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_schema_is_served_to_everyone_as_a_cacheable_schema(role: str) -> None:
    client = Client()
    user = make_user(role)
    if user is not None:
        client.force_login(user)
    response = client.get(reverse("scenarios:schema"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/schema+json"
    assert "public" in response["Cache-Control"] and "max-age=" in response["Cache-Control"]
    assert response.content == SCHEMA_FILE.read_bytes()
    assert json.loads(response.content)["title"].startswith("Scenario document")


@pytest.mark.django_db
def test_schema_url_is_the_same_document_in_every_language(client: Client) -> None:
    bodies = set()
    for language in ("en", "it", "es"):
        with translation.override(language):
            url = reverse("scenarios:schema")
        assert url == f"/{language}/author/schema.json"
        bodies.add(client.get(url).content)
    assert len(bodies) == 1


@pytest.mark.django_db
def test_schema_answers_a_revalidation_with_304(client: Client) -> None:
    first = client.get("/en/author/schema.json")
    again = client.get("/en/author/schema.json", headers={"if-none-match": first["ETag"]})
    assert again.status_code == 304 and again.content == b""


@pytest.mark.django_db
def test_schema_url_refuses_a_post(client: Client) -> None:
    assert client.post("/en/author/schema.json").status_code == 405


def test_the_format_document_links_the_schema_with_editor_instructions() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "scenario-format.md").read_text(
        encoding="utf-8")
    with translation.override("en"):
        url = reverse("scenarios:schema")
    assert f"# yaml-language-server: $schema=https://SITE{url}" in docs
    assert '"yaml.schemas"' in docs and "engine/data/scenario.schema.json" in docs


def test_a_generator_is_valid_under_the_schema() -> None:
    """Card filters, yes/no choices, `when:` on objects, actions and questions, and a story
    written as alternatives (docs/scenario-format.md, "Generators")."""
    from tests.engine.test_generators import _doc

    doc = _doc(story=[{"when": {"blocked": True}, "en": "Bob blocks."}, {"en": "He doesn't."}])
    assert schema_errors(copy.deepcopy(doc)) == []
    doc["actions"][1]["when"] = "blocked"
    assert [dotted(e.absolute_path) for e in schema_errors(doc)] == ["actions[1].when"]
    doc["actions"][1] = {"when": {"blocked": True}}  # a `when:` and no action
    assert schema_errors(copy.deepcopy(doc))
    doc["actions"][1] = {"block": {"b": "a"}}
    doc["params"]["atk"]["card"]["colour"] = ["red"]
    assert [dotted(e.absolute_path) for e in schema_errors(doc)] == ["params.atk.card"]
