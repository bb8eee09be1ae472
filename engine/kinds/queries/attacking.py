"""`{attacking: ID}`: what a creature attacks: an id, `nothing` (the planeswalker or
battle it attacked was removed from combat, 506.4c) or None."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.eras import Era
from engine.kinds.base import ParseContext, QuerySpec, object_in_game
from engine.state import GameState


@dataclass(frozen=True, slots=True)
class Attacking:
    object: str


def parse(ctx: ParseContext, arg: Any, path: str) -> Attacking | None:
    ctx.obj_ref(arg, path)
    return Attacking(arg)


def answer(era: type[Era], state: GameState, value: Attacking, path: str) -> str | None:
    obj = object_in_game(state, value.object, path)
    combat = state.combat
    if combat is None or value.object not in combat.attackers or not obj.on_battlefield:
        return None
    target = combat.attackers[value.object]
    return "nothing" if target is None else target


def schema() -> sp.Schema:
    return sp.string("What a creature attacks: an id, `nothing` (its planeswalker "
                     "or battle was removed from combat) or null.")


SPEC: QuerySpec[Attacking] = QuerySpec(
    name="attacking", value_type="str", parse=parse, answer=answer, schema=schema)
