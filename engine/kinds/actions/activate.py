"""`activate: {permanent, ability, targets, x, redirect_to}`: activate activated ability N
of a catalog permanent, numbered in printed order over all its activated abilities (a
planeswalker's are its loyalty abilities, so N is its N-th loyalty ability).

A loyalty ability (606): its timing, how many times a turn (606.3, with Oath of Teferi and
The Chain Veil), and its loyalty cost with the costs other effects add (606.4-606.6,
Carth the Lion). Any other ability (602): its timing (any time its controller has
priority, unless "Activate only as a sorcery"), its {T} (107.5, 302.6); its mana is not
modelled and is treated as paid."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import sba
from engine import schema_parts as sp
from engine.cards import Ability, Wording
from engine.casting import check_redirects, check_sorcery_timing, check_targets
from engine.damage import Source
from engine.effects import (
    CHOICE_FIELDS,
    NO_CHOICES,
    Choices,
    choice_pairs,
    choice_text,
    choices_schema,
    parse_choices,
    resolve_effect,
)
from engine.eras import Era
from engine.errors import DocumentError, raise_violation
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
from engine.loyalty import (
    abilities_of,
    ability_violation,
    added_loyalty_cost,
    allowance,
    loyalty_violation,
    tap_violation,
)
from engine.replacement import order_schema, parse_order
from engine.state import GameState, evolve, with_counters
from engine.trace import Trace


@dataclass(frozen=True, slots=True)
class Activate:
    permanent: str
    ability: int
    """The activated ability, 1-based in printed order (a planeswalker's loyalty
    abilities)."""
    targets: tuple[str, ...] = ()
    x: int | None = None
    redirect_to: Mapping[str, str] = field(default_factory=dict)
    """Player -> the planeswalker the damage is redirected to (before dom-2018)."""
    choices: Choices = NO_CHOICES
    """Players' choices for the effect: the cards they discard, what they sacrifice
    (engine.effects)."""
    replacement_order: tuple[str, ...] | None = None
    """The affected player's order for the replacement and prevention effects that apply
    to the same damage (616.1; engine.replacement)."""


def parse(ctx: ParseContext, args: Any, path: str) -> Activate | None:
    if not isinstance(args, dict):
        ctx.add(path, "`activate` takes a mapping {permanent, ability, targets, x}")
        return None
    ctx.fields(args, path, ("permanent", "ability", "targets", "x", "redirect_to",
                            "replacement_order", *CHOICE_FIELDS), ("permanent", "ability"))
    if "permanent" in args:
        ctx.obj_ref(args["permanent"], f"{path}.permanent")
    ctx.int_field(args, "ability", path, 1)
    ctx.int_field(args, "x", path)
    targets = ctx.id_list(args.get("targets", []), f"{path}.targets")
    ctx.redirect_map(args.get("redirect_to"), f"{path}.redirect_to")
    return Activate(args.get("permanent", ""), args.get("ability", 0), targets,
                    args.get("x"), dict(args.get("redirect_to") or {}),
                    parse_choices(ctx.add, ctx.players, args, path),
                    parse_order(ctx.add, args.get("replacement_order"),
                                f"{path}.replacement_order"))


def perform(era: type[Era], state: GameState, trace: Trace, value: Activate,
            at: PerformContext) -> GameState:
    permanent = value.permanent
    index = int(value.ability)
    raise_violation(at.path, era, ability_violation(era, state, permanent, index))
    ability: Ability = abilities_of(state.obj(permanent))[index - 1]
    if ability.is_loyalty:
        return _activate_loyalty(era, state, trace, value, at, ability)
    return _activate_other(era, state, trace, value, at, ability)


def _activate_loyalty(era: type[Era], state: GameState, trace: Trace, value: Activate,
                      at: PerformContext, ability: Ability) -> GameState:
    permanent = value.permanent
    index = int(value.ability)
    x = value.x
    raise_violation(at.path, era, loyalty_violation(era, state, permanent, index, x))
    obj = state.obj(permanent)
    controller = obj.controller
    wording = ability.wording(era.key)
    targets = list(value.targets)
    check_targets(era, state, at.path, controller, wording, targets, source=Source.of(obj))
    source = Source.of(obj)
    check_redirects(era, state, at.path, source, value.redirect_to)
    key = (obj.id, obj.generation)
    done = state.activated.get(key, 0)
    if done:
        # More than once this turn: a card allows it (606.3 says once).
        allowed = allowance(state, controller)
        if done < allowed.base:
            trace.add("rules.card-overrides", "loyalty.again-oath", permanent=permanent,
                      source=allowed.oath or "", times=done + 1)
        else:
            trace.add_first(("effect.as-though", "rules.card-overrides"),
                            "loyalty.again-chain-veil", permanent=permanent,
                            times=done + 1)
    printed = ability.cost_value(x)
    added, sources = added_loyalty_cost(state, controller)
    cost = printed + added
    if added:
        trace.add_first(("loyalty.combined-cost", "loyalty.cost"), "loyalty.cost-combined",
                        permanent=permanent, printed=ability.cost.replace("-", "−"),
                        added=f"{added:+d}", total=_signed(cost), sources=sources)
    state = state.with_object(with_counters(obj, "loyalty", cost))
    state = evolve(state, activated={**state.activated, key: done + 1},
                   loyalty_activators=state.loyalty_activators | {controller})
    trace.add("loyalty.cost", "loyalty.activated", permanent=permanent, ability=index,
              cost=cost, loyalty=state.obj(permanent).counter("loyalty"), targets=targets)
    # The ability waits on the stack; state-based actions happen before it resolves, so a
    # planeswalker brought to 0 loyalty by the cost is gone first (704.5i).
    state, _ = sba.check(era, state, trace, at.keep)
    return _resolve(era, state, trace, at.path, ability, source, wording, targets, x,
                    value.redirect_to, value.choices)


def _activate_other(era: type[Era], state: GameState, trace: Trace, value: Activate,
                    at: PerformContext, ability: Ability) -> GameState:
    """602.2: announce, choose targets, pay the cost ({T} taps it; mana is treated as
    paid), then the ability resolves (608.2)."""
    permanent = value.permanent
    obj = state.obj(permanent)
    controller = obj.controller
    if value.x is not None:
        raise DocumentError.at(f"{at.path}.x", "this ability has no X")
    if value.redirect_to:
        raise DocumentError.at(f"{at.path}.redirect_to",
                               "this ability deals no damage to redirect")
    name = obj.display_name()
    if ability.timing == "sorcery":
        check_sorcery_timing(era, state, at.path, controller, f"{name}'s ability")
    wording = ability.wording(era.key)
    targets = list(value.targets)
    check_targets(era, state, at.path, controller, wording, targets, source=Source.of(obj))
    raise_violation(at.path, era, tap_violation(era, state, permanent, ability))
    trace.add("ability.activate", "ability.activated", permanent=permanent,
              ability=int(value.ability), player=controller, cost=ability.cost,
              mana=ability.mana or "—", targets=targets)
    if ability.taps:
        state = state.with_object(evolve(obj, tapped=True))
        trace.add("ability.tap-symbol", "ability.tapped", permanent=permanent)
    state, _ = sba.check(era, state, trace, at.keep)
    return _resolve(era, state, trace, at.path, ability, Source.of(obj), wording, targets,
                    None, {}, value.choices)


def _resolve(era: type[Era], state: GameState, trace: Trace, path: str, ability: Ability,
             source: Source, wording: Wording, targets: list[str], x: int | None,
             redirect_to: Mapping[str, str], choices: Choices = NO_CHOICES) -> GameState:
    """The ability resolves (608.2): the effects of this module's cards here, the others
    by engine.effects."""
    effect = ability.effect
    if effect.kind == "extra-loyalty-activation":
        # The Chain Veil: for each planeswalker its controller controls this turn (also
        # those that come under their control later), one more activation of one of its
        # loyalty abilities, as though none had been activated (609.4).
        player = source.controller
        grants = {**state.extra_activations,
                  player: state.extra_activations.get(player, 0) + 1}
        trace.add_first(("effect.as-though", "rules.card-overrides"),
                        "loyalty.extra-activation", player=player, source=source.id,
                        extra=grants[player])
        return evolve(state, extra_activations=grants)
    return resolve_effect(era, state, trace, path, effect, source, wording, targets, x,
                          redirect_to, choices=choices)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


def schema() -> sp.Schema:
    return sp.fields("Activate an activated ability of a catalog permanent (a "
                     "planeswalker's loyalty ability): checks its timing, how many times a "
                     "turn, and its cost.", {
        "permanent": sp.string("The permanent (a planeswalker for a loyalty ability)."),
        "ability": sp.integer("The activated ability, 1-based in printed order (a "
                              "planeswalker's loyalty abilities).", 1),
        "targets": sp.ids("Target ids."),
        "x": sp.integer("The value of X.", 0),
        "redirect_to": sp.redirect_map(),
        "replacement_order": order_schema(),
        **choices_schema(),
    }, ("permanent", "ability"))


def to_args(data: Mapping[str, Any]) -> Any:
    return present(("permanent", data.get("permanent")), ("ability", data.get("ability")),
                   ("targets", listed(data.get("targets")) or None), ("x", data.get("x")),
                   ("redirect_to", parse_pairs(data.get("redirect") or "") or None),
                   ("discard", choice_pairs(data, "discard")),
                   ("sacrifice", choice_pairs(data, "sacrifice")),
                   ("replacement_order", listed(data.get("replacement_order")) or None))


def from_args(args: Any) -> dict[str, Any] | None:
    a = args if isinstance(args, dict) else {}
    return {"permanent": a.get("permanent", ""), "ability": a.get("ability"),
            "targets": ", ".join(a.get("targets") or []), "x": a.get("x"),
            "redirect": pairs_text(a.get("redirect_to")),
            "discard": choice_text(a, "discard"), "sacrifice": choice_text(a, "sacrifice"),
            "replacement_order": ", ".join(a.get("replacement_order") or [])}


SPEC: ActionSpec[Activate] = ActionSpec(
    name="activate", parse=parse, perform=perform, schema=schema,
    editor=Editor((
        EditorField("permanent", "id", gettext_noop("Permanent")),
        EditorField("ability", "int",
                    gettext_noop("Activated ability (1, 2, 3…; a planeswalker's loyalty "
                                 "abilities)")),
        EditorField("targets", "list", gettext_noop("Targets")),
        EditorField("x", "int", gettext_noop("X")),
        EditorField("redirect", "pairs", gettext_noop("Redirect, player: planeswalker")),
        EditorField("replacement_order", "list", gettext_noop("Replacement order")),
        EditorField("discard", "pairs",
                    gettext_noop("Discard, player: cards (one player per line)")),
        EditorField("sacrifice", "pairs",
                    gettext_noop("Sacrifice, player: permanent (one player per line)")),
    ), to_args, from_args))
