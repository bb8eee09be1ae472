"""Answering queries about the state after a scenario's actions."""

from __future__ import annotations

from typing import Any

from engine import combat as cb
from engine.eras import Era
from engine.errors import DocumentError, IllegalAction, Violation
from engine.notation import Query
from engine.state import GameState
from engine.trace import Trace


def answer(era: type[Era], state: GameState, query: Query) -> Any:
    kind, arg = query.kind, query.arg
    if kind == "life":
        return state.life(arg)
    if kind in ("loyalty", "damage", "zone", "controller", "attacking", "blocked",
                "attack_targets"):
        obj = state.objects.get(arg)
        if obj is None:  # an object that never entered the battlefield
            raise DocumentError.at(query.path, f"{arg} never entered the game")
        if kind == "loyalty":
            return obj.current_loyalty
        if kind == "damage":
            return obj.damage
        if kind == "zone":
            return obj.zone
        if kind == "controller":
            pc = state.planechase
            if pc is not None and arg in pc.face_up:
                from engine.planechase import planar_controller

                return planar_controller(state)  # 901.6: the planar controller
            return obj.controller
        combat = state.combat
        if kind == "attacking":
            if combat is None or arg not in combat.attackers or not obj.on_battlefield:
                return None
            target = combat.attackers[arg]
            return "nothing" if target is None else target
        if kind == "blocked":
            return bool(combat is not None and arg in combat.blocked)
        return sorted(cb.attack_targets(era, state, arg))
    if kind == "face_up_plane":
        pc = state.planechase
        return pc.face_up[0] if pc is not None and pc.face_up else None
    if kind == "planar_controller":
        from engine.planechase import planar_controller

        return planar_controller(state) if state.planechase is not None else None
    if kind == "roll_cost":
        from engine.planechase import roll_cost

        return roll_cost(state, arg)
    if kind == "subtypes":
        return list(state.obj(arg).subtypes)
    if kind == "counters":
        oid, counter = arg
        return state.obj(oid).counter(counter)
    if kind == "max_damage_to":
        attacker, recipient = arg
        return cb.max_damage_to(era, state, attacker, recipient)
    if kind == "legal":
        from engine.runner import perform

        assert query.action is not None
        try:
            perform(era, state, Trace(era), query.action, None, ())
        except IllegalAction:
            return False
        return True
    raise DocumentError.at(query.path, f"unknown query {kind!r}")


def holds(era: type[Era], state: GameState, query: Query, value: Any) -> bool:
    """A claim: a list-valued query compares as a set."""
    got = answer(era, state, query)
    if isinstance(got, list) and isinstance(value, list):
        return set(got) == set(value)
    return bool(got == value)


def why_illegal_assignment(era: type[Era], state: GameState, attacker: str,
                           assignment: dict[str, int]) -> Violation | None:
    """Why a candidate's combat damage assignment for ``attacker`` would be illegal in the
    next combat damage step, as a violation (rule key, number in ``era``, code, data), or
    None if it is legal: the same check as an ``assign`` action."""
    from engine.actions import Action
    from engine.runner import perform

    action = Action("assign", "answer", {attacker: dict(assignment)})
    try:
        perform(era, state, Trace(era), action, None, ())
    except IllegalAction as err:
        return err.violation
    return None


def legal_assignment(era: type[Era], state: GameState, attacker: str,
                     goal: str | None = None) -> dict[str, int]:
    """A legal combat damage assignment for ``attacker`` to show beside a candidate's: with
    a ``goal``, one giving that recipient the most damage possible; without, the one the
    scenario's actions chose (if it is legal), else the engine's default."""
    combat = state.combat
    if combat is None or attacker not in combat.attackers:
        return {}
    if goal is not None:
        return cb.assignment_most_to(era, state, attacker, goal)
    chosen = combat.assignments.get(attacker)
    if chosen is not None:
        amounts = {r: n for r, n in chosen.items() if n}
        if why_illegal_assignment(era, state, attacker, amounts) is None:
            return amounts
    return cb.default_assignment(era, state, attacker)
