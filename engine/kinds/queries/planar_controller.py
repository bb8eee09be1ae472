"""`{planar_controller: {}}`: the planar controller (901.6)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.eras import Era
from engine.kinds.base import ParseContext, QuerySpec
from engine.planechase import planar_controller
from engine.state import GameState


@dataclass(frozen=True, slots=True)
class PlanarController:
    pass


def parse(ctx: ParseContext, arg: Any, path: str) -> PlanarController | None:
    if arg not in (None, {}, True):
        ctx.add(path, "`planar_controller` takes {}")
        return None
    return PlanarController()


def answer(era: type[Era], state: GameState, value: PlanarController,
           path: str) -> str | None:
    return planar_controller(state) if state.planechase is not None else None


def schema() -> sp.Schema:
    return {"description": "The planar controller.",
            "anyOf": [{"type": "null"}, {"const": True},
                      {"type": "object", "maxProperties": 0}]}


SPEC: QuerySpec[PlanarController] = QuerySpec(
    name="planar_controller", value_type="str", parse=parse, answer=answer, schema=schema)
