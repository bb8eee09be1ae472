"""`{legal: ACTION}`: would this action be legal now? The action is checked as the runner
performs it, in the era asked about."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.document import Ids
from engine.eras import Era
from engine.errors import IllegalAction
from engine.kinds.actions import parse_action, perform
from engine.kinds.base import Action, ParseContext, QuerySpec
from engine.state import GameState, Obj
from engine.trace import Trace


@dataclass(frozen=True, slots=True)
class Legal:
    action: Action
    new_obj: Obj | None = None
    """The object an `enter` of a new object would put onto the battlefield."""


def parse(ctx: ParseContext, arg: Any, path: str) -> Legal | None:
    # A copy of the known ids: an `enter` asked about enters nothing.
    new_objects: dict[int, Obj] = {}
    action = parse_action(arg, path, ctx.state, Ids(ctx.known), ctx.err, new_objects)
    return Legal(action, new_objects.get(0)) if action is not None else None


def answer(era: type[Era], state: GameState, value: Legal, path: str) -> bool:
    try:
        perform(era, state, Trace(era), value.action, value.new_obj)
    except IllegalAction:
        return False
    return True


def schema() -> sp.Schema:
    return sp.ref("action", "Would this action be legal now?")


SPEC: QuerySpec[Legal] = QuerySpec(
    name="legal", value_type="bool", parse=parse, answer=answer, schema=schema)
