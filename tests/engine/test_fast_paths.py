"""The engine's fast paths agree with the careful ones they stand in for: the one-pass
document scan with the walk that names each problem at its path, a document without
parameters built without the substitution copy, and state values whose fields are read
from the instance alone (issue 14's speed work)."""

from __future__ import annotations

import copy
import math
from dataclasses import MISSING, fields
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import state as st_mod
from engine.errors import DocumentError, EngineError
from engine.notation import MAX_DEPTH, MAX_NODES, MAX_TEXT, _check_size, _scan, parse
from engine.runner import run_all
from tests.factories import scenario_document

# Keys and texts drawn to hit every refused kind of character, a `$`, and plain text.
TEXT = st.text(alphabet=st.sampled_from(
    ["a", "b", " ", "\n", "\t", "$", "é", "\x00", "\x1b", "\x85", "\u202e", "\u200e",
     "\ud800", "ä", "{", "}"]), max_size=6)
LEAVES = (TEXT | st.integers() | st.booleans() | st.none()
          | st.floats(allow_nan=True, allow_infinity=True))
DOCS = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(TEXT, inner, max_size=4), max_leaves=40)


def _careful(doc: Any) -> list[str]:
    problems: list[Any] = []
    try:
        _check_size(doc, "", problems=problems)
    except DocumentError as err:
        return [i.message for i in err.items]
    return [p.message for p in problems]


@settings(max_examples=400, deadline=None)
@given(doc=DOCS)
def test_the_one_pass_scan_says_clean_only_when_the_careful_walk_finds_nothing(
        doc: Any) -> None:
    clean, dollars = _scan({"doc": doc})
    assert clean == (not _careful({"doc": doc}))
    texts: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, str):
            texts.append(node)
        elif isinstance(node, dict):
            for k, v in node.items():
                texts.append(k)
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(doc)
    # (a refused document stops the scan early and answers "maybe" for the `$`)
    assert dollars == any("$" in t for t in texts) or not clean


@pytest.mark.parametrize(("doc", "found"), [
    ({"a": "x" * (MAX_TEXT + 1)}, "text longer than"),
    ({"a": [1] * MAX_NODES}, "too large"),
    ({"a": math.inf}, "finite"),
    ({"a\u202e": 1}, "bidirectional"),
])
def test_a_refused_document_gets_the_careful_walks_message_at_its_path(
        doc: dict[str, Any], found: str) -> None:
    assert not _scan(doc)[0]
    with pytest.raises(DocumentError) as info:
        parse({**scenario_document(), **{"story": {"en": "x"}}, "explain": doc})
    assert found in str(info.value)
    assert any(i.path.startswith("explain") for i in info.value.items)


def test_depth_past_the_cap_is_refused_by_both() -> None:
    deep: Any = "x"
    for _ in range(MAX_DEPTH + 1):
        deep = {"n": deep}
    assert not _scan(deep)[0]
    assert "nested too deeply" in _careful(deep)[0]


def test_a_subclass_of_dict_takes_the_careful_walk() -> None:
    class Odd(dict[str, Any]):
        pass
    assert _scan({"a": Odd(b="\x00")}) == (False, True)
    assert "control character" in _careful({"a": Odd(b="\x00")})[0]


def test_a_document_without_parameters_is_built_from_itself() -> None:
    doc = scenario_document()
    scenario = parse(doc)
    assert scenario.literal
    assert run_all(scenario)["m14-2013"].as_json() == run_all(
        parse(copy.deepcopy(doc)))["m14-2013"].as_json()


def test_a_dollar_in_a_text_keeps_the_substitution() -> None:
    doc = scenario_document()
    doc["story"] = {"en": "It costs $5 to enter."}
    assert not parse(doc).literal
    doc["setup"]["players"][1]["life"] = "$life"  # a reference with no parameter
    with pytest.raises(EngineError, match=r"unknown parameter \$life"):
        parse(doc)


def test_parameters_keep_the_substitution() -> None:
    doc = scenario_document()
    doc["params"] = {"life": {"range": [5, 7]}}
    doc["setup"]["players"][1]["life"] = "$life"
    scenario = parse(doc)
    assert not scenario.literal
    assert {scenario.variant(s).state.players["bob"].life for s in range(40)} == {5, 6, 7}


@pytest.mark.parametrize("cls", [st_mod.Player, st_mod.Team, st_mod.Obj, st_mod.Turn,
                                 st_mod.PendingDamage, st_mod.Combat, st_mod.Planechase,
                                 st_mod.GameState])
def test_state_fields_live_on_the_instance_with_their_defaults_kept(cls: type) -> None:
    for f in fields(cls):
        assert f.name not in cls.__dict__, f"{cls.__name__}.{f.name} is a class attribute"
    required = {f.name: None for f in fields(cls)
                if f.default is MISSING and f.default_factory is MISSING}
    made = cls(**required)
    for f in fields(cls):
        if f.default is not MISSING:
            assert getattr(made, f.name) == f.default


def test_make_obj_keeps_the_field_order_and_every_default() -> None:
    obj = st_mod.make_obj(zone="hand", id="x", name={"en": "X"}, types=frozenset(),
                          controller="a", owner="a")
    assert list(obj.__dict__) == [f.name for f in fields(st_mod.Obj)]
    assert obj == st_mod.Obj(id="x", name={"en": "X"}, types=frozenset(), controller="a",
                             owner="a", zone="hand")
    assert list(st_mod.evolve(obj, damage=2).__dict__) == list(obj.__dict__)


def test_at_the_caps_both_say_clean() -> None:
    at_cap = {"a": [1] * (MAX_NODES - 2)}  # the mapping, the list and its values
    assert _scan(at_cap)[0] and not _careful(at_cap)
    deep: Any = "x"
    for _ in range(MAX_DEPTH):
        deep = {"n": deep}
    assert _scan(deep)[0] and not _careful(deep)
