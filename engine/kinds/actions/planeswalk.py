"""`planeswalk: {}`: an effect makes the planar controller planeswalk (701.31)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.eras import Era
from engine.errors import illegal
from engine.kinds.base import ActionSpec, Editor, ParseContext, PerformContext
from engine.planechase import planeswalk
from engine.state import GameState
from engine.trace import Trace


@dataclass(frozen=True, slots=True)
class Planeswalk:
    pass


def parse(ctx: ParseContext, args: Any, path: str) -> Planeswalk | None:
    if args not in (None, {}):
        ctx.add(path, "`planeswalk` takes {}")
        return None
    return Planeswalk()


def perform(era: type[Era], state: GameState, trace: Trace, value: Planeswalk,
            at: PerformContext) -> GameState:
    if state.planechase is None:
        raise illegal(at.path, era, "planechase.planeswalk", "planeswalk.no-planechase",
                      "this game is not a Planechase game")
    return planeswalk(era, state, trace)


def schema() -> sp.Schema:
    return sp.nothing("An effect makes the planar controller planeswalk.")


SPEC: ActionSpec[Planeswalk] = ActionSpec(
    name="planeswalk", parse=parse, perform=perform, schema=schema, editor=Editor())
