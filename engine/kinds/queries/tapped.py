"""`{tapped: ID}`: whether an object is tapped (its status, 110.5; tapping and untapping
are 701.21 in the current rules)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.eras import Era
from engine.kinds.base import ParseContext, QuerySpec, object_in_game
from engine.state import GameState


@dataclass(frozen=True, slots=True)
class Tapped:
    object: str


def parse(ctx: ParseContext, arg: Any, path: str) -> Tapped | None:
    ctx.obj_ref(arg, path)
    return Tapped(arg)


def answer(era: type[Era], state: GameState, value: Tapped, path: str) -> bool:
    return object_in_game(state, value.object, path).tapped


def schema() -> sp.Schema:
    return sp.string("Whether an object is tapped.")


SPEC: QuerySpec[Tapped] = QuerySpec(
    name="tapped", value_type="bool", parse=parse, answer=answer, schema=schema)
