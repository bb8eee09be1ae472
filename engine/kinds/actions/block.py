"""`block: {BLOCKER: ATTACKER, ...}`: declare blockers (509); `block: {}` declares no
blockers (509.1a: "which creatures ..., if any, will block")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import combat as cb
from engine import schema_parts as sp
from engine.eras import Era
from engine.errors import IllegalAction, illegal
from engine.kinds.base import (
    ActionSpec,
    ParseContext,
    PerformContext,
    gettext_noop,
    pairs_editor,
)
from engine.state import GameState
from engine.trace import Trace


@dataclass(frozen=True, slots=True)
class Block:
    blockers: Mapping[str, str]
    """Each blocking creature -> the attacking creature it blocks."""


def parse(ctx: ParseContext, args: Any, path: str) -> Block | None:
    if not isinstance(args, dict):
        ctx.add(path, "`block` takes a mapping BLOCKER: ATTACKER (`{}` for no blockers)")
        return None
    for b, a in args.items():
        ctx.obj_ref(b, f"{path}.{b}")
        ctx.obj_ref(a, f"{path}.{b}")
    return Block(dict(args))


def perform(era: type[Era], state: GameState, trace: Trace, value: Block,
            at: PerformContext) -> GameState:
    decl = dict(value.blockers)
    if state.combat is None or not state.combat.attackers:
        raise illegal(at.path, era, "combat.declare-blockers", "block.no-attackers",
                      "no creature is attacking")
    for who, why in cb.block_violations(era, state, decl):
        raise IllegalAction(f"{at.path}.{who}" if who else at.path, why, era.key)
    return cb.declare_blockers(era, state, trace, decl)


def schema() -> sp.Schema:
    return sp.mapping(
        "Declare blockers: BLOCKER: ATTACKER. Moves to declare-blockers.",
        {"type": "string"}) | {"minProperties": 0}



SPEC: ActionSpec[Block] = ActionSpec(
    name="block", parse=parse, perform=perform, schema=schema, quiet=True, declaration=True,
    editor=pairs_editor(gettext_noop("Blocker: the attacker it blocks (one per line)")))
