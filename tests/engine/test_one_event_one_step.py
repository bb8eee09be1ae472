"""One event, one step: the damage assignment order is announced once (509.2), by the
`order` action when there is one, else by the block declaration's order."""

import pytest

from engine import find_era, parse, play

DOCUMENT = {
    "format": 1, "id": "dao-once", "topic": "combat-damage-assignment", "difficulty": 1,
    "title": {"en": "DAO"},
    "setup": {
        "turn": {"active": "alice", "step": "main1", "number": 3},
        "players": [{"id": "alice", "life": 20}, {"id": "bob", "life": 20}],
        "battlefield": [
            {"id": "angel", "controller": "alice", "types": ["creature"], "power": 4,
             "toughness": 4, "keywords": ["flying", "vigilance"]},
            {"id": "spider", "controller": "bob", "types": ["creature"], "power": 2,
             "toughness": 4, "keywords": ["reach"]},
            {"id": "bird", "controller": "bob", "types": ["creature"], "power": 1,
             "toughness": 1, "keywords": ["flying"]},
        ],
    },
    "actions": [{"attack": {"angel": "bob"}}, {"block": {"spider": "angel", "bird": "angel"}},
                {"order": {"angel": ["bird", "spider"]}}, {"combat_damage": {}}],
    "questions": [{"id": "q", "kind": "number", "ask": {"en": "x"},
                   "answer": {"damage": "spider"}}],
}


def orders(document, era):
    _state, trace = play(find_era(era), parse(document).variant(0))
    return [(s.action, s.data["order"]) for s in trace.steps if s.event == "combat.order"]


@pytest.mark.parametrize("era", ["m10-2009", "m14-2013", "mom-2023"])
def test_an_order_action_is_the_one_announcement(era):
    assert orders(DOCUMENT, era) == [(2, ["bird", "spider"])]


@pytest.mark.parametrize("era", ["m10-2009", "mom-2023"])
def test_without_an_order_action_the_declaration_order_is_announced_once(era):
    document = {**DOCUMENT, "actions": [a for a in DOCUMENT["actions"] if "order" not in a]}
    assert orders(document, era) == [(1, ["spider", "bird"])]


@pytest.mark.parametrize("era", ["lrw-2007", "fdn-2024"])
def test_no_order_where_the_era_has_none(era):
    assert orders(DOCUMENT, era) == []


ATTACKS = {
    **DOCUMENT,
    "setup": {**DOCUMENT["setup"], "battlefield": [
        *DOCUMENT["setup"]["battlefield"],
        {"id": "jace", "card": "jace-beleren", "controller": "bob", "counters": {"loyalty": 3}},
    ]},
    "actions": [{"attack": {"angel": "bob", "spider": "jace"}}],
}
ATTACKS["setup"]["battlefield"][1] = {**ATTACKS["setup"]["battlefield"][1], "controller": "alice"}


@pytest.mark.parametrize(("era", "number"), [("lrw-2007", "308.1"), ("m10-2009", "508.1"),
                                             ("fdn-2024", "508.1")])
def test_an_attack_declaration_is_one_step_citing_one_rule(era, number):
    """One Lorwyn declaration cited 212.9f (UNSURE) for the attacker at a planeswalker and
    308.1 for the other: the declaration is one event, one step, one rule."""
    _state, trace = play(find_era(era), parse(ATTACKS).variant(0))
    steps = [s for s in trace.steps if s.event == "combat.attacks"]
    assert [(s.rule, s.data["attacks"]) for s in steps] == [
        (number, {"angel": "bob", "spider": "jace"})]
    assert not any(s.rule_key == "pw.can-be-attacked" for s in trace.steps)
