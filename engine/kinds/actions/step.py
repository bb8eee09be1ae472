"""`step: STEP`: advance to a later step of this turn (500); passing the end of combat
ends it (511), the beginning of the end step triggers its abilities (513), and the
cleanup step removes damage (514)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import combat as cb
from engine import schema_parts as sp
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
from engine.state import STEPS, GameState, evolve, step_index
from engine.trace import Trace
from engine.turns import cleanup, end_combat, end_step


@dataclass(frozen=True, slots=True)
class Step:
    step: str
    """One of ``STEPS``, later than the current one."""


def parse(ctx: ParseContext, args: Any, path: str) -> Step | None:
    if args not in STEPS:
        ctx.add(path, f"unknown step {args!r}; expected one of: {', '.join(STEPS)}")
        return None
    return Step(args)


def perform(era: type[Era], state: GameState, trace: Trace, value: Step,
            at: PerformContext) -> GameState:
    target = value.step
    if step_index(target) <= step_index(state.turn.step):
        raise DocumentError.at(f"{at.path}", f"the turn is already at {state.turn.step}: "
                               f"`step` moves only to a later step of this turn")
    if state.combat is not None and state.combat.pending:
        state = cb.resolve_pending(era, state, trace)
    if step_index(target) > step_index("end-of-combat") and state.combat is not None:
        state = end_combat(state, trace)
    if step_index(target) >= step_index("end") > step_index(state.turn.step):
        # The end step begins: its "at the beginning of" abilities (513, 603.2b).
        state = end_step(era, evolve(state, turn=evolve(state.turn, step="end")), trace)
    if target == "cleanup":
        state = cleanup(state, trace)
    trace.add(None, "turn.step", step=target)
    return evolve(state, turn=evolve(state.turn, step=target))


def schema() -> sp.Schema:
    return sp.enum(STEPS, "Advance to a later step of this turn.")


def to_args(data: Mapping[str, Any]) -> Any:
    return data.get("step")


def from_args(args: Any) -> dict[str, Any] | None:
    return {"step": args}


SPEC: ActionSpec[Step] = ActionSpec(
    name="step", parse=parse, perform=perform, schema=schema,
    editor=Editor((EditorField("step", "choice", gettext_noop("Step"), STEPS),),
                  to_args, from_args))
