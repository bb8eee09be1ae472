"""`{controller: ID}`: who controls an object; a face-up plane is controlled by the
planar controller (901.6)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.eras import Era
from engine.kinds.base import ParseContext, QuerySpec, object_in_game
from engine.planechase import planar_controller
from engine.state import GameState


@dataclass(frozen=True, slots=True)
class Controller:
    object: str


def parse(ctx: ParseContext, arg: Any, path: str) -> Controller | None:
    ctx.obj_ref(arg, path)
    return Controller(arg)


def answer(era: type[Era], state: GameState, value: Controller, path: str) -> str:
    obj = object_in_game(state, value.object, path)
    pc = state.planechase
    if pc is not None and value.object in pc.face_up:
        return planar_controller(state)  # 901.6: the planar controller
    return obj.controller


def schema() -> sp.Schema:
    return sp.string("Who controls an object (a face-up plane: the planar "
                     "controller).")


SPEC: QuerySpec[Controller] = QuerySpec(
    name="controller", value_type="str", parse=parse, answer=answer, schema=schema)
