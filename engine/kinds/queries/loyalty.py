"""`{loyalty: ID}`: a planeswalker's loyalty (its printed loyalty once it has left the
battlefield)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.eras import Era
from engine.kinds.base import ParseContext, QuerySpec, object_in_game
from engine.state import GameState


@dataclass(frozen=True, slots=True)
class Loyalty:
    object: str


def parse(ctx: ParseContext, arg: Any, path: str) -> Loyalty | None:
    ctx.obj_ref(arg, path)
    return Loyalty(arg)


def answer(era: type[Era], state: GameState, value: Loyalty, path: str) -> int:
    return object_in_game(state, value.object, path).current_loyalty


def schema() -> sp.Schema:
    return sp.string("A planeswalker's loyalty (printed loyalty once it has left "
                     "the battlefield).")


SPEC: QuerySpec[Loyalty] = QuerySpec(
    name="loyalty", value_type="int", parse=parse, answer=answer, schema=schema)
