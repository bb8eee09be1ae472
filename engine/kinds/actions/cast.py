"""`cast: {card, by, targets, x, mode, redirect_to, discard, sacrifice}`: cast a spell and
resolve it (601, 608).

The card is an object in its caster's hand (a catalog card or an inline object), or a
catalog card by its slug. An instant or sorcery does everything its card says (608.2;
engine.effects) and goes to the graveyard; an effect the engine does not model refuses the
document. A permanent spell resolves onto the battlefield under its caster's control
(608.3; 212.9b for a Lorwyn planeswalker), a planeswalker with its loyalty counters
(306.5b): a catalog permanent cast by its slug becomes an object whose id is the slug.
`discard` and `sacrifice` state players' choices for the effect (engine.effects.Choices).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import schema_parts as sp
from engine.cards import Card, Effect, UnknownCard, find_card
from engine.casting import (
    card_exists_violation,
    check_redirects,
    check_sorcery_timing,
    check_targets,
)
from engine.damage import spell_source
from engine.document import MAX_NUMBER, is_int
from engine.effects import (
    NO_CHOICES,
    Choices,
    ResolutionError,
    choice_pairs,
    choice_text,
    choices_schema,
    parse_choices,
    resolve_effect,
)
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
from engine.replacement import order_schema, parse_order
from engine.setup import parse_object
from engine.state import PERMANENT_TYPES, GameState, Obj, evolve
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
    choices: Choices = NO_CHOICES
    """Players' choices for the effect: the cards they discard, what they sacrifice."""
    replacement_order: tuple[str, ...] | None = None
    """The affected player's order for the replacement and prevention effects that apply
    to the same damage (616.1; engine.replacement)."""


def parse(ctx: ParseContext, args: Any, path: str) -> Cast | None:
    if not isinstance(args, dict):
        ctx.add(path, "`cast` takes a mapping {card, by, targets, x, mode, redirect_to, "
                      "discard, sacrifice}")
        return None
    ctx.fields(args, path, ("card", "by", "targets", "x", "mode", "redirect_to", "discard",
                            "sacrifice", "replacement_order"), ("card", "by"))
    card = args.get("card")
    by = args.get("by", "")
    if "by" in args and by not in ctx.players:
        ctx.add(f"{path}.by", f"{by!r} is not a player")
    if card not in ctx.known:
        try:
            catalog_card = find_card(str(card))
        except UnknownCard:
            ctx.add(f"{path}.card", f"unknown card or object {card!r}")
        else:
            if catalog_card.types & PERMANENT_TYPES and by in ctx.players:
                _new_permanent(ctx, catalog_card, str(by), path)
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
    choices = parse_choices(ctx.add, ctx.players, args, path)
    return Cast(str(card), by, value_targets, args.get("x"), args.get("mode"),
                dict(args.get("redirect_to") or {}), choices,
                parse_order(ctx.add, args.get("replacement_order"),
                            f"{path}.replacement_order"))


def _new_permanent(ctx: ParseContext, card: Card, by: str, path: str) -> None:
    """A catalog permanent cast by its slug: an object of its caster's, id the slug, that
    the spell will put onto the battlefield (so that questions can ask about it)."""
    obj = parse_object({"id": card.slug, "card": card.slug, "owner": by}, f"{path}.card",
                       "hand", ctx.players, ctx.err, in_setup=False)
    if obj is None:
        return
    ctx.known.add(obj.id)
    if ctx.new_objects is not None:
        ctx.new_objects[ctx.index] = obj


def perform(era: type[Era], state: GameState, trace: Trace, value: Cast,
            at: PerformContext) -> GameState:
    ref = value.card
    by = value.by
    obj: Obj | None = state.objects.get(ref)
    if at.new_obj is not None and obj is None:
        obj = at.new_obj  # a catalog permanent cast by its slug
        state = state.with_object(obj)
    if obj is not None:
        if obj.zone != "hand" or obj.owner != by:
            raise illegal(f"{at.path}.card", era, "spell.targets", "cast.not-in-hand",
                          f"{ref} is not in {by}'s hand")
        card = find_card(obj.card) if obj.card is not None else None
    else:
        card = find_card(ref)
    if card is not None:
        raise_violation(f"{at.path}.card", era, card_exists_violation(era, card))
    types = card.types if card is not None else obj.types if obj is not None else frozenset()
    name = card.name["en"] if card is not None else ref
    if not types & {"instant"}:
        check_sorcery_timing(era, state, at.path, by, name)
    if types & {"instant", "sorcery"}:
        if card is None:
            raise DocumentError.at(f"{at.path}.card",
                                   f"{ref} is an inline {'/'.join(sorted(types))}: the engine "
                                   f"knows no effect for it (cast a catalog card)")
        return _cast_spell(era, state, trace, value, at, card, obj)
    if not types & PERMANENT_TYPES:
        raise DocumentError.at(f"{at.path}.card",
                               f"{ref} is neither an instant, a sorcery nor a permanent card")
    assert obj is not None
    if value.targets:
        raise DocumentError.at(f"{at.path}.targets",
                               f"{name} is a permanent spell without targets")
    if card is not None:
        _check_enters_choices(era, at.path, card, obj)
    # 608.3: a permanent spell resolves onto the battlefield under its caster's control.
    trace.add("spell.resolve", "spell.cast", card=obj.card or obj.id, by=by, targets=[])
    return enter_battlefield(era, state, trace, obj.id, controller=by, counters=None)


