"""`{damage: ID}`: the damage marked on an object."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.eras import Era
from engine.kinds.base import ParseContext, QuerySpec, object_in_game
from engine.state import GameState


@dataclass(frozen=True, slots=True)
class Damage:
    object: str


def parse(ctx: ParseContext, arg: Any, path: str) -> Damage | None:
    ctx.obj_ref(arg, path)
    return Damage(arg)


def answer(era: type[Era], state: GameState, value: Damage, path: str) -> int:
    return object_in_game(state, value.object, path).damage


def schema() -> sp.Schema:
    return sp.string("The damage marked on an object.")


SPEC: QuerySpec[Damage] = QuerySpec(
    name="damage", value_type="int", parse=parse, answer=answer, schema=schema)
