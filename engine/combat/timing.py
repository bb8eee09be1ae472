"""Which creatures assign combat damage in which step (510.4), and in what order the
engine takes the attackers."""

from __future__ import annotations

from engine.state import Combat, GameState, Obj


def first_strike_step_needed(state: GameState) -> bool:
    """510.4: a first combat damage step happens if an attacking or blocking creature
    has first strike or double strike as the combat damage step begins."""
    combat = state.combat
    if combat is None or combat.first_strike_done:
        return False
    objects = state.objects
    return any(not objects[oid].keywords.isdisjoint(_STRIKES_FIRST)
               for oid in _in_combat(state))


def _in_combat(state: GameState) -> list[str]:
    combat = state.combat
    assert combat is not None
    out = [a for a in combat.attackers if state.obj(a).on_battlefield]
    for bs in combat.blockers.values():
        out.extend(b for b in bs if state.obj(b).on_battlefield)
    return out


_STRIKES_FIRST = frozenset({"first-strike", "double-strike"})


def _assigns_in(obj: Obj, first_strike_step: bool, combat: Combat) -> bool:
    """510.4: the first step is for creatures with first strike or double strike; the
    second for those that had neither, and those with double strike."""
    keywords = obj.keywords
    if first_strike_step:
        return not keywords.isdisjoint(_STRIKES_FIRST)
    if "double-strike" in keywords:
        return True
    if not combat.first_strike_done:
        return True
    return obj.id not in combat.struck_first and "first-strike" not in keywords


def _assign_order(state: GameState) -> list[str]:
    """Attackers in the order the engine assigns them: creatures with trample over
    planeswalkers last, so that damage the others assign to the planeswalker counts."""
    combat = state.combat
    assert combat is not None
    return sorted((a for a in combat.attackers if state.obj(a).on_battlefield),
                  key=lambda a: "trample-over-planeswalkers" in state.obj(a).keywords)
