"""Combat damage assignments shown to a candidate: the violation that says why one is
illegal (rule, code and the data a sentence needs) and a legal one that meets a goal."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import combat as cb
from engine.eras import ERA_KEYS, find_era
from engine.notation import parse
from engine.queries import legal_assignment, why_illegal_assignment
from engine.runner import play, run_variant, scenario_eras
from engine.state import GameState
from scenarios.library import LIBRARY, read_document
from tests.engine.test_properties import FAST, boards, label, play_board


def creature(oid: str, controller: str, power: int, toughness: int,
             *keywords: str) -> dict[str, Any]:
    return {"id": oid, "controller": controller, "types": ["creature"], "power": power,
            "toughness": toughness, "keywords": list(keywords)}


def walker(oid: str, loyalty: int) -> dict[str, Any]:
    return {"id": oid, "controller": "bob", "types": ["planeswalker"], "subtypes": ["Garruk"],
            "loyalty": loyalty, "counters": {"loyalty": loyalty}}


def board(era: str, battlefield: list[dict[str, Any]],
          actions: list[dict[str, Any]]) -> GameState:
    """The state after ``actions`` (attack, block, order) on a two-player board."""
    doc = {"format": 1, "id": "board", "topic": "combat-damage-assignment", "difficulty": 1,
           "title": {"en": "board"},
           "setup": {"turn": {"active": "alice", "step": "main1"},
                     "players": [{"id": "alice", "life": 20}, {"id": "bob", "life": 20}],
                     "battlefield": battlefield},
           "actions": actions,
           "questions": [{"id": "q", "kind": "number", "ask": {"en": "x"},
                          "answer": {"life": "bob"}}]}
    return play(find_era(era), parse(doc).variant(0))[0]


WURM_BLOCKED = ([creature("wurm", "alice", 6, 6), creature("bears", "bob", 2, 2)],
                [{"attack": {"wurm": "bob"}}, {"block": {"bears": "wurm"}}])


@pytest.mark.parametrize("era", ["lrw-2007", "m10-2009", "fdn-2024"])
def test_a_blocked_creature_without_trample_cites_the_blocked_damage_rule(era: str) -> None:
    state = board(era, *WURM_BLOCKED)
    why = why_illegal_assignment(find_era(era), state, "wurm", {"bears": 2, "bob": 4})
    assert why is not None
    assert (why.rule_key, why.code, why.data["why"]) == (
        "combat.damage-blocked", "assign.not-recipient", "blocked")
    assert why.rule == {"lrw-2007": "310.2c", "m10-2009": "510.1c", "fdn-2024": "510.1c"}[era]
    assert why.data["recipient"] == "bob"


def test_a_total_other_than_the_power_says_both_numbers() -> None:
    state = board("fdn-2024", *WURM_BLOCKED)
    why = why_illegal_assignment(find_era("fdn-2024"), state, "wurm", {"bears": 4})
    assert why is not None and why.code == "assign.total"
    assert (why.data["power"], why.data["total"]) == (6, 4)


def test_the_order_violation_names_the_blocker_still_short_of_lethal() -> None:
    battlefield = [creature("wurm", "alice", 6, 6), creature("wall", "bob", 0, 4),
                   creature("bears", "bob", 2, 2)]
    actions = [{"attack": {"wurm": "bob"}}, {"block": {"wall": "wurm", "bears": "wurm"}},
               {"order": {"wurm": ["wall", "bears"]}}]
    state = board("m14-2013", battlefield, actions)
    why = why_illegal_assignment(find_era("m14-2013"), state, "wurm", {"wall": 3, "bears": 3})
    assert why is not None and why.code == "assign.order"
    assert (why.rule, why.data["blocker"], why.data["lethal"]) == ("509.2", "wall", 4)
    assert why_illegal_assignment(find_era("fdn-2024"), board("fdn-2024", battlefield,
                                  actions[:2]), "wurm", {"wall": 3, "bears": 3}) is None


@pytest.mark.parametrize(("era", "number"), [("lrw-2007", "502.9"), ("m10-2009", "702.17"),
                                             ("m14-2013", "702.19")])
def test_trample_past_a_blocker_short_of_lethal_cites_trample_of_the_era(
        era: str, number: str) -> None:
    battlefield = [creature("wurm", "alice", 6, 6, "trample"), creature("bears", "bob", 2, 2)]
    state = board(era, battlefield, [{"attack": {"wurm": "bob"}}, {"block": {"bears": "wurm"}}])
    why = why_illegal_assignment(find_era(era), state, "wurm", {"bears": 1, "bob": 5})
    assert why is not None and why.code == "assign.trample-lethal"
    assert (why.rule, why.data["blocker"], why.data["lethal"]) == (number, "bears", 2)


def test_trample_over_planeswalkers_needs_the_loyalty_first() -> None:
    battlefield = [creature("thrasta", "alice", 7, 7, "trample-over-planeswalkers"),
                   walker("pw", 4)]
    state = board("mh2-2021", battlefield, [{"attack": {"thrasta": "pw"}}])
    why = why_illegal_assignment(find_era("mh2-2021"), state, "thrasta", {"pw": 2, "bob": 5})
    assert why is not None and why.code == "assign.top-loyalty" and why.rule == "702.19c"
    assert (why.data["player"], why.data["planeswalker"], why.data["need"]) == ("bob", "pw", 4)
    assert legal_assignment(find_era("mh2-2021"), state, "thrasta", "bob") == {"pw": 4, "bob": 3}


def test_plain_trample_never_reaches_the_planeswalkers_controller() -> None:
    battlefield = [creature("wurm", "alice", 6, 6, "trample"), walker("pw", 3),
                   creature("bears", "bob", 2, 2)]
    state = board("m10-2009", battlefield, [{"attack": {"wurm": "pw"}},
                                            {"block": {"bears": "wurm"}}])
    why = why_illegal_assignment(find_era("m10-2009"), state, "wurm",
                                 {"bears": 2, "pw": 2, "bob": 2})
    assert why is not None and (why.rule, why.data["why"]) == ("702.17d", "trample")
    legal = {"bears": 2, "pw": 4}
    assert why_illegal_assignment(find_era("m10-2009"), state, "wurm", legal) is None
    assert legal_assignment(find_era("m10-2009"), state, "wurm", "bob") == {"bears": 2,
                                                                            "pw": 4}


def test_an_unblocked_creature_assigns_only_to_what_it_attacks() -> None:
    battlefield = [creature("wurm", "alice", 6, 6), walker("pw", 3)]
    state = board("fdn-2024", battlefield, [{"attack": {"wurm": "pw"}}])
    why = why_illegal_assignment(find_era("fdn-2024"), state, "wurm", {"bob": 6})
    assert why is not None and (why.rule, why.data["why"]) == ("510.1b", "unblocked")


def test_without_a_goal_the_scripted_assignment_is_the_legal_one_shown() -> None:
    battlefield = [creature("wurm", "alice", 6, 6), creature("wall", "bob", 0, 4),
                   creature("bears", "bob", 2, 2)]
    actions = [{"attack": {"wurm": "bob"}}, {"block": {"wall": "wurm", "bears": "wurm"}},
               {"assign": {"wurm": {"wall": 1, "bears": 5}}}]
    state = board("fdn-2024", battlefield, actions)
    assert legal_assignment(find_era("fdn-2024"), state, "wurm") == {"wall": 1, "bears": 5}
    state = board("fdn-2024", battlefield, actions[:2])
    assert legal_assignment(find_era("fdn-2024"), state, "wurm") == cb.default_assignment(
        find_era("fdn-2024"), state, "wurm")


def library_assign_questions():
    for path in sorted(LIBRARY.glob("*/*.yaml")):
        scenario = parse(read_document(path))
        variant = scenario.variant(0)
        questions = [q for q in variant.questions if q.kind == "assign"]
        for era in scenario_eras(scenario, variant) if questions else ():
            yield pytest.param(variant, era, questions, id=f"{path.stem}@{era}")


@pytest.mark.parametrize(("variant", "era", "questions"), list(library_assign_questions()))
def test_the_legal_assignment_meets_each_library_goal(variant, era: str, questions) -> None:
    outcome = run_variant(find_era(era), variant)
    for q in questions:
        shown = legal_assignment(find_era(era), outcome.state, q.attacker, q.goal)
        assert why_illegal_assignment(find_era(era), outcome.state, q.attacker, shown) is None
        if q.goal is not None:
            assert shown.get(q.goal, 0) == outcome.answers[q.id], (q.id, shown)


@FAST
@given(board=boards(stop_before_damage=True), era_key=st.sampled_from(ERA_KEYS))
def test_the_most_to_assignment_is_legal_and_gives_the_most(board: dict[str, Any],
                                                             era_key: str) -> None:
    label(board, era_key)
    era = find_era(era_key)
    state, _ = play_board(era_key, board)
    assert state.combat is not None
    for attacker in state.combat.attackers:
        for recipient in ("bob", "pw", "b0", "b1", "b2"):
            shown = cb.assignment_most_to(era, state, attacker, recipient)
            assert cb.assignment_violation(era, state, attacker, shown) is None, shown
            assert shown.get(recipient, 0) == cb.max_damage_to(era, state, attacker,
                                                               recipient), shown
