"""`cast: {card, by, targets, x, redirect_to}`: cast a spell (an object in a hand, or a
catalog card by its slug) and resolve it (601, 608)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import schema_parts as sp
from engine.cards import Effect, UnknownCard, find_card
from engine.casting import (
    card_exists_violation,
    check_redirects,
    check_sorcery_timing,
    check_targets,
)
from engine.damage import Source
from engine.document import MAX_NUMBER, is_int
from engine.effects import resolve_effect
from engine.eras import Era
from engine.errors import DocumentError, illegal, raise_violation
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
from engine.state import GameState
from engine.trace import Trace
from engine.zones import enter_battlefield, move_object


@dataclass(frozen=True, slots=True)
class Cast:
    card: str
    """An object id in a hand, or a catalog card's slug."""
    by: str
    targets: tuple[str, ...] | Mapping[str, int] = ()
    """Target ids; for a spell that divides damage, target -> amount."""
    x: int | None = None
    mode: int | None = None
    redirect_to: Mapping[str, str] = field(default_factory=dict)
    """Player -> the planeswalker the damage is redirected to (before dom-2018)."""


def parse(ctx: ParseContext, args: Any, path: str) -> Cast | None:
    if not isinstance(args, dict):
        ctx.add(path, "`cast` takes a mapping {card, by, targets, x, redirect_to}")
        return None
    ctx.fields(args, path, ("card", "by", "targets", "x", "mode", "redirect_to"),
               ("card", "by"))
    card = args.get("card")
    if card not in ctx.known:
        try:
            find_card(str(card))
        except UnknownCard:
            ctx.add(f"{path}.card", f"unknown card or object {card!r}")
    if "by" in args and args["by"] not in ctx.players:
        ctx.add(f"{path}.by", f"{args['by']!r} is not a player")
    targets = args.get("targets", [])
    value_targets: tuple[str, ...] | dict[str, int] = ()
    if isinstance(targets, list):
        value_targets = ctx.id_list(targets, f"{path}.targets")
    elif isinstance(targets, dict):
        for t, n in targets.items():
            ctx.any_ref(t, f"{path}.targets.{t}")
            if not is_int(n) or not 0 <= n <= MAX_NUMBER:
                ctx.add(f"{path}.targets.{t}", "an amount is a whole number")
        value_targets = dict(targets)
    else:
        ctx.add(f"{path}.targets", "`targets` is a list of ids (or, for a spell that "
                                   "divides damage, a mapping id -> amount)")
    ctx.int_field(args, "x", path)
    ctx.int_field(args, "mode", path, 1)
    ctx.redirect_map(args.get("redirect_to"), f"{path}.redirect_to")
    return Cast(str(card), args.get("by", ""), value_targets, args.get("x"), args.get("mode"),
                dict(args.get("redirect_to") or {}))


