"""`{lost: PLAYER}`: whether a player (or a Two-Headed Giant team) has lost the game
(104.3; by a state-based action: 0 or less life, ten poison counters, 704.5a-c)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.eras import Era
from engine.kinds.base import ParseContext, QuerySpec
from engine.state import GameState


@dataclass(frozen=True, slots=True)
class Lost:
    player: str


def parse(ctx: ParseContext, arg: Any, path: str) -> Lost | None:
    if arg not in ctx.players and arg not in ctx.teams:
        ctx.add(path, f"{arg!r} is not a player or team")
        return None
    return Lost(arg)


def answer(era: type[Era], state: GameState, value: Lost, path: str) -> bool:
    if value.player in state.teams:
        return state.teams[value.player].lost
    team = state.team_of(value.player)
    return state.players[value.player].lost or (team is not None and team.lost)


def schema() -> sp.Schema:
    return sp.string("Whether a player (or a Two-Headed Giant team) has lost the game.")


SPEC: QuerySpec[Lost] = QuerySpec(
    name="lost", value_type="bool", parse=parse, answer=answer, schema=schema)
