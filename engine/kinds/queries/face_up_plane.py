"""`{face_up_plane: {}}`: the face-up plane's id (Planechase, 901)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.eras import Era
from engine.kinds.base import ParseContext, QuerySpec
from engine.state import GameState


@dataclass(frozen=True, slots=True)
class FaceUpPlane:
    pass


def parse(ctx: ParseContext, arg: Any, path: str) -> FaceUpPlane | None:
    if arg not in (None, {}, True):
        ctx.add(path, "`face_up_plane` takes {}")
        return None
    return FaceUpPlane()


def answer(era: type[Era], state: GameState, value: FaceUpPlane, path: str) -> str | None:
    pc = state.planechase
    return pc.face_up[0] if pc is not None and pc.face_up else None


def schema() -> sp.Schema:
    return sp.nothing("The face-up plane's id.")


SPEC: QuerySpec[FaceUpPlane] = QuerySpec(
    name="face_up_plane", value_type="str", parse=parse, answer=answer, schema=schema)
