"""The action and query kinds' registry: one module per kind, and every other place (the
parser, the runner, the JSON Schema, the docs, the form editor) agrees with it."""

from __future__ import annotations

import dataclasses
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.kinds.actions import ACTION_KINDS, ACTIONS, DECLARATIONS, QUIET_ACTIONS
from engine.kinds.queries import QUERIES, QUERY_KINDS
from engine.notation import parse
from engine.reader import load_document
from engine.schema import scenario_schema

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ROOT / "scenarios" / "library"
CASES = Path(__file__).with_name("cases")
FORMAT_DOC = ROOT / "docs" / "scenario-format.md"
FIELD_TYPES = {"id", "list", "pairs", "int", "bool", "choice"}


@cache
def library_documents() -> tuple[dict[str, Any], ...]:
    return tuple(load_document(str(path)) for path in sorted(LIBRARY.rglob("*.yaml")))


@cache
def document_actions() -> tuple[tuple[str, Any], ...]:
    """Every action of the library, then of the engine's case corpus: (kind, args)."""
    out = [next(iter(action.items()))
           for document in library_documents() for action in document["actions"]]
    for path in sorted(CASES.glob("*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]:
            out += [next(iter(action.items())) for action in case.get("actions", [])]
    return tuple(out)


@pytest.mark.parametrize("kind", ACTION_KINDS)
def test_every_action_kind_is_one_module_with_a_whole_spec(kind: str) -> None:
    spec = ACTIONS[kind]
    assert spec.name == kind
    assert spec.parse.__module__ == f"engine.kinds.actions.{kind}"
    assert spec.perform.__module__ == f"engine.kinds.actions.{kind}"
    assert callable(spec.schema) and spec.schema()["description"]
    names = [f.name for f in spec.editor.fields]
    assert len(names) == len(set(names))
    assert {f.type for f in spec.editor.fields} <= FIELD_TYPES
    assert all(f.label.strip() for f in spec.editor.fields)
    assert all(f.choices for f in spec.editor.fields if f.type == "choice")
    if kind not in ("next_turn", "planeswalk"):  # the two that take {}
        assert spec.editor.fields


@pytest.mark.parametrize("kind", list(QUERY_KINDS))
def test_every_query_kind_is_one_module_with_a_whole_spec(kind: str) -> None:
    spec = QUERIES[kind]
    assert spec.name == kind
    assert spec.parse.__module__ == f"engine.kinds.queries.{kind}"
    assert spec.answer.__module__ == f"engine.kinds.queries.{kind}"
    assert spec.value_type in ("int", "bool", "str", "list")
    assert callable(spec.schema) and spec.schema()["description"]


def test_the_runner_sets_come_from_the_specs() -> None:
    assert QUIET_ACTIONS == {"attack", "block", "order", "assign", "choose", "prevent"}
    assert DECLARATIONS == {"attack", "block", "order"}


def test_the_schema_describes_exactly_the_registered_kinds_in_order() -> None:
    defs = scenario_schema()["$defs"]
    # ... and `when:` (docs/scenario-format.md, "Generators") after them
    assert list(defs["action"]["properties"]) == [*ACTION_KINDS, "when"]
    assert defs["action"]["propertyNames"]["enum"] == [*ACTION_KINDS, "when"]
    assert list(defs["query"]["properties"]) == list(QUERY_KINDS)
    assert defs["query"]["propertyNames"]["enum"] == list(QUERY_KINDS)


def test_every_kind_is_documented_in_the_format() -> None:
    doc = FORMAT_DOC.read_text(encoding="utf-8")
    for kind in ACTION_KINDS:
        assert re.search(rf"`{kind}(:|`)", doc), f"action `{kind}` is not in {FORMAT_DOC.name}"
    for kind in QUERY_KINDS:
        assert f"{{{kind}:" in doc, f"query `{kind}` is not in {FORMAT_DOC.name}"


@pytest.mark.parametrize("kind", ACTION_KINDS)
def test_a_document_action_of_each_kind_round_trips_through_its_editor(kind: str) -> None:
    editor = ACTIONS[kind].editor
    examples = [args for k, args in document_actions() if k == kind]
    assert examples, f"no library or case action of kind {kind}"
    fitting = [args for args in examples if editor.initial(args) is not None]
    assert fitting, f"no {kind} action fits its editor's fields"
    args = fitting[0]
    initial = editor.from_args(args)
    assert initial is not None
    assert set(initial) == {f.name for f in editor.fields}
    assert editor.to_args(initial) == (args if args is not None else {})


def test_parsed_actions_and_queries_hold_their_kinds_typed_frozen_values() -> None:
    kinds_seen: set[str] = set()
    for document in library_documents():
        variant = parse(document).variant(0)
        values: list[tuple[str, Any]] = [(a.kind, a.value) for a in variant.actions]
        for q in variant.questions:
            claims = [o.claim for o in q.options] + ([q.claim] if q.claim else [])
            queries = [q.query] if q.query else [c.query for c in claims]
            values += [(f"query:{query.kind}", query.value) for query in queries]
        for kind, value in values:
            kinds_seen.add(kind)
            assert dataclasses.is_dataclass(value), (kind, value)
            assert type(value).__dataclass_params__.frozen, kind
            assert hasattr(type(value), "__slots__"), kind
            for f in dataclasses.fields(value):
                with pytest.raises(dataclasses.FrozenInstanceError):
                    setattr(value, f.name, None)
    assert len(kinds_seen) > 20
