"""The turn's structure shared by the `step` and `next_turn` actions: the end of combat
(511) and the cleanup step (514)."""

from __future__ import annotations

from engine.state import GameState, evolve
from engine.trace import Trace


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
                                   or obj.eot_keywords):
            objects[oid] = evolve(
                obj, damage=0, deathtouched=False,
                controller=obj.eot_controller or obj.controller,
                eot_controller=None, keywords=obj.keywords - obj.eot_keywords,
                eot_keywords=frozenset(),
                sick=obj.sick or bool(obj.eot_controller))
    return evolve(state, objects=objects)

