"""`enter: OBJECT` (with a new id) or `enter: {id: ID}` of an object in another zone: it
enters the battlefield as a new object (400.7)."""

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
    present,
)
from engine.setup import parse_object
from engine.state import GameState, evolve
from engine.trace import Trace
from engine.zones import enter_battlefield


@dataclass(frozen=True, slots=True)
class Enter:
    id: str
    controller: str | None = None
    """Who controls it (default: its owner)."""
    counters: Mapping[str, int] | None = None
    """The counters it enters with (default: a planeswalker's printed loyalty, a
    battle's defense)."""


def parse(ctx: ParseContext, args: Any, path: str) -> Enter | None:
    if not isinstance(args, dict) or "id" not in args:
        ctx.add(path, "`enter` takes an object (with a new `id`) or {id: ID} of an object "
                      "in another zone")
        return None
    if args["id"] in ctx.known:
        ctx.fields(args, path, ("id", "controller", "counters"), ("id",))
        if "controller" in args and args["controller"] not in ctx.players:
            ctx.add(f"{path}.controller", f"{args['controller']!r} is not a player")
        counters = args.get("counters")
        if counters is not None and not isinstance(counters, dict):
            ctx.add(f"{path}.counters", "`counters` is a mapping kind -> number")
            return None
        for kind, n in (counters or {}).items():
            if not isinstance(kind, str) or not is_int(n) or not 0 <= n <= MAX_NUMBER:
                ctx.add(f"{path}.counters.{kind}", "a counter count is a whole number from 0")
        return Enter(args["id"], args.get("controller"), counters)
    obj = parse_object(args, path, "battlefield", ctx.players, ctx.err, in_setup=False)
    if obj is None:
        return None
    if obj.id in ctx.players or obj.id in ctx.teams:
        ctx.add(f"{path}.id", f"duplicate id {obj.id!r}")
    ctx.known.add(obj.id)
    if ctx.new_objects is not None:
        ctx.new_objects[ctx.index] = obj
    return Enter(obj.id, args.get("controller"), args.get("counters"))


def perform(era: type[Era], state: GameState, trace: Trace, value: Enter,
            at: PerformContext) -> GameState:
    if at.new_obj is not None:
        state = state.with_object(evolve(at.new_obj, zone="enter-pending"))
        oid = at.new_obj.id
    else:
        oid = value.id
        if state.obj(oid).on_battlefield:
            raise DocumentError.at(f"{at.path}.id",
                                   f"{oid} is already on the battlefield")
    return enter_battlefield(era, state, trace, oid, controller=value.controller,
                             counters=value.counters)


def schema() -> sp.Schema:
    return sp.ref("object", "An object enters the battlefield (a planeswalker with its "
                            "printed loyalty unless `counters` says otherwise); with the "
                            "id of an object in another zone, that object returns as a "
                            "new object.")


def to_args(data: Mapping[str, Any]) -> Any:
    return present(("id", data.get("id")), ("card", data.get("card") or None),
                   ("controller", data.get("controller") or None),
                   ("counters", {"loyalty": data["loyalty"]}
                    if data.get("loyalty") is not None else None))


def from_args(args: Any) -> dict[str, Any] | None:
    a = args if isinstance(args, dict) else {}
    counters = a.get("counters") or {}
    if set(a) - {"id", "card", "controller", "counters"} or set(counters) - {"loyalty"}:
        return None
    return {"id": a.get("id", ""), "card": a.get("card", ""),
            "controller": a.get("controller", ""), "loyalty": counters.get("loyalty")}


SPEC: ActionSpec[Enter] = ActionSpec(
    name="enter", parse=parse, perform=perform, schema=schema,
    editor=Editor((
        EditorField("id", "id", gettext_noop("Object")),
        EditorField("card", "id", gettext_noop("Card (for a new object)")),
        EditorField("controller", "id", gettext_noop("Controller")),
        EditorField("loyalty", "int",
                    gettext_noop("Loyalty counters (empty: printed loyalty)")),
    ), to_args, from_args))
