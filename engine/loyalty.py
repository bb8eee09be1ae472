"""Activated abilities of catalog permanents: loyalty abilities (606) and the others
(602), when one can be activated, and what its cost is.

Loyalty abilities: in a main phase of their controller's turn with the stack empty, and as
many times each turn as the rules and the cards allow (606.3: once per permanent per
turn, counted over every player; Oath of Teferi: twice; each resolved ability of The Chain
Veil: once more, "as though none of its loyalty abilities had been activated"). The cost
is the loyalty symbol plus the costs other effects add (Carth the Lion's [+1]), combined
into one (606.5) and checked against the loyalty counters (606.6).

The static abilities of catalog permanents that the engine models are listed in their
card's ``modelled`` entries and apply while the permanent is on the battlefield (611.3b).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Ability, Effect, find_card
from engine.eras import Era
from engine.errors import Violation
from engine.state import MAIN_STEPS, GameState, Obj


def permanent_statics(state: GameState, kind: str) -> list[tuple[Obj, Effect]]:
    """The modelled static abilities of this kind of the catalog permanents on the
    battlefield, with the permanent that has each."""
    out: list[tuple[Obj, Effect]] = []
    for obj in state.objects.values():
        if obj.zone == "battlefield" and obj.card is not None:
            statics = find_card(obj.card).statics
            if statics:
                out.extend((obj, e) for e in statics if e.kind == kind)
    return out


@dataclass(frozen=True, slots=True)
class Allowance:
    """How many times ``player`` may activate loyalty abilities of one permanent this
    turn: the rules' once (606.3), twice with an Oath of Teferi (several are not
    cumulative), plus one for each resolved ability of The Chain Veil."""

    base: int
    oath: str | None
    """An Oath of Teferi (or other permanent with its ability) the player controls."""
    extra: int

    @property
    def limit(self) -> int:
        return self.base + self.extra


def allowance(state: GameState, player: str) -> Allowance:
    oaths = [o.id for o, _e in permanent_statics(state, "loyalty-twice")
             if o.controller == player]
    return Allowance(2 if oaths else 1, oaths[0] if oaths else None,
                     state.extra_activations.get(player, 0))


def added_loyalty_cost(state: GameState, player: str) -> tuple[int, list[str]]:
    """606.4 (mh2-2021 on: "This cost may be modified by other effects"): what the
    permanents ``player`` controls add to the cost of the loyalty abilities they activate
    (Carth the Lion: [+1] each; several are cumulative), and which permanents."""
    total = 0
    sources: list[str] = []
    for obj, effect in permanent_statics(state, "loyalty-cost"):
        if obj.controller == player:
            total += int(effect.get("amount", 0))
            sources.append(obj.id)
    return total, sources


def abilities_of(obj: Obj) -> tuple[Ability, ...]:
    """An object's activated abilities in printed order (ability N of `activate` is the
    N-th): a planeswalker's are its loyalty abilities."""
    return find_card(obj.card).abilities if obj.card else ()


def ability_violation(era: type[Era], state: GameState, permanent: str,
                      index: int) -> Violation | None:
    """Why ``permanent`` has no activated ability ``index`` (1-based) that can be
    activated: it must be on the battlefield and have it."""
    obj = state.objects.get(permanent)
    if obj is None or not obj.on_battlefield:
        if obj is not None and (obj.is_planeswalker
                                or any(a.is_loyalty for a in abilities_of(obj))):
            return Violation("loyalty.ability-timing", era.rule("loyalty.ability-timing"),
                             "loyalty.not-planeswalker",
                             f"{permanent} is not a planeswalker on the battlefield",
                             {"permanent": permanent, "ability": index})
        return Violation("ability.activate", era.rule("ability.activate"),
                         "ability.not-on-battlefield",
                         f"{permanent} is not a permanent on the battlefield",
                         {"permanent": permanent, "ability": index})
    abilities = abilities_of(obj)
    if not 1 <= index <= len(abilities):
        key = "loyalty.ability-timing" if obj.is_planeswalker else "ability.activate"
        what = "loyalty abilities" if obj.is_planeswalker else "activated abilities"
        return Violation(key, era.rule(key), "loyalty.no-ability",
                         f"{permanent} has {len(abilities)} {what}; there is no ability "
                         f"{index}", {"permanent": permanent, "ability": index})
    return None


