"""`roll_planar_die: {by, result, effect}`: roll the planar die (the special action,
901.9, or a roll an effect causes)."""

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
    present,
)
from engine.planechase import perform_roll
from engine.state import GameState
from engine.trace import Trace

DIE_RESULTS = ("blank", "chaos", "planeswalk")


@dataclass(frozen=True, slots=True)
class RollPlanarDie:
    by: str
    result: str
    """What the die shows: one of ``DIE_RESULTS``."""
    effect: bool = False
    """A roll an effect causes: free, and not counted."""


def parse(ctx: ParseContext, args: Any, path: str) -> RollPlanarDie | None:
    if not isinstance(args, dict):
        ctx.add(path, "`roll_planar_die` takes {by: PLAYER, result: blank|chaos|planeswalk}")
        return None
    ctx.fields(args, path, ("by", "result", "effect"), ("by", "result"))
    if "by" in args and args["by"] not in ctx.players:
        ctx.add(f"{path}.by", f"{args['by']!r} is not a player")
    if "result" in args and args["result"] not in DIE_RESULTS:
        ctx.add(f"{path}.result", f"the planar die shows {', '.join(DIE_RESULTS)}")
    if "effect" in args and not isinstance(args["effect"], bool):
        ctx.add(f"{path}.effect", "`effect` (a roll caused by an effect) is true or false")
    return RollPlanarDie(args.get("by", ""), args.get("result", ""),
                         bool(args.get("effect", False)))


def perform(era: type[Era], state: GameState, trace: Trace, value: RollPlanarDie,
            at: PerformContext) -> GameState:
    return perform_roll(era, state, trace, at.path, value.by, value.result, value.effect)


def schema() -> sp.Schema:
    return sp.fields("Roll the planar die (the special action, 901.9).", {
        "by": sp.string("The player who rolls."),
        "result": sp.enum(DIE_RESULTS, "What the die shows."),
        "effect": sp.boolean("A roll an effect causes: free, and not counted."),
    }, ("by", "result"))


def to_args(data: Mapping[str, Any]) -> Any:
    return present(("by", data.get("by")), ("result", data.get("result")),
                   ("effect", True if data.get("effect") else None))


def from_args(args: Any) -> dict[str, Any] | None:
    a = args if isinstance(args, dict) else {}
    return {"by": a.get("by", ""), "result": a.get("result", "blank"),
            "effect": bool(a.get("effect"))}


SPEC: ActionSpec[RollPlanarDie] = ActionSpec(
    name="roll_planar_die", parse=parse, perform=perform, schema=schema,
    editor=Editor((
        EditorField("by", "id", gettext_noop("Rolled by")),
        EditorField("result", "choice", gettext_noop("Result"), DIE_RESULTS),
        EditorField("effect", "bool", gettext_noop("Caused by an effect (free, not counted)")),
    ), to_args, from_args))
