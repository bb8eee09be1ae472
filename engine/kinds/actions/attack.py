"""`attack: {ATTACKER: TARGET, ...}`: declare attackers (508); `attack: {}` declares no
attackers (508.1a: "which creatures ..., if any, will attack")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import combat as cb
from engine import schema_parts as sp
from engine.eras import Era
from engine.errors import DocumentError, illegal, raise_violation
from engine.kinds.base import (
    ActionSpec,
    ParseContext,
    PerformContext,
    gettext_noop,
    pairs_editor,
)
from engine.state import GameState, step_index
from engine.trace import Trace


@dataclass(frozen=True, slots=True)
class Attack:
    targets: Mapping[str, str]
    """Each attacking creature -> what it attacks: a player, a planeswalker or battle, or
    a team in Two-Headed Giant before dom-2018."""


def parse(ctx: ParseContext, args: Any, path: str) -> Attack | None:
    if not isinstance(args, dict):
        ctx.add(path, "`attack` takes a mapping ATTACKER: TARGET (`{}` for no attackers)")
        return None
    for a, t in args.items():
        ctx.obj_ref(a, f"{path}.{a}")
        ctx.any_ref(t, f"{path}.{a}")
    return Attack(dict(args))


def perform(era: type[Era], state: GameState, trace: Trace, value: Attack,
            at: PerformContext) -> GameState:
    decl = dict(value.targets)
    if state.combat is not None:  # a declaration, even of no attackers, was made
        raise illegal(at.path, era, "combat.declare-attackers", "attack.twice",
                      "attackers were already declared this combat")
    if step_index(state.turn.step) > step_index("declare-attackers"):
        raise illegal(at.path, era, "combat.declare-attackers", "attack.too-late",
                      f"it is the {state.turn.step} step: attackers are declared in the "
                      f"declare attackers step")
    targets = cb.legal_targets(era, state)
    for attacker, target in decl.items():
        raise_violation(f"{at.path}.{attacker}", era,
                        cb.attack_violation(era, state, attacker, target, targets))
        obj = state.objects.get(attacker)
        if obj is not None and "annihilator" in obj.keywords:
            # Never skip an effect silently: its attack trigger is not modelled.
            raise DocumentError.at(f"{at.path}.{attacker}", (
                f"{attacker} has annihilator (“whenever this creature attacks, defending "
                f"player sacrifices a permanent”), a triggered ability the engine does not "
                f"model"))
    return cb.declare_attackers(era, state, trace, decl)


def schema() -> sp.Schema:
    return sp.mapping(
        "Declare attackers: ATTACKER: TARGET (a player, a planeswalker or battle id, or "
        "a team id in Two-Headed Giant before dom-2018). Moves to declare-attackers.",
        {"type": "string"}) | {"minProperties": 0}



SPEC: ActionSpec[Attack] = ActionSpec(
    name="attack", parse=parse, perform=perform, schema=schema, quiet=True, declaration=True,
    editor=pairs_editor(gettext_noop("Attacker: what it attacks (one per line)")))
