"""`{roll_cost: PLAYER}`: the cost of that player's next planar die roll (901.9)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.eras import Era
from engine.kinds.base import ParseContext, QuerySpec
from engine.planechase import roll_cost
from engine.state import GameState


@dataclass(frozen=True, slots=True)
class RollCost:
    player: str


def parse(ctx: ParseContext, arg: Any, path: str) -> RollCost | None:
    if arg not in ctx.players:
        ctx.add(path, f"{arg!r} is not a player")
    return RollCost(arg)


def answer(era: type[Era], state: GameState, value: RollCost, path: str) -> int:
    return roll_cost(state, value.player)


def schema() -> sp.Schema:
    return sp.string("The cost of that player's next planar die roll.")


SPEC: QuerySpec[RollCost] = QuerySpec(
    name="roll_cost", value_type="int", parse=parse, answer=answer, schema=schema)
