"""`{subtypes: ID}`: an object's subtypes (a list)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.eras import Era
from engine.kinds.base import ParseContext, QuerySpec, object_in_game
from engine.state import GameState


@dataclass(frozen=True, slots=True)
class Subtypes:
    object: str


def parse(ctx: ParseContext, arg: Any, path: str) -> Subtypes | None:
    ctx.obj_ref(arg, path)
    return Subtypes(arg)


def answer(era: type[Era], state: GameState, value: Subtypes, path: str) -> list[str]:
    return list(object_in_game(state, value.object, path).subtypes)


def schema() -> sp.Schema:
    return sp.string("An object's subtypes (a list).")


SPEC: QuerySpec[Subtypes] = QuerySpec(
    name="subtypes", value_type="list", parse=parse, answer=answer, schema=schema)
