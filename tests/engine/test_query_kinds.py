"""The `tapped`, `types` and `count` queries: answers in a whole document in every era, a
clear error at its path for each malformed argument (never a crash), the JSON Schema, and
an object that never entered the game."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from engine import DocumentError, EngineError, check_document, find_era
from engine.errors import Errors
from engine.kinds.queries import parse_query
from engine.notation import parse
from engine.queries import answer
from engine.schema import scenario_schema

DEMO = yaml.safe_load("""
format: 1
id: tapped-types-count
topic: loyalty
difficulty: 1
title: {en: "Tapped, types and count"}
setup:
  turn: {active: alice, step: main1, number: 3}
  players: [{id: alice, life: 20}, {id: bob, life: 20}]
  battlefield:
    - {id: bears, controller: alice, types: [creature], power: 2, toughness: 2}
    - {id: knight, controller: alice, types: [creature], power: 2, toughness: 2,
       keywords: [vigilance]}
    - {id: golem, controller: alice, types: [artifact, creature], power: 3, toughness: 3}
    - {id: pw, controller: bob, types: [planeswalker], subtypes: [Jace], loyalty: 3,
       counters: {loyalty: 3}}
  graveyard:
    - {id: bolt, controller: bob, types: [instant]}
actions:
  - attack: {bears: bob, knight: pw}
  - enter: {id: wall, controller: bob, types: [artifact, creature], power: 0, toughness: 4}
questions:
  - {id: bears-tapped, kind: yesno, ask: {en: "Tapped?"}, answer: {tapped: bears},
     expect: true}
  - {id: knight-tapped, kind: yesno, ask: {en: "Tapped?"}, answer: {tapped: knight},
     expect: false}
  - {id: artifact-creatures, kind: number, ask: {en: "How many?"},
     answer: {count: {zone: battlefield, types: [creature, artifact]}}, expect: 2}
  - {id: alice-objects, kind: number, ask: {en: "How many?"},
     answer: {count: {controller: alice}}, expect: 3}
  - {id: everything, kind: number, ask: {en: "How many?"}, answer: {count: {}}, expect: 6}
  - id: what-is-true
    kind: multi
    ask: {en: "Which are true?"}
    options:
      - {id: golem-types, text: {en: "An artifact creature."},
         claim: {query: {types: golem}, is: [creature, artifact]}}
      - {id: bolt-types, text: {en: "A sorcery."}, claim: {query: {types: bolt}, is: [sorcery]}}
      - {id: wall-tapped, text: {en: "Tapped."}, claim: {query: {tapped: wall}, is: true}}
    expect: [golem-types]
""")


def with_answer(query: Any) -> dict[str, Any]:
    """The demo document whose first question asks ``query`` (a yes/no question)."""
    document = copy.deepcopy(DEMO)
    document["questions"][0]["answer"] = query
    document["questions"][0].pop("expect")
    return document


def test_the_three_queries_answer_in_every_era() -> None:
    result = check_document(DEMO)
    assert result.ok, result.errors
    assert result.eras
    for answers in result.answers.values():
        assert answers == {"bears-tapped": True, "knight-tapped": False,
                           "artifact-creatures": 2, "alice-objects": 3, "everything": 6,
                           "what-is-true": ["golem-types"]}


@pytest.mark.parametrize(("query", "path", "message"), [
    ({"tapped": "nobody"}, "tapped", "unknown object 'nobody'"),
    ({"tapped": ["bears"]}, "tapped", "unknown object ['bears']"),
    ({"types": {"a": [1]}}, "types", "unknown object"),
    ({"count": None}, "count", "`count` takes a mapping"),
    ({"count": ["bears"]}, "count", "`count` takes a mapping"),
    ({"count": {"colour": "red"}}, "count.colour", "unknown field 'colour'"),
    ({"count": {"zone": "field"}}, "count.zone", "unknown zone 'field'"),
    ({"count": {"zone": ["hand"]}}, "count.zone", "unknown zone ['hand']"),
    ({"count": {"controller": "carol"}}, "count.controller", "unknown player 'carol'"),
    ({"count": {"controller": "bears"}}, "count.controller", "unknown player 'bears'"),
    ({"count": {"controller": ["alice"]}}, "count.controller", "unknown player"),
    ({"count": {"types": "creature"}}, "count.types", "`types` is a list of card types"),
    ({"count": {"types": [["creature"]]}}, "count.types[0]", "unknown card type"),
    ({"count": {"types": ["creature", "wizard"]}}, "count.types[1]",
     "unknown card type 'wizard'"),
])
def test_a_malformed_argument_is_an_error_at_its_path(query: Any, path: str,
                                                      message: str) -> None:
    result = check_document(with_answer(query))
    where = f"questions[0].answer.{path}"
    assert any(e.path == where and message in e.message for e in result.errors), \
        result.errors


def test_a_claim_on_types_compares_a_list() -> None:
    document = copy.deepcopy(DEMO)
    document["questions"][5]["options"][0]["claim"]["is"] = "creature"
    result = check_document(document)
    assert [e.path for e in result.errors] == ["questions[5].options[0].claim.is"]


def leaves(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(node, dict):
        return [leaf for k, v in node.items() for leaf in leaves(v, (*path, k))]
    if isinstance(node, list):
        return [leaf for i, v in enumerate(node) for leaf in leaves(v, (*path, i))]
    return [path]


@pytest.mark.parametrize("value", [[], {"a": [1]}], ids=["list", "mapping"])
def test_a_misshapen_value_in_a_question_is_refused_cleanly(value: Any) -> None:
    for leaf in leaves(DEMO["questions"], ("questions",)):
        if "ask" in leaf or "text" in leaf:
            continue
        document = copy.deepcopy(DEMO)
        node: Any = document
        for k in leaf[:-1]:
            node = node[k]
        node[leaf[-1]] = value
        try:
            result = check_document(document)
        except (DocumentError, EngineError):
            continue
        # Accepted only where any value is fine: an `expect` (which then disagrees).
        assert result.errors or "expect" in leaf, leaf


def test_the_schema_takes_the_queries_and_refuses_a_misshapen_count() -> None:
    validator = Draft202012Validator(scenario_schema())
    assert not list(validator.iter_errors(DEMO))
    for count in ({"colour": "red"}, {"zone": "field"}, {"types": ["wizard"]}, ["bears"]):
        assert list(validator.iter_errors(with_answer({"count": count}))), count


@pytest.mark.parametrize("kind", ["tapped", "types", "subtypes", "counters"])
def test_an_object_that_never_entered_is_an_error_at_the_query(kind: str) -> None:
    variant = parse(DEMO).variant(0)  # the board before the actions: no `wall` yet
    errors = Errors()
    arg: Any = ["wall", "loyalty"] if kind == "counters" else "wall"
    query = parse_query({kind: arg}, "q", variant.state, {*variant.state.objects, "wall"},
                        errors)
    assert query is not None, errors.items
    with pytest.raises(DocumentError) as info:
        answer(find_era("fdn-2024"), variant.state, query)
    assert info.value.items[0].path == f"q.{kind}"
    assert "wall never entered the game" in info.value.items[0].message


def test_count_does_not_count_an_object_that_never_entered() -> None:
    variant = parse(DEMO).variant(0)
    errors = Errors()
    query = parse_query({"count": {"types": ["artifact"]}}, "q", variant.state,
                        {*variant.state.objects, "wall"}, errors)
    assert query is not None, errors.items
    assert answer(find_era("fdn-2024"), variant.state, query) == 1
