"""Loyalty abilities: when one can be activated, and whether its cost can be paid."""

from __future__ import annotations

from engine.cards import find_card
from engine.eras import Era
from engine.errors import Violation
from engine.state import MAIN_STEPS, GameState


def loyalty_violation(era: type[Era], state: GameState, permanent: str, index: int,
                      x: int | None) -> Violation | None:
    """Why loyalty ability ``index`` (1-based) of ``permanent`` can't be activated now
    (606.3 timing and once per turn; 606.5/606.6 enough loyalty for a negative cost)."""
    def v(key: str, code: str, message: str) -> Violation:
        return Violation(key, era.rule(key), code, message,
                         {"permanent": permanent, "ability": index})

    obj = state.objects.get(permanent)
    if obj is None or not obj.on_battlefield or not obj.is_planeswalker:
        return v("loyalty.ability-timing", "loyalty.not-planeswalker",
                 f"{permanent} is not a planeswalker on the battlefield")
    abilities = find_card(obj.card).abilities if obj.card else ()
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
    if (obj.id, obj.generation) in state.activated:
        return v("loyalty.ability-timing", "loyalty.once-per-turn",
                 f"a loyalty ability of {permanent} was already activated this turn")
    ability = abilities[index - 1]
    if ability.cost.replace("−", "-").strip() == "-X" and x is None:
        return v("loyalty.cost", "loyalty.x-missing", "this ability's cost is -X: give x")
    cost = ability.cost_value(x)
    if cost < 0 and -cost > obj.counter("loyalty"):
        return v("loyalty.not-enough-counters", "loyalty.not-enough",
                 f"{permanent} has {obj.counter('loyalty')} loyalty: it can't pay a cost of "
                 f"{cost}")
    return None
