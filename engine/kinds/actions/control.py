"""`control: {ID: PLAYER, ...}`: an effect changes control of permanents (a permanent
that changes controller is removed from combat, 506.4)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.eras import Era
from engine.errors import DocumentError
from engine.kinds.base import (
    ActionSpec,
    ParseContext,
    PerformContext,
    gettext_noop,
    pairs_editor,
)
from engine.state import GameState
from engine.trace import Trace
from engine.zones import change_control


@dataclass(frozen=True, slots=True)
class Control:
    controllers: Mapping[str, str]
    """Each permanent -> its new controller."""


def parse(ctx: ParseContext, args: Any, path: str) -> Control | None:
    if not ctx.mapping(args, path, "control"):
        return None
    for o, pl in args.items():
        ctx.obj_ref(o, f"{path}.{o}")
        if pl not in ctx.players:
            ctx.add(f"{path}.{o}", f"{pl!r} is not a player")
    return Control(dict(args))


def perform(era: type[Era], state: GameState, trace: Trace, value: Control,
            at: PerformContext) -> GameState:
    for oid, player in value.controllers.items():
        if not state.obj(oid).on_battlefield:
            raise DocumentError.at(f"{at.path}.{oid}", f"{oid} is not on the battlefield")
        state = change_control(state, oid, player, trace)
    return state


def schema() -> sp.Schema:
    return sp.mapping("An effect changes control: ID: PLAYER.", {"type": "string"})



SPEC: ActionSpec[Control] = ActionSpec(
    name="control", parse=parse, perform=perform, schema=schema,
    editor=pairs_editor(gettext_noop("Object: new controller (one per line)")))
