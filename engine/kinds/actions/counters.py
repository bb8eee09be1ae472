"""`counters: {ID: {KIND: CHANGE}}`: put (+) or remove (-) counters (122.1: never fewer
than zero)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.document import MAX_NUMBER, is_int
from engine.eras import Era
from engine.errors import DocumentError
from engine.kinds.base import (
    ActionSpec,
    Editor,
    EditorField,
    ParseContext,
    PerformContext,
    gettext_noop,
)
from engine.state import GameState, with_counters
from engine.trace import Trace


@dataclass(frozen=True, slots=True)
class Counters:
    changes: Mapping[str, Mapping[str, int]]
    """Each permanent -> counter kind -> the change (+ or -)."""


def parse(ctx: ParseContext, args: Any, path: str) -> Counters | None:
    if not ctx.mapping(args, path, "counters"):
        return None
    for o, kinds in args.items():
        ctx.obj_ref(o, f"{path}.{o}")
        if not isinstance(kinds, dict):
            ctx.add(f"{path}.{o}", "counters are a mapping kind -> change (+/-)")
            continue
        for k, d in kinds.items():
            if not is_int(d) or abs(d) > MAX_NUMBER:
                ctx.add(f"{path}.{o}.{k}", "a counter change is a whole number")
    return Counters({o: dict(kinds) for o, kinds in args.items() if isinstance(kinds, dict)})


def perform(era: type[Era], state: GameState, trace: Trace, value: Counters,
            at: PerformContext) -> GameState:
    for oid, kinds in value.changes.items():
        obj = state.obj(oid)
        if not obj.on_battlefield:
            raise DocumentError.at(f"{at.path}.{oid}", f"{oid} is not on the battlefield")
        for kind, delta in kinds.items():
            obj = with_counters(obj, kind, int(delta))
            trace.add(None, "counters.changed", object=oid, kind=kind, delta=int(delta),
                      now=obj.counter(kind))
        state = state.with_object(obj)
    return state


def schema() -> sp.Schema:
    return sp.mapping("Put (+) or remove (-) counters: ID: {KIND: CHANGE}.", {
        "type": "object", "additionalProperties": sp.integer("The change, + or -."),
        "properties": {"loyalty": sp.integer("Loyalty counters to add (+) or remove (-).")}})


def to_args(data: Mapping[str, Any]) -> Any:
    return {data.get("object"): {data.get("counter"): data.get("change")}}


def from_args(args: Any) -> dict[str, Any] | None:
    obj, kinds = next(iter((args if isinstance(args, dict) else {}).items()))
    (counter, change), = kinds.items()
    return {"object": obj, "counter": counter, "change": change}


SPEC: ActionSpec[Counters] = ActionSpec(
    name="counters", parse=parse, perform=perform, schema=schema,
    editor=Editor((
        EditorField("object", "id", gettext_noop("Object")),
        EditorField("counter", "id", gettext_noop("Counter kind")),
        EditorField("change", "int", gettext_noop("Change (+ or -)")),
    ), to_args, from_args))
