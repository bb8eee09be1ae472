"""The query kinds: one module each, listed here in the format's order.

To add a kind, write its module (copy ``roll_cost.py``) and add it to ``QUERIES`` below; the
parser, the answers, the JSON Schema and the question kinds find it here.
"""

from __future__ import annotations

from typing import Any

from engine.errors import Errors
from engine.kinds.base import ParseContext, Query, QuerySpec
from engine.kinds.queries import (
    attack_targets,
    attacking,
    blocked,
    controller,
    count,
    counters,
    damage,
    face_up_plane,
    legal,
    life,
    lost,
    loyalty,
    max_damage_to,
    planar_controller,
    planar_deck_legal,
    roll_cost,
    subtypes,
    tapped,
    types,
    zone,
)
from engine.state import GameState

QUERIES: dict[str, QuerySpec[Any]] = {spec.name: spec for spec in (
    life.SPEC, loyalty.SPEC, damage.SPEC, counters.SPEC, zone.SPEC, controller.SPEC,
    attacking.SPEC, blocked.SPEC, legal.SPEC, tapped.SPEC, types.SPEC, count.SPEC,
    max_damage_to.SPEC, attack_targets.SPEC, face_up_plane.SPEC, planar_controller.SPEC,
    roll_cost.SPEC, subtypes.SPEC, lost.SPEC, planar_deck_legal.SPEC,
)}
QUERY_KINDS = {name: spec.value_type for name, spec in QUERIES.items()}
"""Each query kind -> what it answers: ``int``, ``bool``, ``str`` (an id) or ``list``."""


def parse_query(raw: Any, path: str, state: GameState, known: set[str], err: Errors,
                ) -> Query | None:
    """Check one query's shape and references; None (with errors in ``err``) if wrong."""
    if not isinstance(raw, dict) or len(raw) != 1:
        err.add(path, f"a query is a mapping with one key: {', '.join(QUERY_KINDS)}")
        return None
    kind, arg = next(iter(raw.items()))
    spec = QUERIES.get(kind)
    if spec is None:
        err.add(path, f"unknown query {kind!r}; expected one of: {', '.join(QUERY_KINDS)}")
        return None
    at = f"{path}.{kind}"
    n_before = len(err.items)
    value = spec.parse(ParseContext(state, known, err), arg, at)
    if value is None or len(err.items) > n_before:
        return None
    return Query(kind, at, value)
