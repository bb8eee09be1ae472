"""The action kinds: one module each, listed here in the format's order.

To add a kind, write its module (see ``attack.py``) and add it to ``ACTIONS`` below;
the parser, the runner, the JSON Schema and the form editor find it here.
"""

from __future__ import annotations

from typing import Any

from engine.eras import Era
from engine.errors import DocumentError, Errors
from engine.kinds.actions import (
    activate,
    assign,
    attack,
    become,
    block,
    cast,
    choose,
    combat_damage,
    concede,
    control,
    counters,
    damage,
    enter,
    move,
    next_turn,
    order,
    planeswalk,
    prevent,
    roll_planar_die,
    step,
)
from engine.kinds.base import Action, ActionSpec, ParseContext, PerformContext
from engine.replacement import check_order, reset_order, set_order
from engine.state import GameState, Obj
from engine.trace import Trace

ACTIONS: dict[str, ActionSpec[Any]] = {spec.name: spec for spec in (
    attack.SPEC, block.SPEC, order.SPEC, assign.SPEC, combat_damage.SPEC, cast.SPEC,
    damage.SPEC, prevent.SPEC, activate.SPEC, enter.SPEC, move.SPEC, control.SPEC, counters.SPEC,
    become.SPEC, choose.SPEC, step.SPEC, next_turn.SPEC, roll_planar_die.SPEC,
    planeswalk.SPEC, concede.SPEC,
)}
ACTION_KINDS = tuple(ACTIONS)

QUIET_ACTIONS = frozenset(name for name, spec in ACTIONS.items() if spec.quiet)
"""Actions that change nothing a state-based action looks at (damage, toughness, loyalty,
defense, life, which permanents are on the battlefield and who controls them): checking
state-based actions after them finds nothing, so the runner skips the check."""
DECLARATIONS = frozenset(name for name, spec in ACTIONS.items() if spec.declaration)
"""Actions a candidate sees done on the board shown with the question."""


def parse_action(item: Any, path: str, state: GameState, known: set[str], err: Errors,
                 new_objects: dict[int, Obj] | None = None, index: int = 0) -> Action | None:
    """Check one action's shape and references (not its legality: that is per era).
    An ``enter`` of a new object adds its id to ``known`` and the object to
    ``new_objects[index]``."""
    if not isinstance(item, dict) or len(item) != 1:
        err.add(path, f"an action is a mapping with one key, the action's kind: "
                      f"{', '.join(ACTION_KINDS)}")
        return None
    kind, args = next(iter(item.items()))
    spec = ACTIONS.get(kind)
    if spec is None:
        err.add(path, f"unknown action {kind!r}; expected one of: {', '.join(ACTION_KINDS)}")
        return None
    at = f"{path}.{kind}"
    n_before = len(err.items)
    value = spec.parse(ParseContext(state, known, err, new_objects, index), args, at)
    if value is None or len(err.items) > n_before:
        return None
    return Action(kind, at, value)


_NO_FIELD: Any = object()


def perform(era: type[Era], state: GameState, trace: Trace, action: Action,
            new_obj: Obj | None = None, keep: tuple[str, ...] = ()) -> GameState:
    """Perform one action (without the state-based actions that follow it)."""
    spec = ACTIONS.get(action.kind)
    if spec is None:
        raise DocumentError.at(action.path, f"unknown action {action.kind!r}")
    try:
        return _perform(era, state, trace, action, spec, new_obj, keep)
    except DocumentError as err:
        err.locate(action.path)  # an error raised where the action wasn't known
        raise


def _perform(era: type[Era], state: GameState, trace: Trace, action: Action,
             spec: ActionSpec[Any], new_obj: Obj | None, keep: tuple[str, ...]) -> GameState:
    order = getattr(action.value, "replacement_order", _NO_FIELD)  # 616.1
    if order is _NO_FIELD:  # an action that deals no damage itself
        return spec.perform(era, state, trace, action.value,
                            PerformContext(action.path, new_obj, keep))
    if order:
        check_order(state, order, f"{action.path}.replacement_order")
    token = set_order(order, f"{action.path}.replacement_order")
    try:
        return spec.perform(era, state, trace, action.value,
                            PerformContext(action.path, new_obj, keep))
    finally:
        reset_order(token)
