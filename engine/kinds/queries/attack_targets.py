"""`{attack_targets: ID}`: what a creature could legally attack now."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import combat as cb
from engine import schema_parts as sp
from engine.eras import Era
from engine.kinds.base import ParseContext, QuerySpec, object_in_game
from engine.state import GameState


@dataclass(frozen=True, slots=True)
class AttackTargets:
    object: str


def parse(ctx: ParseContext, arg: Any, path: str) -> AttackTargets | None:
    ctx.obj_ref(arg, path)
    return AttackTargets(arg)


def answer(era: type[Era], state: GameState, value: AttackTargets, path: str) -> list[str]:
    object_in_game(state, value.object, path)
    return sorted(cb.attack_targets(era, state, value.object))


def schema() -> sp.Schema:
    return sp.string("What a creature could legally attack now (a list).")


SPEC: QuerySpec[AttackTargets] = QuerySpec(
    name="attack_targets", value_type="list", parse=parse, answer=answer, schema=schema)
