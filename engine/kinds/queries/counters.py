"""`{counters: [ID, KIND]}`: how many counters of KIND an object has; for a player, KIND
`poison` (poison counters, from damage by a source with infect)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.eras import Era
from engine.kinds.base import ParseContext, QuerySpec, object_in_game
from engine.state import GameState


@dataclass(frozen=True, slots=True)
class Counters:
    object: str
    kind: str


def parse(ctx: ParseContext, arg: Any, path: str) -> Counters | None:
    if not isinstance(arg, list) or len(arg) != 2 or not isinstance(arg[1], str):
        ctx.add(path, "`counters` takes [OBJECT, KIND]")
        return None
    if arg[0] in ctx.players:
        if arg[1] != "poison":
            ctx.add(f"{path}[1]", "a player's counters are `poison` counters")
    elif arg[0] not in ctx.known:
        ctx.add(f"{path}[0]", f"unknown object {arg[0]!r}")
    return Counters(arg[0], arg[1])


def answer(era: type[Era], state: GameState, value: Counters, path: str) -> int:
    if value.object in state.players:
        return state.players[value.object].poison
    return object_in_game(state, value.object, path).counter(value.kind)


def schema() -> sp.Schema:
    return {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "string"},
            "description": "[OBJECT, KIND]: how many counters of KIND."}


SPEC: QuerySpec[Counters] = QuerySpec(
    name="counters", value_type="int", parse=parse, answer=answer, schema=schema)
