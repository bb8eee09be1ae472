"""A misshapen value anywhere in a document (a list or a mapping where an id, a number or a
word belongs) is a document error at its path, never a crash (TypeError: unhashable...)."""

import copy
from pathlib import Path

import pytest
import yaml

from engine import DocumentError, EngineError, check_document

LIBRARY = Path(__file__).resolve().parents[2] / "scenarios" / "library"
# One scenario per topic: between them they hold every kind of reference the format has
# (players, teams, objects in every zone, planar decks, actions, queries, claims, goals).
SAMPLES = sorted(min(d.glob("*.yaml")) for d in LIBRARY.iterdir()
                 if d.is_dir() and any(d.glob("*.yaml")))
SAMPLES += [LIBRARY / "planechase" / "pc-effect-roll-is-free.yaml",
            LIBRARY / "two-headed-giant" / "thg-team-damage-one-player.yaml",
            LIBRARY / "removed-attack-target" / "rat-thrasta-walker-gone.yaml",
            LIBRARY / "removed-attack-target" / "rat-walker-becomes-land.yaml",
            LIBRARY / "planechase" / "pc-planar-types-vs-walker-types.yaml"]
TEXTS = ("title", "story", "explanation")


def leaves(node, path=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from leaves(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from leaves(v, (*path, i))
    elif path and path[0] not in TEXTS:
        yield path


def replaced(doc, path, value):
    doc = copy.deepcopy(doc)
    node = doc
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    return doc


@pytest.mark.parametrize("path", sorted(set(SAMPLES)), ids=lambda p: p.stem)
def test_every_leaf_replaced_by_a_list_or_mapping_is_refused_cleanly(path):
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    for leaf in leaves(document):
        for value in ([], {"a": [1]}):
            try:
                result = check_document(replaced(document, leaf, value))
            except (DocumentError, EngineError):
                continue
            # Accepted only where any value is fine: an `expect` (which then disagrees).
            assert result.errors or "expect" in leaf, leaf


def test_a_legal_query_may_ask_about_entering_a_new_object():
    document = yaml.safe_load(SAMPLES[0].read_text(encoding="utf-8"))
    controller = document["setup"]["players"][0]["id"]
    document["questions"] = [{
        "id": "enter-ok", "kind": "yesno", "ask": {"en": "Legal?"},
        "answer": {"legal": {"enter": {"id": "newcomer", "types": ["creature"], "power": 1,
                                       "toughness": 1, "controller": controller}}}}]
    result = check_document(document)
    assert not result.errors
    assert all(answers["enter-ok"] is True for answers in result.answers.values())


@pytest.mark.parametrize("counters", [{"loyalty": []}, {"loyalty": "x"}, {"loyalty": -5}, [], "x"])
def test_counters_of_an_object_entering_again_are_checked(counters):
    path = LIBRARY / "loyalty" / "flickered-ajani-printed-loyalty.yaml"
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    index = next(i for i, a in enumerate(document["actions"]) if "enter" in a)
    document["actions"][index]["enter"]["counters"] = counters
    result = check_document(document)
    assert [e.path for e in result.errors] and all(
        e.path.startswith(f"actions[{index}].enter.counters") for e in result.errors)