def _check_enters_choices(era: type[Era], path: str, card: Card, obj: Obj) -> None:
    """A choice made as the permanent enters must be stated, never skipped: Runed Halo's
    card name (`chosen_name` on the card in the hand); a "may enter as a copy" (Spark
    Double) is stated with `enter: {..., copy_of}`, which `cast` doesn't take."""
    if obj.chosen_name is None and any(e.kind == "protection-from-chosen-name"
                                       for e in card.statics):
        raise DocumentError.at(f"{path}.card", f"{card.name['en']} names a card as it enters: "
                               f"give it `chosen_name: SLUG` in the hand")
    if getattr(card, "copy_as", None) is not None:
        raise ResolutionError(era, path, f"{card.name['en']} may enter as a copy, a choice "
                                         f"`cast` can't state: write its entering with "
                                         f"`enter: {{id, copy_of}}`")


def _cast_spell(era: type[Era], state: GameState, trace: Trace, value: Cast,
                at: PerformContext, card: Card, obj: Obj | None) -> GameState:
    """An instant or sorcery: targets, its effect (608.2), then the graveyard."""
    by = value.by
    source = spell_source(card, by, obj)
    name = card.name["en"]
    effect = card.effect or Effect("none", {})
    wording = card.wording(era.key)
    what = name
    modes = getattr(card, "modes", ())
    if modes:
        if value.mode is None or not 1 <= value.mode <= len(modes):
            raise DocumentError.at(f"{at.path}.mode", f"{name} is modal: choose its mode "
                                   f"with `mode` (1 to {len(modes)})")
        chosen = modes[value.mode - 1]
        effect, wording = chosen.effect, chosen.wording(era.key)
        what = f"{name} (mode {value.mode})"
    raw_targets = value.targets or ()
    divided = effect.kind == "damage-divided"
    if divided and not isinstance(raw_targets, Mapping):
        raise DocumentError.at(f"{at.path}.targets",
                               f"{name} divides its damage: write targets as a mapping "
                               f"target -> amount")
    target_ids = list(raw_targets)
    check_targets(era, state, at.path, by, wording, target_ids, divided=divided,
                  max_targets=int(effect.get("max_targets", 1)), source=source)
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
    if obj is not None:  # on the stack while it resolves (601.2a)
        state = state.with_object(evolve(obj, zone="stack"))
    state = resolve_effect(era, state, trace, at.path, effect, source, wording,
                           dict(raw_targets) if isinstance(raw_targets, Mapping)
                           and divided else target_ids, value.x, value.redirect_to,
                           choices=value.choices, what=what)
    if obj is not None:
        state = move_object(state, obj.id, "graveyard", trace, rule_key="spell.resolve",
                            event="spell.to-graveyard")
    return state


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
        "replacement_order": order_schema(),
        **choices_schema(),
    }, ("card", "by"))


def to_args(data: Mapping[str, Any]) -> Any:
    pairs = parse_pairs(data.get("pairs") or "")
    return present(("card", data.get("card")), ("by", data.get("by")),
                   ("targets", pairs or listed(data.get("targets")) or None),
                   ("x", data.get("x")), ("mode", data.get("mode")),
                   ("redirect_to", parse_pairs(data.get("redirect") or "") or None),
                   ("discard", choice_pairs(data, "discard")),
                   ("sacrifice", choice_pairs(data, "sacrifice")),
                   ("replacement_order", listed(data.get("replacement_order")) or None))


def from_args(args: Any) -> dict[str, Any] | None:
    a = args if isinstance(args, dict) else {}
    targets = a.get("targets")
    return {"card": a.get("card", ""), "by": a.get("by", ""),
            "targets": ", ".join(targets) if isinstance(targets, list) else "",
            "pairs": pairs_text(targets) if isinstance(targets, dict) else "",
            "x": a.get("x"), "mode": a.get("mode"),
            "redirect": pairs_text(a.get("redirect_to")),
            "discard": choice_text(a, "discard"), "sacrifice": choice_text(a, "sacrifice"),
            "replacement_order": ", ".join(a.get("replacement_order") or [])}


SPEC: ActionSpec[Cast] = ActionSpec(
    name="cast", parse=parse, perform=perform, schema=schema, catalog_cards=catalog_cards,
    editor=Editor((
        EditorField("card", "id", gettext_noop("Card (in a hand, or a catalog card)")),
        EditorField("by", "id", gettext_noop("Cast by")),
        EditorField("targets", "list", gettext_noop("Targets")),
        EditorField("pairs", "pairs",
                    gettext_noop("Divided damage, target: amount (one per line)")),
        EditorField("x", "int", gettext_noop("X")),
        EditorField("mode", "int", gettext_noop("Mode (1, 2…)")),
        EditorField("redirect", "pairs", gettext_noop("Redirect, player: planeswalker")),
        EditorField("replacement_order", "list", gettext_noop("Replacement order")),
        EditorField("discard", "pairs",
                    gettext_noop("Discard, player: cards (one player per line)")),
        EditorField("sacrifice", "pairs",
                    gettext_noop("Sacrifice, player: permanent (one player per line)")),
    ), to_args, from_args))
