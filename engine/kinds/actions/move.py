"""`move: {ID: ZONE, ...}`: an effect moves objects to another zone, each becoming a new
object (400.7)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.eras import Era
from engine.errors import illegal
from engine.kinds.base import (
    ActionSpec,
    ParseContext,
    PerformContext,
    gettext_noop,
    pairs_editor,
)
from engine.state import GameState
from engine.trace import Trace
from engine.zones import move_object

MOVE_ZONES = ("graveyard", "exile", "hand", "library")


@dataclass(frozen=True, slots=True)
class Move:
    zones: Mapping[str, str]
    """Each object -> the zone it moves to (one of ``MOVE_ZONES``)."""


def parse(ctx: ParseContext, args: Any, path: str) -> Move | None:
    if not ctx.mapping(args, path, "move"):
        return None
    for o, z in args.items():
        ctx.obj_ref(o, f"{path}.{o}")
        if z not in MOVE_ZONES:
            ctx.add(f"{path}.{o}", f"unknown zone {z!r}; expected one of: "
                                   f"{', '.join(MOVE_ZONES)}")
    return Move(dict(args))


def perform(era: type[Era], state: GameState, trace: Trace, value: Move,
            at: PerformContext) -> GameState:
    for oid, zone in value.zones.items():
        if state.obj(oid).zone == "command":
            raise illegal(f"{at.path}.{oid}", era, "planechase.command-zone",
                          "move.command-zone", f"{oid} is a plane or phenomenon: it can't "
                          f"leave the command zone")
        state = move_object(state, oid, zone, trace, rule_key="zone.new-object",
                            event="zone.moved")
    return state


def schema() -> sp.Schema:
    return sp.mapping("An effect moves objects: ID: ZONE.",
                      sp.enum(MOVE_ZONES, "The zone it moves to."))



SPEC: ActionSpec[Move] = ActionSpec(
    name="move", parse=parse, perform=perform, schema=schema,
    editor=pairs_editor(gettext_noop("Object: zone (one per line)")))