def loyalty_violation(era: type[Era], state: GameState, permanent: str, index: int,
                      x: int | None) -> Violation | None:
    """Why loyalty ability ``index`` (1-based) of ``permanent`` can't be activated now
    (606.3 timing and how many times a turn; 606.5/606.6 enough loyalty for the total
    negative cost)."""
    def v(key: str, code: str, message: str) -> Violation:
        return Violation(key, era.rule(key), code, message,
                         {"permanent": permanent, "ability": index})

    obj = state.objects.get(permanent)
    if obj is None or not obj.on_battlefield or not obj.is_planeswalker:
        return v("loyalty.ability-timing", "loyalty.not-planeswalker",
                 f"{permanent} is not a planeswalker on the battlefield")
    abilities = abilities_of(obj)
    if not 1 <= index <= len(abilities):
        return v("loyalty.ability-timing", "loyalty.no-ability",
                 f"{permanent} has {len(abilities)} loyalty abilities; there is no ability "
                 f"{index}")
    controller = obj.controller
    if controller not in state.teammates(state.turn.active):
        return v("loyalty.ability-timing", "loyalty.not-your-turn",
                 f"{controller} can activate {permanent}'s loyalty abilities only in their own"
                 f" turn")
    if state.turn.step not in MAIN_STEPS:
        return v("loyalty.ability-timing", "loyalty.not-main-phase",
                 f"loyalty abilities are activated only in a main phase (now: "
                 f"{state.turn.step})")
    if state.combat is not None and state.combat.pending:
        return v("loyalty.ability-timing", "loyalty.stack-not-empty",
                 "loyalty abilities are activated only while the stack is empty")
    done = state.activated.get((obj.id, obj.generation), 0)
    allowed = allowance(state, controller)
    if done >= allowed.limit:
        if done == 1:
            return v("loyalty.ability-timing", "loyalty.once-per-turn",
                     f"a loyalty ability of {permanent} was already activated this turn")
        return v("loyalty.ability-timing", "loyalty.once-per-turn",
                 f"loyalty abilities of {permanent} were already activated {done} times "
                 f"this turn; {controller} may activate them {allowed.limit} times")
    ability = abilities[index - 1]
    if ability.cost.replace("−", "-").strip() == "-X" and x is None:
        return v("loyalty.cost", "loyalty.x-missing", "this ability's cost is -X: give x")
    added, _sources = added_loyalty_cost(state, controller)
    cost = ability.cost_value(x) + added
    if cost < 0 and -cost > obj.counter("loyalty"):
        extra = f" (its cost {ability.cost} and {added:+d} added)" if added else ""
        return v("loyalty.not-enough-counters", "loyalty.not-enough",
                 f"{permanent} has {obj.counter('loyalty')} loyalty: it can't pay a cost of "
                 f"{cost}{extra}")
    return None


def tap_violation(era: type[Era], state: GameState, permanent: str,
                  ability: Ability) -> Violation | None:
    """A cost with {T}: the permanent must be untapped (107.5), and a creature must have
    been under its controller's control since their most recent turn began, unless it
    has haste (302.6). Mana is not modelled: it is treated as paid."""
    obj = state.obj(permanent)
    if not ability.taps:
        return None
    data = {"permanent": permanent}
    if obj.tapped:
        return Violation("ability.tap-symbol", era.rule("ability.tap-symbol"),
                         "ability.tapped",
                         f"{permanent} is tapped: it can't pay the {{T}} in "
                         f"“{ability.cost}”", data)
    if obj.is_creature and obj.sick and not obj.has("haste"):
        return Violation("combat.summoning-sickness", era.rule("combat.summoning-sickness"),
                         "ability.summoning-sick",
                         f"{permanent} came under {obj.controller}'s control this turn: "
                         f"a creature's {{T}} ability can't be activated yet", data)
    return None
