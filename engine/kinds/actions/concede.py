"""`concede: {player: PLAYER}`: a player concedes. They lose the game and leave it at once
(104.3a). In a game that goes on without them, everything they own leaves with them
(800.4a; engine.departure)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.departure import continues_without, leave_game
from engine.eras import Era
from engine.errors import DocumentError
from engine.kinds.base import (
    ActionSpec,
    Editor,
    EditorField,
    ParseContext,
    PerformContext,
    gettext_noop,
)
from engine.state import GameState, evolve
from engine.trace import Trace


@dataclass(frozen=True, slots=True)
class Concede:
    player: str


def parse(ctx: ParseContext, args: Any, path: str) -> Concede | None:
    if not isinstance(args, dict) or set(args) != {"player"}:
        ctx.add(path, "`concede` takes {player: PLAYER}")
        return None
    if args["player"] not in ctx.players:
        ctx.add(f"{path}.player", f"{args['player']!r} is not a player")
        return None
    return Concede(args["player"])


def perform(era: type[Era], state: GameState, trace: Trace, value: Concede,
            at: PerformContext) -> GameState:
    pid = value.player
    if state.players[pid].lost:
        raise DocumentError.at(f"{at.path}.player", f"{pid} has already left the game")
    goes_on = continues_without(state, {pid})
    state = state.with_player(evolve(state.players[pid], lost=True))
    trace.add("game.concede", "game.concedes", player=pid)
    if goes_on:
        state = leave_game(era, state, trace, pid)
    return state


def to_args(data: Mapping[str, Any]) -> Any:
    return {"player": data.get("player")}


def from_args(args: Any) -> dict[str, Any] | None:
    return {"player": args.get("player", "") if isinstance(args, dict) else ""}


def schema() -> sp.Schema:
    return sp.fields("A player concedes: they lose and leave the game (104.3a).",
                     {"player": sp.string("The player who concedes.")}, ("player",))


SPEC: ActionSpec[Concede] = ActionSpec(
    name="concede", parse=parse, perform=perform, schema=schema,
    editor=Editor((EditorField("player", "id", gettext_noop("Player who concedes")),),
                  to_args, from_args))
