"""`{blocked: ID}`: whether an attacking creature is blocked."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.eras import Era
from engine.kinds.base import ParseContext, QuerySpec, object_in_game
from engine.state import GameState


@dataclass(frozen=True, slots=True)
class Blocked:
    object: str


def parse(ctx: ParseContext, arg: Any, path: str) -> Blocked | None:
    ctx.obj_ref(arg, path)
    return Blocked(arg)


def answer(era: type[Era], state: GameState, value: Blocked, path: str) -> bool:
    object_in_game(state, value.object, path)
    combat = state.combat
    return bool(combat is not None and value.object in combat.blocked)


def schema() -> sp.Schema:
    return sp.string("Whether an attacking creature is blocked.")


SPEC: QuerySpec[Blocked] = QuerySpec(
    name="blocked", value_type="bool", parse=parse, answer=answer, schema=schema)
