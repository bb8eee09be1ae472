"""`activate: {permanent, ability, targets, x, redirect_to}`: activate a loyalty ability
(606): its timing, once per turn per permanent, and its loyalty cost."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import sba
from engine import schema_parts as sp
from engine.cards import Ability, find_card
from engine.casting import check_redirects, check_targets
from engine.damage import Source
from engine.effects import resolve_effect
from engine.eras import Era
from engine.errors import raise_violation
from engine.kinds.base import (
    ActionSpec,
    Editor,
    EditorField,
    ParseContext,
    PerformContext,
    gettext_noop,
    listed,
    pairs_text,
    parse_pairs,
    present,
)
from engine.loyalty import loyalty_violation
from engine.state import GameState, evolve, with_counters
from engine.trace import Trace


@dataclass(frozen=True, slots=True)
class Activate:
    permanent: str
    ability: int
    """The loyalty ability, 1-based in printed order."""
    targets: tuple[str, ...] = ()
    x: int | None = None
    redirect_to: Mapping[str, str] = field(default_factory=dict)
    """Player -> the planeswalker the damage is redirected to (before dom-2018)."""


def parse(ctx: ParseContext, args: Any, path: str) -> Activate | None:
    if not isinstance(args, dict):
        ctx.add(path, "`activate` takes a mapping {permanent, ability, targets, x}")
        return None
    ctx.fields(args, path, ("permanent", "ability", "targets", "x", "redirect_to"),
               ("permanent", "ability"))
    if "permanent" in args:
        ctx.obj_ref(args["permanent"], f"{path}.permanent")
    ctx.int_field(args, "ability", path, 1)
    ctx.int_field(args, "x", path)
    targets = ctx.id_list(args.get("targets", []), f"{path}.targets")
    ctx.redirect_map(args.get("redirect_to"), f"{path}.redirect_to")
    return Activate(args.get("permanent", ""), args.get("ability", 0), targets,
                    args.get("x"), dict(args.get("redirect_to") or {}))


def perform(era: type[Era], state: GameState, trace: Trace, value: Activate,
            at: PerformContext) -> GameState:
    permanent = value.permanent
    index = int(value.ability)
    x = value.x
    raise_violation(at.path, era, loyalty_violation(era, state, permanent, index, x))
    obj = state.obj(permanent)
    assert obj.card is not None
    ability: Ability = find_card(obj.card).abilities[index - 1]
    wording = ability.wording(era.key)
    targets = list(value.targets)
    check_targets(era, state, at.path, obj.controller, wording, targets)
    source = Source.of(obj)
    check_redirects(era, state, at.path, source, value.redirect_to)
    cost = ability.cost_value(x)
    state = state.with_object(with_counters(obj, "loyalty", cost))
    state = evolve(state, activated=state.activated | {(obj.id, obj.generation)})
    trace.add("loyalty.cost", "loyalty.activated", permanent=permanent, ability=index,
              cost=cost, loyalty=state.obj(permanent).counter("loyalty"), targets=targets)
    # The ability waits on the stack; state-based actions happen before it resolves, so a
    # planeswalker brought to 0 loyalty by the cost is gone first (704.5i).
    state, _ = sba.check(era, state, trace, at.keep)
    return resolve_effect(era, state, trace, at.path, ability.effect, source, wording,
                          targets, x, value.redirect_to)


def schema() -> sp.Schema:
    return sp.fields("Activate a loyalty ability: checks timing, once per turn per "
                     "permanent, and the loyalty cost.", {
        "permanent": sp.string("The planeswalker."),
        "ability": sp.integer("The loyalty ability, 1-based in printed order.", 1),
        "targets": sp.ids("Target ids."),
        "x": sp.integer("The value of X.", 0),
        "redirect_to": sp.redirect_map(),
    }, ("permanent", "ability"))


def to_args(data: Mapping[str, Any]) -> Any:
    return present(("permanent", data.get("permanent")), ("ability", data.get("ability")),
                   ("targets", listed(data.get("targets")) or None), ("x", data.get("x")),
                   ("redirect_to", parse_pairs(data.get("redirect") or "") or None))


def from_args(args: Any) -> dict[str, Any] | None:
    a = args if isinstance(args, dict) else {}
    return {"permanent": a.get("permanent", ""), "ability": a.get("ability"),
            "targets": ", ".join(a.get("targets") or []), "x": a.get("x"),
            "redirect": pairs_text(a.get("redirect_to"))}


SPEC: ActionSpec[Activate] = ActionSpec(
    name="activate", parse=parse, perform=perform, schema=schema,
    editor=Editor((
        EditorField("permanent", "id", gettext_noop("Planeswalker")),
        EditorField("ability", "int", gettext_noop("Loyalty ability (1, 2, 3…)")),
        EditorField("targets", "list", gettext_noop("Targets")),
        EditorField("x", "int", gettext_noop("X")),
        EditorField("redirect", "pairs", gettext_noop("Redirect, player: planeswalker")),
    ), to_args, from_args))
