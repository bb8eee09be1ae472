"""The turn's structure shared by the `step` and `next_turn` actions: the end of combat
(511), the beginning of the end step (513) and the cleanup step (514)."""

from __future__ import annotations

import re

from engine.cards import find_card
from engine.eras import Era
from engine.state import GameState, evolve, without_until_end_of_turn
from engine.trace import Trace
from engine.zones import enter_battlefield


def end_combat(state: GameState, trace: Trace) -> GameState:
    """511.3: the combat ends; no creature is attacking or blocking any more."""
    trace.add("combat.end", "combat.ends")
    return evolve(state, combat=None)


def cleanup(state: GameState, trace: Trace) -> GameState:
    """514.2: damage wears off and "until end of turn" effects end, simultaneously."""
    trace.add("turn.cleanup", "turn.cleanup")
    objects = dict(state.objects)
    for oid, obj in objects.items():
        if obj.on_battlefield and (obj.damage or obj.deathtouched or obj.eot_controller
                                   or obj.eot_keywords or obj.eot_pt != (0, 0)):
            objects[oid] = evolve(
                without_until_end_of_turn(obj), damage=0, deathtouched=False,
                controller=obj.eot_controller or obj.controller, eot_controller=None,
                sick=obj.sick or bool(obj.eot_controller))
    # Prevention shields last "this turn" (615.7): they end with the damage (514.2).
    return evolve(state, objects=objects, shields=())



def end_step(era: type[Era], state: GameState, trace: Trace) -> GameState:
    """The end step begins (513): the abilities that trigger "at the beginning of the end
    step" trigger (603.2b) and resolve, then state-based actions. The delayed abilities
    waiting for "the next end step" first (603.7; one created during an end step waits
    for the next turn's, 513.2), then each permanent's ("At the beginning of your end
    step, if you didn't activate a loyalty ability of a planeswalker this turn, you lose
    2 life": its "if" is checked as it triggers and as it resolves, 603.4, the same
    moment here)."""
    from engine import sba

    turn = state.turn
    due = [d for d in state.delayed if d.kind == "return-at-end-step"
           and not (d.created_turn == turn.number and d.created_step in ("end", "cleanup"))]
    if due:
        state = evolve(state, delayed=tuple(d for d in state.delayed if d not in due))
        for d in due:
            obj = state.objects.get(d.object)
            if obj is None or obj.zone != "exile" or obj.generation != d.generation:
                trace.add("trigger.delayed", "trigger.delayed-nothing", source=d.source,
                          object=d.object)
                continue
            if obj.card is None and re.search(r"-token-\d+$", obj.id):
                # A token exiled ceased to exist (704.5d); it can't return (Oath of
                # Teferi's ruling). Tokens are the objects effects create, `SOURCE-token-N`.
                trace.add("trigger.delayed", "trigger.delayed-token", source=d.source,
                          object=d.object)
                continue
            trace.add("trigger.delayed", "trigger.delayed-returns", source=d.source,
                      object=d.object, owner=obj.owner)
            state = enter_battlefield(era, state, trace, d.object, controller=obj.owner,
                                      counters=None)
    changed = bool(due)
    team = set(state.teammates(turn.active))
    for obj in list(state.objects.values()):
        if not obj.on_battlefield or obj.controller not in team or obj.card is None:
            continue
        for effect in find_card(obj.card).triggers:
            if effect.kind != "chain-veil-end-step":
                continue
            player = obj.controller
            if player in state.loyalty_activators:
                trace.add("trigger.intervening-if", "trigger.condition-false",
                          source=obj.id, player=player)
                continue
            amount = int(effect.get("amount", 2))
            trace.add("trigger.beginning-of-step", "trigger.triggers", source=obj.id,
                      concerning="end")
            state = state.with_life_change(player, -amount)
            trace.add("trigger.intervening-if", "trigger.lose-life", source=obj.id,
                      player=player, amount=amount, life=state.life(player))
            changed = True
    if changed:
        state, _ = sba.check(era, state, trace)
    return state
