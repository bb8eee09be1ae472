"""`combat_damage: {}`: the remaining combat damage steps (510); `{step: first-strike}`
only the first-strike one (510.4); `replacement_order` orders the replacement and
prevention effects that apply to the same damage (616.1)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import combat as cb
from engine import sba
from engine import schema_parts as sp
from engine.combat_damage import one_step
from engine.eras import Era
from engine.errors import IllegalAction, illegal
from engine.kinds.base import (
    ActionSpec,
    Editor,
    EditorField,
    ParseContext,
    PerformContext,
    gettext_noop,
    listed,
    present,
)
from engine.replacement import order_schema, parse_order
from engine.state import GameState
from engine.trace import Trace


@dataclass(frozen=True, slots=True)
class CombatDamage:
    first_strike_only: bool = False
    """Only the first-strike combat damage step."""
    replacement_order: tuple[str, ...] | None = None
    """The affected players' order for the effects that apply (616.1)."""


def parse(ctx: ParseContext, args: Any, path: str) -> CombatDamage | None:
    if args is None:
        args = {}
    if not isinstance(args, dict):
        ctx.add(path, "`combat_damage` takes {} or {step: first-strike}")
        return None
    ctx.fields(args, path, ("step", "replacement_order"), ())
    if "step" in args and args["step"] != "first-strike":
        ctx.add(f"{path}.step", "the only step to name is `first-strike`")
    order = parse_order(ctx.add, args.get("replacement_order"), f"{path}.replacement_order")
    return CombatDamage(args.get("step") == "first-strike", order)


def perform(era: type[Era], state: GameState, trace: Trace, value: CombatDamage,
            at: PerformContext) -> GameState:
    """The remaining combat damage steps (510), or only the first-strike one (510.4)."""
    combat = state.combat
    if combat is None or not combat.attackers and not combat.pending:
        raise illegal(at.path, era, "combat.damage-dealt", "damage.no-combat",
                      "no creature is attacking: there is no combat damage step")
    only_first = value.first_strike_only
    if combat.pending:
        # Lorwyn: damage already on the stack resolves first.
        was_first = combat.pending_first_strike
        state = cb.resolve_pending(era, state, trace)
        state, _ = sba.check(era, state, trace, at.keep)
        if only_first and not was_first:
            raise _no_first_strike(era, at.path)
        if only_first or not was_first:
            return state
    else:
        if combat.regular_done:
            raise illegal(at.path, era, "combat.damage-dealt", "damage.done",
                          "combat damage was already dealt this combat")
        first = cb.first_strike_step_needed(state)
        if only_first and not first:
            raise _no_first_strike(era, at.path)
        if first:
            state = one_step(era, state, trace, True, at.path)
            state, _ = sba.check(era, state, trace, at.keep)
            if only_first:
                return state
    if state.combat is not None and not state.combat.regular_done:
        state = one_step(era, state, trace, False, at.path)
    return state


def _no_first_strike(era: type[Era], path: str) -> IllegalAction:
    return illegal(path, era, "combat.first-strike-step", "damage.no-first-strike",
                   "there is no first-strike combat damage step: no attacking or blocking "
                   "creature has first strike or double strike")


def schema() -> sp.Schema:
    return {"description": "Perform the remaining combat damage steps; `{step: first-strike}` "
                           "performs only the first-strike step.",
            "anyOf": [{"type": "null"},
                      sp.fields("", {"step": {"const": "first-strike"},
                                     "replacement_order": order_schema()})]}


def to_args(data: Mapping[str, Any]) -> Any:
    return present(("step", "first-strike" if data.get("first_strike") else None),
                   ("replacement_order", listed(data.get("replacement_order")) or None))


def from_args(args: Any) -> dict[str, Any] | None:
    a = args if isinstance(args, dict) else {}
    return {"first_strike": a.get("step") == "first-strike",
            "replacement_order": ", ".join(a.get("replacement_order") or [])}


SPEC: ActionSpec[CombatDamage] = ActionSpec(
    name="combat_damage", parse=parse, perform=perform, schema=schema,
    editor=Editor((EditorField("first_strike", "bool",
                               gettext_noop("Only the first-strike damage step")),
                   EditorField("replacement_order", "list",
                               gettext_noop("Replacement order"))),
                  to_args, from_args))
