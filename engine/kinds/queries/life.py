"""`{life: PLAYER}`: a player's life total (in Two-Headed Giant, a team's, 810.9)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.eras import Era
from engine.kinds.base import ParseContext, QuerySpec
from engine.state import GameState


@dataclass(frozen=True, slots=True)
class Life:
    player: str
    """A player, or a team."""


def parse(ctx: ParseContext, arg: Any, path: str) -> Life | None:
    if arg not in ctx.players and arg not in ctx.teams:
        ctx.add(path, f"{arg!r} is not a player or team")
    return Life(arg)


def answer(era: type[Era], state: GameState, value: Life, path: str) -> int:
    return state.life(value.player)


def schema() -> sp.Schema:
    return sp.string("A player's (or, in Two-Headed Giant, a team's) life total.")


SPEC: QuerySpec[Life] = QuerySpec(
    name="life", value_type="int", parse=parse, answer=answer, schema=schema)
