"""`{zone: ID}`: the zone an object is in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.eras import Era
from engine.kinds.base import ParseContext, QuerySpec, object_in_game
from engine.state import GameState


@dataclass(frozen=True, slots=True)
class Zone:
    object: str


def parse(ctx: ParseContext, arg: Any, path: str) -> Zone | None:
    ctx.obj_ref(arg, path)
    return Zone(arg)


def answer(era: type[Era], state: GameState, value: Zone, path: str) -> str:
    return object_in_game(state, value.object, path).zone


def schema() -> sp.Schema:
    return sp.string("The zone an object is in.")


SPEC: QuerySpec[Zone] = QuerySpec(
    name="zone", value_type="str", parse=parse, answer=answer, schema=schema)
