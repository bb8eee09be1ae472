"""`damage: {source, to, amount, combat, redirect_to, replacement_order}`: a damage event
from a source (an effect the scenario does not model as a card, 120), modified by the
replacement and prevention effects that apply (616.1)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.damage import Source, damage_to_player, deal_damage, redirection_violation
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
class Damage:
    source: str
    to: str
    """The player, team or object dealt damage."""
    amount: int
    combat: bool = False
    redirect_to: str | None = None
    """A planeswalker to redirect it to (the redirection rule, before dom-2018)."""
    replacement_order: tuple[str, ...] | None = None
    """The affected player's order for the effects that apply (616.1)."""


def parse(ctx: ParseContext, args: Any, path: str) -> Damage | None:
    if not isinstance(args, dict):
        ctx.add(path, "`damage` takes a mapping {source, to, amount}")
        return None
    ctx.fields(args, path, ("source", "to", "amount", "combat", "redirect_to",
                            "replacement_order"), ("source", "to", "amount"))
    if "source" in args:
        ctx.obj_ref(args["source"], f"{path}.source")
    if "to" in args:
        ctx.any_ref(args["to"], f"{path}.to")
    ctx.int_field(args, "amount", path)
    if "combat" in args and not isinstance(args["combat"], bool):
        ctx.add(f"{path}.combat", "`combat` must be true or false")
    if args.get("redirect_to") is not None:
        ctx.obj_ref(args["redirect_to"], f"{path}.redirect_to")
    order = parse_order(ctx.add, args.get("replacement_order"), f"{path}.replacement_order")
    return Damage(args.get("source", ""), args.get("to", ""), args.get("amount", 0),
                  bool(args.get("combat", False)), args.get("redirect_to"), order)


def perform(era: type[Era], state: GameState, trace: Trace, value: Damage,
            at: PerformContext) -> GameState:
    src_id = value.source
    obj = state.objects.get(src_id)
    source = Source.of(obj) if obj is not None else Source(src_id, src_id)
    to = value.to
    amount = int(value.amount)
    combat = value.combat
    redirect = value.redirect_to
    if to not in state.players:
        target = state.obj(to)
        if not target.on_battlefield:
            raise illegal(f"{at.path}.to", era, "damage.to-creature", "damage.gone",
                          f"{to} is not on the battlefield")
    if redirect is not None and era.redirection_rule:
        if to not in state.players:
            raise illegal(f"{at.path}.redirect_to", era, "pw.redirection",
                          "redirect.not-player",
                          "only damage to a player can be redirected to a planeswalker")
        why = redirection_violation(era, state, source, to, redirect, combat=combat)
        if why is not None:
            raise IllegalAction(f"{at.path}.redirect_to", why, era.key)
    if to in state.players and not combat:
        state, _ = damage_to_player(era, state, trace, source, to, amount, redirect)
        return state
    if redirect is not None:
        trace.add(None, "redirect.no-rule", removed_rule="pw.redirection")
    return deal_damage(era, state, trace, source, to, amount, combat=combat)


def schema() -> sp.Schema:
    return sp.fields("A damage event from a source (an effect the scenario does not "
                     "model as a card).", {
        "source": sp.string("The object that deals the damage."),
        "to": sp.string("The player, team or object dealt damage."),
        "amount": sp.integer("An amount of damage.", 0),
        "combat": sp.boolean("Whether it is combat damage (default false)."),
        "redirect_to": {"description": "A planeswalker to redirect it to (redirection "
                                       "rule, before dom-2018).",
                        "type": ["string", "null"]},
        "replacement_order": order_schema(),
    }, ("source", "to", "amount"))


def to_args(data: Mapping[str, Any]) -> Any:
    return present(("source", data.get("source")), ("to", data.get("to")),
                   ("amount", data.get("amount")),
                   ("combat", True if data.get("combat") else None),
                   ("redirect_to", data.get("redirect_one") or None),
                   ("replacement_order", listed(data.get("replacement_order")) or None))


def from_args(args: Any) -> dict[str, Any] | None:
    a = args if isinstance(args, dict) else {}
    return {"source": a.get("source", ""), "to": a.get("to", ""),
            "amount": a.get("amount"), "combat": bool(a.get("combat")),
            "redirect_one": a.get("redirect_to") or "",
            "replacement_order": ", ".join(a.get("replacement_order") or [])}


SPEC: ActionSpec[Damage] = ActionSpec(
    name="damage", parse=parse, perform=perform, schema=schema,
    editor=Editor((
        EditorField("source", "id", gettext_noop("Source")),
        EditorField("to", "id", gettext_noop("Dealt to")),
        EditorField("amount", "int", gettext_noop("Amount")),
        EditorField("combat", "bool", gettext_noop("Combat damage")),
        EditorField("redirect_one", "id", gettext_noop("Redirect to planeswalker")),
        EditorField("replacement_order", "list", gettext_noop("Replacement order")),
    ), to_args, from_args))
