"""`{types: ID}`: an object's card types (205.2a), sorted (a list)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.eras import Era
from engine.kinds.base import ParseContext, QuerySpec, object_in_game
from engine.state import GameState


@dataclass(frozen=True, slots=True)
class Types:
    object: str


def parse(ctx: ParseContext, arg: Any, path: str) -> Types | None:
    ctx.obj_ref(arg, path)
    return Types(arg)


def answer(era: type[Era], state: GameState, value: Types, path: str) -> list[str]:
    return sorted(object_in_game(state, value.object, path).types)


def schema() -> sp.Schema:
    return sp.string("An object's card types, sorted (a list).")


SPEC: QuerySpec[Types] = QuerySpec(
    name="types", value_type="list", parse=parse, answer=answer, schema=schema)
