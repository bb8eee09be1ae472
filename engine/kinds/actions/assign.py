"""`assign: {ATTACKER: {RECIPIENT: N, ...}}`: the attacking player's combat damage
assignment (510.1), checked now for the creatures that deal damage in the next combat
damage step."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import combat as cb
from engine import schema_parts as sp
from engine.document import MAX_NUMBER, is_int
from engine.eras import Era
from engine.errors import IllegalAction, illegal
from engine.kinds.base import (
    ActionSpec,
    Editor,
    EditorField,
    ParseContext,
    PerformContext,
    gettext_noop,
    pairs_text,
    parse_pairs,
)
from engine.state import GameState, evolve
from engine.trace import Trace


@dataclass(frozen=True, slots=True)
class Assign:
    amounts: Mapping[str, Mapping[str, int]]
    """Each attacking creature -> recipient -> the damage assigned to it."""


def parse(ctx: ParseContext, args: Any, path: str) -> Assign | None:
    if not ctx.mapping(args, path, "assign"):
        return None
    for a, amounts in args.items():
        ctx.obj_ref(a, f"{path}.{a}")
        if not isinstance(amounts, dict) or not amounts:
            ctx.add(f"{path}.{a}", "an assignment is a mapping recipient -> amount")
            continue
        for r, n in amounts.items():
            ctx.any_ref(r, f"{path}.{a}.{r}")
            if not is_int(n) or not 0 <= n <= MAX_NUMBER:
                ctx.add(f"{path}.{a}.{r}", "an amount of damage is a whole number from 0")
    return Assign({a: dict(amounts) for a, amounts in args.items()
                   if isinstance(amounts, dict)})


def perform(era: type[Era], state: GameState, trace: Trace, value: Assign,
            at: PerformContext) -> GameState:
    combat = state.combat
    if combat is None or not combat.attackers:
        raise illegal(at.path, era, "combat.damage-blocked", "assign.no-combat",
                      "no creature is attacking")
    assignments = dict(combat.assignments)
    paths = dict(combat.assign_paths)
    for attacker, amounts in value.amounts.items():
        if attacker not in combat.attackers:
            raise illegal(f"{at.path}.{attacker}", era, "combat.damage-blocked",
                          "assign.not-attacking", f"{attacker} is not an attacking creature")
        assignments[attacker] = dict(amounts)
        paths[attacker] = f"{at.path}.{attacker}"
    state = evolve(state, combat=evolve(combat, assignments=assignments, assign_paths=paths))
    # Check now what can be checked now: the assignments of the creatures that deal damage
    # in the next combat damage step (others wait for the step they belong to).
    first = cb.first_strike_step_needed(state)
    try:
        cb.assign_step(era, state, Trace(era), first_strike=first)
    except cb.AssignmentError as err:
        if err.attacker in value.amounts:
            raise IllegalAction(f"{at.path}.{err.attacker}", err.violation,
                                era.key) from None
    return state


def schema() -> sp.Schema:
    return sp.mapping(
        "The attacking player's combat damage assignment: ATTACKER: {RECIPIENT: N}.",
        {"type": "object", "minProperties": 1,
         "additionalProperties": sp.integer("An amount of damage.", 0)})


def to_args(data: Mapping[str, Any]) -> Any:
    return {data["attacker"]: parse_pairs(data.get("pairs") or "")}


def from_args(args: Any) -> dict[str, Any] | None:
    attacker, amounts = next(iter((args if isinstance(args, dict) else {}).items()))
    return {"attacker": attacker, "pairs": pairs_text(amounts)}


SPEC: ActionSpec[Assign] = ActionSpec(
    name="assign", parse=parse, perform=perform, schema=schema, quiet=True,
    editor=Editor((EditorField("attacker", "id", gettext_noop("Attacker")),
                   EditorField("pairs", "pairs",
                               gettext_noop("Recipient: damage (one per line)"))),
                  to_args, from_args))
