"""`choose: {keep: ID}`: the choice the legend rule or the planeswalker uniqueness rule asks
for (state-based actions, 704): the player keeps this object. The runner gives it to the
state-based actions of the action before; on its own it does nothing."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.eras import Era
from engine.kinds.base import (
    ActionSpec,
    Editor,
    EditorField,
    ParseContext,
    PerformContext,
    gettext_noop,
)
from engine.state import GameState
from engine.trace import Trace


@dataclass(frozen=True, slots=True)
class Choose:
    keep: str
    """The object kept."""


def parse(ctx: ParseContext, args: Any, path: str) -> Choose | None:
    if not isinstance(args, dict):
        ctx.add(path, "`choose` takes {keep: ID}")
        return None
    ctx.fields(args, path, ("keep",), ("keep",))
    if "keep" in args:
        ctx.obj_ref(args["keep"], f"{path}.keep")
    return Choose(args.get("keep", ""))


def perform(era: type[Era], state: GameState, trace: Trace, value: Choose,
            at: PerformContext) -> GameState:
    trace.add(None, "choose.not-asked", keep=value.keep)
    return state


def schema() -> sp.Schema:
    return sp.fields("The choice the legend or uniqueness rule asks for: the player "
                     "keeps this object.", {"keep": sp.string("The object kept.")},
                     ("keep",))


def to_args(data: Mapping[str, Any]) -> Any:
    return {"keep": data.get("keep")}


def from_args(args: Any) -> dict[str, Any] | None:
    return {"keep": (args if isinstance(args, dict) else {}).get("keep", "")}


SPEC: ActionSpec[Choose] = ActionSpec(
    name="choose", parse=parse, perform=perform, schema=schema, quiet=True,
    editor=Editor((EditorField("keep", "id", gettext_noop("The player keeps")),),
                  to_args, from_args))
