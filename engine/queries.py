"""Answering queries and claims about a state, and checking a candidate's combat damage
assignment the way an ``assign`` action is checked."""

from __future__ import annotations

from typing import Any

from engine import combat as cb
from engine.eras import Era
from engine.errors import DocumentError, IllegalAction, Violation
from engine.kinds.actions import perform
from engine.kinds.actions.assign import Assign
from engine.kinds.base import Action, Query
from engine.kinds.queries import QUERIES
from engine.state import GameState
from engine.trace import Trace


def answer(era: type[Era], state: GameState, query: Query) -> Any:
    """The value of ``query`` in ``state`` (the query's kind answers it)."""
    spec = QUERIES.get(query.kind)
    if spec is None:
        raise DocumentError.at(query.path, f"unknown query {query.kind!r}")
    return spec.answer(era, state, query.value, query.path)


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
    action = Action("assign", "answer", Assign({attacker: dict(assignment)}))
    try:
        perform(era, state, Trace(era), action)
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
