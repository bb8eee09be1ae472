"""`order: {ATTACKER: [BLOCKER, ...]}`: the damage assignment order of a blocked creature
(509.2, in the eras that have one; elsewhere it does nothing)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import combat as cb
from engine import schema_parts as sp
from engine.eras import Era
from engine.errors import illegal, raise_violation
from engine.kinds.base import (
    ActionSpec,
    Editor,
    EditorField,
    ParseContext,
    PerformContext,
    gettext_noop,
    listed,
)
from engine.state import GameState, evolve
from engine.trace import Trace


@dataclass(frozen=True, slots=True)
class Order:
    orders: Mapping[str, tuple[str, ...]]
    """Each attacking creature -> its blockers, first to last."""


def parse(ctx: ParseContext, args: Any, path: str) -> Order | None:
    if not ctx.mapping(args, path, "order"):
        return None
    for a, order in args.items():
        ctx.obj_ref(a, f"{path}.{a}")
        if not isinstance(order, list):
            ctx.add(f"{path}.{a}", "an order is a list of blocker ids")
        else:
            for j, b in enumerate(order):
                ctx.obj_ref(b, f"{path}.{a}[{j}]")
    return Order({a: tuple(order) for a, order in args.items() if isinstance(order, list)})


def perform(era: type[Era], state: GameState, trace: Trace, value: Order,
            at: PerformContext) -> GameState:
    if era.blocker_division != "ordered":
        trace.add(None, "order.no-rule", removed_rule="combat.damage-assignment-order")
        return state
    combat = state.combat
    if combat is None:
        raise illegal(at.path, era, "combat.damage-assignment-order", "order.no-combat",
                      "there is no combat")
    blockers = dict(combat.blockers)
    for attacker, order in value.orders.items():
        raise_violation(f"{at.path}.{attacker}", era,
                        cb.order_violation(era, state, attacker, list(order)))
        blockers[attacker] = tuple(order)
        # This is the announcement (509.2): it replaces the order the block declaration
        # stood for, so the order is traced once.
        trace.steps[:] = [s for s in trace.steps if not (
            s.event == "combat.order" and s.data.get("attacker") == attacker
            and s.data.get("as_declared"))]
        trace.add("combat.damage-assignment-order", "combat.order", attacker=attacker,
                  order=list(order))
    return evolve(state, combat=evolve(combat, blockers=blockers))


def schema() -> sp.Schema:
    return sp.mapping("Damage assignment order: ATTACKER: [BLOCKER, ...] (only in eras "
                      "that have it; elsewhere it does nothing).",
                      sp.ids("The blockers, first to last."))


def to_args(data: Mapping[str, Any]) -> Any:
    return {data["attacker"]: listed(data.get("blockers"))}


def from_args(args: Any) -> dict[str, Any] | None:
    attacker, blockers = next(iter((args if isinstance(args, dict) else {}).items()))
    return {"attacker": attacker, "blockers": ", ".join(blockers)}


SPEC: ActionSpec[Order] = ActionSpec(
    name="order", parse=parse, perform=perform, schema=schema, quiet=True, declaration=True,
    editor=Editor((EditorField("attacker", "id", gettext_noop("Attacker")),
                   EditorField("blockers", "list",
                               gettext_noop("Its blockers, first to last"))),
                  to_args, from_args))
