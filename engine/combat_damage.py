"""A combat damage step (510): the assignments checked, then the damage dealt at once or,
in the Lorwyn eras, put on the stack to resolve later (310.1).

Shared by the ``combat_damage`` action and the runner (an action right after ``assign``
in an era where combat damage uses the stack happens while that damage waits).
"""

from __future__ import annotations

from engine import combat as cb
from engine.eras import Era
from engine.errors import IllegalAction
from engine.state import GameState, evolve
from engine.trace import Trace


def lock_in_combat_damage(era: type[Era], state: GameState, trace: Trace, path: str,
                          ) -> GameState:
    """Lorwyn: a combat damage step begins; every assignment goes on the stack (310.1)."""
    first = cb.first_strike_step_needed(state)
    if first:
        trace.add("combat.first-strike-step", "combat.damage-step", first_strike=True)
    assigned = _assign_or_fail(era, state, trace, first, path)
    pending = cb.to_pending(state, assigned)
    trace.add("combat.damage-on-stack", "combat.damage-on-stack", count=len(pending),
              first_strike=first)
    state = cb.mark_step_done(state, first, assigned)
    assert state.combat is not None
    return evolve(state, combat=evolve(state.combat, pending=pending,
                                         pending_first_strike=first))


def _assign_or_fail(era: type[Era], state: GameState, trace: Trace, first: bool,
                    path: str) -> list[cb.Assigned]:
    assert state.combat is not None
    paths = state.combat.assign_paths
    try:
        return cb.assign_step(era, state, trace, first_strike=first)
    except cb.AssignmentError as err:
        raise IllegalAction(paths.get(err.attacker, path), err.violation, era.key) from None




def one_step(era: type[Era], state: GameState, trace: Trace, first: bool,
              path: str) -> GameState:
    """One combat damage step: assign, then (off the stack) deal it all at once."""
    if era.combat_damage_uses_stack:
        state = lock_in_combat_damage(era, state, trace, path)
        state = cb.resolve_pending(era, state, trace)
        return state
    trace.add("combat.first-strike-step" if first else "combat.damage-dealt",
              "combat.damage-step", first_strike=first)
    assigned = _assign_or_fail(era, state, trace, first, path)
    state = cb.mark_step_done(state, first, assigned)
    return cb.deal_assigned(era, state, trace, assigned)

