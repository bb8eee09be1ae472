"""`{max_damage_to: [ATTACKER, RECIPIENT]}`: the most combat damage the attacker could
legally assign to that recipient in its next combat damage step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import combat as cb
from engine import schema_parts as sp
from engine.eras import Era
from engine.kinds.base import ParseContext, QuerySpec
from engine.state import GameState


@dataclass(frozen=True, slots=True)
class MaxDamageTo:
    attacker: str
    recipient: str


def parse(ctx: ParseContext, arg: Any, path: str) -> MaxDamageTo | None:
    if not isinstance(arg, list) or len(arg) != 2:
        ctx.add(path, "`max_damage_to` takes [ATTACKER, RECIPIENT]")
        return None
    if arg[0] not in ctx.known:
        ctx.add(f"{path}[0]", f"unknown object {arg[0]!r}")
    if arg[1] not in ctx.known and arg[1] not in ctx.players:
        ctx.add(f"{path}[1]", f"unknown player or object {arg[1]!r}")
    return MaxDamageTo(arg[0], arg[1])


def answer(era: type[Era], state: GameState, value: MaxDamageTo, path: str) -> int:
    return cb.max_damage_to(era, state, value.attacker, value.recipient)


def schema() -> sp.Schema:
    return {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "string"},
            "description": "[ATTACKER, RECIPIENT]: the most combat damage the attacker "
                           "could legally assign to that recipient."}


SPEC: QuerySpec[MaxDamageTo] = QuerySpec(
    name="max_damage_to", value_type="int", parse=parse, answer=answer, schema=schema)
