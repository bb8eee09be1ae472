"""Every effect of the catalog is performed or refused, never silently skipped.

The test walks the card catalog: each instant's and sorcery's effect (each mode of a modal
one), each activated ability of each permanent, each plane's chaos and planeswalk-away
ability and each phenomenon's encounter ability. It performs each one with the engine's
own actions (`cast`, `activate`, `roll_planar_die`) on a board where it has legal targets,
in the first and the last era in which the card exists. Resolving it must either trace at
least one step with its rule after the spell or ability was put on its way, and never an
"effect.not-modelled" step, or refuse the document with a ResolutionError naming the card.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.cards import Card, catalog
from engine.effects import ResolutionError
from engine.eras import ERAS, Era, era_end, find_era
from engine.errors import DocumentError
from engine.notation import parse
from engine.runner import play
from engine.setup import parse_setup
from engine.targets import target_violation

PLANECHASE_FROM = "m10-2009"
START_EVENTS = {"loyalty.activated", "ability.activated", "spell.cast", "planechase.chaos",
                "planechase.encounter", "planechase.planeswalk-away"}


def _eras(card: Card) -> list[str]:
    keys = [e.key for e in ERAS
            if (era_end(e) is None or card.released < era_end(e))  # type: ignore[operator]
            and not (card.types & {"plane", "phenomenon"}
                     and e.effective < find_era(PLANECHASE_FROM).effective)]
    # the eras in which it was printed: the first and the last
    started = [k for k in keys if find_era(k).effective >= _printed_era(card).effective]
    return sorted({started[0], started[-1]}) if started else []


def _printed_era(card: Card) -> type[Era]:
    era = ERAS[0]
    for e in ERAS:
        if e.effective <= card.released:
            era = e
    return era


BOARD: list[dict[str, Any]] = [
    {"id": "bears", "card": "grizzly-bears", "controller": "bob"},
    {"id": "elf", "card": "llanowar-elves", "controller": "alice"},
    {"id": "walker", "controller": "bob", "types": ["planeswalker"], "subtypes": ["Zed"],
     "name": {"en": "Walker"}, "loyalty": 5, "counters": {"loyalty": 5}},
    {"id": "land-b", "controller": "bob", "types": ["land"], "tapped": True},
    {"id": "land-a", "controller": "alice", "types": ["land"], "tapped": True},
    {"id": "tapped-bear", "controller": "bob", "types": ["creature"], "power": 1,
     "toughness": 1, "tapped": True},
    {"id": "gizmo", "controller": "alice", "types": ["artifact"], "tapped": True},
]
CANDIDATES = ["bob", "bears", "walker", "land-b", "land-a", "tapped-bear", "gizmo", "elf",
              "alice"]


def _document(setup: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    return {"format": 1, "id": "every-effect", "topic": "loyalty", "difficulty": 1,
            "title": {"en": "every effect"}, "setup": setup, "actions": [action],
            "questions": [{"id": "q", "kind": "number", "ask": {"en": "life"},
                           "answer": {"life": "alice"}}]}


def _setup(extra: list[dict[str, Any]]) -> dict[str, Any]:
    return {"turn": {"active": "alice", "step": "main1"},
            "players": [{"id": "alice", "life": 20}, {"id": "bob", "life": 20}],
            "battlefield": BOARD + extra,
            "hand": [{"id": "a-card", "card": "shock", "owner": "alice"},
                     {"id": "b-card", "card": "shock", "owner": "bob"}],
            "graveyard": [{"id": "dead", "card": "craw-wurm", "owner": "bob"}]}


def _targets(era: str, setup: dict[str, Any], specs: tuple[frozenset[str], ...]) -> list[str]:
    state = parse_setup(setup)
    chosen: list[str] = []
    for spec in specs:
        for t in CANDIDATES:
            if t not in chosen and target_violation(find_era(era), state, "alice", spec,
                                                    t) is None:
                chosen.append(t)
                break
    return chosen


def _cases() -> list[tuple[str, str, str, Any]]:
    """(card slug, what, era, a function giving (setup, action))."""
    out: list[tuple[str, str, str, Any]] = []
    for slug, card in sorted(catalog().items()):
        for era in _eras(card):
            if card.is_spell_card:
                modes = list(enumerate(card.modes, start=1)) or [(None, None)]
                for mode, ability in modes:
                    out.append((slug, f"mode {mode}" if mode else "spell", era,
                                (card, mode, ability)))
            for i, _ability in enumerate(card.abilities, start=1):
                out.append((slug, f"ability {i}", era, (card, i, None)))
            if card.chaos is not None:
                out.append((slug, "chaos", era, (card, "chaos", None)))
            if card.encounter is not None:
                out.append((slug, "encounter", era, (card, "encounter", None)))
            if card.planeswalk_away is not None:
                out.append((slug, "planeswalk away", era, (card, "away", None)))
    return out


def _board_and_action(era: str, card: Card, which: Any, mode_ability: Any,
                      ) -> tuple[dict[str, Any], dict[str, Any]]:
    choices = {"discard": {"alice": ["a-card"], "bob": ["b-card"]},
               "sacrifice": {"alice": ["elf"], "bob": ["bears"]}}
    if card.is_spell_card:
        setup = _setup([])
        effect = mode_ability.effect if mode_ability is not None else card.effect
        wording = (mode_ability or card).wording(era)
        if effect is not None and effect.kind == "damage-divided":
            ids = _targets(era, setup, wording.targets[:1])
            targets: Any = {ids[0]: int(effect.get("amount", 1))}
        else:
            targets = _targets(era, setup, wording.targets)
        action = {"card": card.slug, "by": "alice", "targets": targets, **choices}
        if effect is not None and effect.get("amount") == "X":
            action["x"] = 1
        if which is not None:
            action["mode"] = which
        return setup, {"cast": action}
    if card.types & {"plane", "phenomenon"}:
        other = {"id": "other", "owner": "alice", "types": ["plane"], "subtypes": ["Lorwyn"],
                 "name": {"en": "Other"}}
        me = {"id": "me", "card": card.slug, "owner": "alice"}
        setup = _setup([])
        setup["command"] = [me, other]
        if which == "encounter":
            setup["planechase"] = {"decks": {"alice": ["me"]}, "face_up": "other"}
            return setup, {"roll_planar_die": {"by": "alice", "result": "planeswalk"}}
        setup["planechase"] = {"decks": {"alice": ["other"]}, "face_up": "me"}
        result = "chaos" if which == "chaos" else "planeswalk"
        return setup, {"roll_planar_die": {"by": "alice", "result": result}}
    ability = card.abilities[which - 1]
    source: dict[str, Any] = {"id": "src", "card": card.slug, "controller": "alice"}
    if card.loyalty is not None or "planeswalker" in card.types:
        source["counters"] = {"loyalty": 20}
    if card.types & {"creature"} and not (card.power or 0) + (card.toughness or 0):
        source.update(power=1, toughness=1)
    setup = _setup([source])
    targets = _targets(era, setup, ability.wording(era).targets)
    activate: dict[str, Any] = {"permanent": "src", "ability": which, "targets": targets,
                                **choices}
    if "X" in ability.cost or ability.effect.get("amount") == "X":
        activate["x"] = 1
    return setup, {"activate": activate}


CASES = _cases()


def test_the_walk_covers_the_catalog() -> None:
    slugs = {slug for slug, *_ in CASES}
    assert {"blightning", "garruk-wildspeaker", "jace-beleren", "goldmeadow",
            "planewide-disaster", "sanctum-of-serra"} <= slugs
    assert len(CASES) > 150


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}:{c[1]}@{c[2]}")
def test_every_effect_is_performed_or_refused(case: tuple[str, str, str, Any]) -> None:
    slug, what, era_key, (card, which, mode_ability) = case
    era = find_era(era_key)
    setup, action = _board_and_action(era_key, card, which, mode_ability)
    variant = parse(_document(setup, action)).variant(0)
    try:
        _state, trace = play(era, variant)
    except ResolutionError as err:
        assert card.name["en"] in str(err), err
        assert err.items[0].rule == era.rule("spell.resolve")
        return
    except DocumentError as err:  # the board gave it no legal way to be performed
        pytest.fail(f"{slug} {what} in {era_key}: {err}")
    steps = trace.steps
    start = next((i for i, s in enumerate(steps) if s.event in START_EVENTS), None)
    assert start is not None, [s.event for s in steps]
    after = steps[start + 1:]
    assert not any(s.event == "effect.not-modelled" for s in steps)
    assert any(s.rule_key for s in after), (
        f"{slug} {what} in {era_key} resolved without a ruled step: "
        f"{[(s.event, s.rule_key) for s in after]}")
