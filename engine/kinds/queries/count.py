"""`{count: {zone: Z, controller: P, types: [T, ...]}}`: how many objects match, every key
optional (`{count: {}}` counts every object in the game). An object matches if it is in
zone Z, is controlled by player P (a face-up plane or phenomenon by the planar
controller, 901.6) and has every card type listed in `types` (205.2a)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.eras import Era
from engine.kinds.base import ParseContext, QuerySpec
from engine.planechase import planar_controller
from engine.state import CARD_TYPES, ZONES, GameState, Obj

FIELDS = ("zone", "controller", "types")
"""The card types an object may have (as ``engine.setup.parse_object`` accepts them)."""


@dataclass(frozen=True, slots=True)
class Count:
    zone: str | None = None
    controller: str | None = None
    types: tuple[str, ...] = ()


def parse(ctx: ParseContext, arg: Any, path: str) -> Count | None:
    if not isinstance(arg, dict):
        ctx.add(path, "`count` takes a mapping {zone, controller, types} (each optional)")
        return None
    ctx.fields(arg, path, FIELDS, ())
    zone, controller, types = arg.get("zone"), arg.get("controller"), arg.get("types", [])
    if "zone" in arg and zone not in ZONES:
        ctx.add(f"{path}.zone", f"unknown zone {zone!r}; expected one of: {', '.join(ZONES)}")
    if "controller" in arg and controller not in ctx.players:
        ctx.add(f"{path}.controller", f"unknown player {controller!r}")
    if not isinstance(types, list):
        ctx.add(f"{path}.types", "`types` is a list of card types")
        return None
    for i, t in enumerate(types):
        if t not in CARD_TYPES:
            ctx.add(f"{path}.types[{i}]", f"unknown card type {t!r}; expected one of: "
                                          f"{', '.join(CARD_TYPES)}")
    return Count(zone, controller, tuple(types))


def _controller(state: GameState, obj: Obj) -> str:
    pc = state.planechase
    if pc is not None and obj.id in pc.face_up:
        return planar_controller(state)  # 901.6: the planar controller
    return obj.controller


def _matches(state: GameState, value: Count, obj: Obj) -> bool:
    return ((value.zone is None or obj.zone == value.zone)
            and (value.controller is None or _controller(state, obj) == value.controller)
            and all(t in obj.types for t in value.types))


def answer(era: type[Era], state: GameState, value: Count, path: str) -> int:
    return sum(1 for obj in state.objects.values() if _matches(state, value, obj))


def schema() -> sp.Schema:
    return sp.fields("How many objects match: in that zone, controlled by that player, with "
                     "every listed card type (each key optional; {} counts every object).", {
                         "zone": sp.enum(ZONES, "The zone."),
                         "controller": sp.string("The player who controls them."),
                         "types": {"type": "array", "description": "Card types they all "
                                                                   "have.",
                                   "items": sp.enum(CARD_TYPES, "A card type.")},
                     })


SPEC: QuerySpec[Count] = QuerySpec(
    name="count", value_type="int", parse=parse, answer=answer, schema=schema)