def perform(era: type[Era], state: GameState, trace: Trace, value: Cast,
            at: PerformContext) -> GameState:
    ref = value.card
    by = value.by
    obj = state.objects.get(ref)
    if obj is not None:
        if obj.zone != "hand" or obj.owner != by:
            raise illegal(f"{at.path}.card", era, "spell.targets", "cast.not-in-hand",
                          f"{ref} is not in {by}'s hand")
        if obj.card is None:
            raise DocumentError.at(f"{at.path}.card",
                                   f"{ref} is an inline object: only catalog cards can be cast")
        card = find_card(obj.card)
    else:
        card = find_card(ref)
    raise_violation(f"{at.path}.card", era, card_exists_violation(era, card))
    sorcery_speed = not card.types & {"instant"}
    if sorcery_speed:
        check_sorcery_timing(era, state, at.path, by, card.name["en"])
    source = Source(obj.id if obj else card.slug, by)
    name = card.name["en"]
    if card.is_spell_card:
        effect = card.effect or Effect("none", {})
        wording = card.wording(era.key)
        raw_targets = value.targets or ()
        divided = effect.kind == "damage-divided"
        if divided and not isinstance(raw_targets, Mapping):
            raise DocumentError.at(f"{at.path}.targets",
                                   f"{name} divides its damage: write targets as a mapping "
                                   f"target -> amount")
        target_ids = list(raw_targets)
        check_targets(era, state, at.path, by, wording, target_ids, divided=divided,
                      max_targets=int(effect.get("max_targets", 1)))
        if divided:
            assert isinstance(raw_targets, Mapping)
            total = sum(raw_targets.values())
            if total != int(effect.get("amount", 0)) or min(raw_targets.values()) < 1:
                raise illegal(f"{at.path}.targets", era, "spell.targets", "target.division",
                              f"{name} divides {effect.get('amount')} damage, at least 1 to "
                              f"each target (this gives {total})")
        if effect.get("amount") == "X" and value.x is None:
            raise DocumentError.at(f"{at.path}.x", f"{name} needs a value for X")
        check_redirects(era, state, at.path, source, value.redirect_to)
        trace.add("spell.targets", "spell.cast", card=card.slug, by=by, targets=target_ids,
                  wording=wording.text)
        state = resolve_effect(era, state, trace, at.path, effect, source, wording,
                               dict(raw_targets) if isinstance(raw_targets, Mapping)
                               and divided else target_ids, value.x, value.redirect_to)
        if obj is not None:
            state = move_object(state, obj.id, "graveyard", trace, rule_key="spell.resolve",
                                event="spell.to-graveyard")
        return state
    # A permanent spell: it resolves and enters the battlefield under the caster's control.
    if obj is None:
        raise DocumentError.at(f"{at.path}.card",
                               f"to cast the permanent {name}, put it in {by}'s hand in setup")
    trace.add("spell.resolve", "spell.cast", card=card.slug, by=by, targets=[])
    return enter_battlefield(era, state, trace, obj.id, controller=by, counters=None)


def catalog_cards(value: Cast, state: GameState) -> tuple[str, ...]:
    """A card cast by its slug (not an object of the setup)."""
    return (value.card,) if value.card not in state.objects else ()


def schema() -> sp.Schema:
    amount = sp.integer("An amount of damage.", 0)
    return sp.fields("Cast a spell (an object in a hand, or a catalog card by its slug) "
                     "and resolve it.", {
        "card": {"description": "An object id in a hand, or a catalog card's slug.",
                 "anyOf": [sp.ref("card_slug"), {"type": "string"}]},
        "by": sp.string("The player who casts it."),
        "targets": {"description": "Target ids; for a spell that divides damage, a "
                                   "mapping target -> amount.",
                    "anyOf": [{"type": "array", "items": {"type": "string"}},
                              {"type": "object", "additionalProperties": amount}]},
        "x": sp.integer("The value of X.", 0),
        "mode": sp.integer("The mode of a modal spell, 1-based.", 1),
        "redirect_to": sp.redirect_map(),
    }, ("card", "by"))


def to_args(data: Mapping[str, Any]) -> Any:
    pairs = parse_pairs(data.get("pairs") or "")
    return present(("card", data.get("card")), ("by", data.get("by")),
                   ("targets", pairs or listed(data.get("targets")) or None),
                   ("x", data.get("x")),
                   ("redirect_to", parse_pairs(data.get("redirect") or "") or None))


def from_args(args: Any) -> dict[str, Any] | None:
    a = args if isinstance(args, dict) else {}
    targets = a.get("targets")
    return {"card": a.get("card", ""), "by": a.get("by", ""),
            "targets": ", ".join(targets) if isinstance(targets, list) else "",
            "pairs": pairs_text(targets) if isinstance(targets, dict) else "",
            "x": a.get("x"), "redirect": pairs_text(a.get("redirect_to"))}


SPEC: ActionSpec[Cast] = ActionSpec(
    name="cast", parse=parse, perform=perform, schema=schema, catalog_cards=catalog_cards,
    editor=Editor((
        EditorField("card", "id", gettext_noop("Card (in a hand, or a catalog card)")),
        EditorField("by", "id", gettext_noop("Cast by")),
        EditorField("targets", "list", gettext_noop("Targets")),
        EditorField("pairs", "pairs",
                    gettext_noop("Divided damage, target: amount (one per line)")),
        EditorField("x", "int", gettext_noop("X")),
        EditorField("redirect", "pairs", gettext_noop("Redirect, player: planeswalker")),
    ), to_args, from_args))
