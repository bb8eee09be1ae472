"""`enter: OBJECT` (with a new id) or `enter: {id: ID}` of an object in another zone: it
enters the battlefield as a new object (400.7).

`copy_of: ID` enters it as a copy of ID (707.5; copiable values 707.2) with the
exceptions of its catalog card's copy ability (Spark Double's), or `legendary: false`
for an effect the scenario does not model as a card (707.9b); `counters` are then in
addition to what the copy enters with. `attacking: TARGET` puts it onto the battlefield
attacking (508.4)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.combat.declare import enter_attacking
from engine.copies import (
    Exceptions,
    as_copy,
    card_copy_ability,
    card_exceptions,
    why_not_copiable,
)
from engine.document import MAX_NUMBER, is_int
from engine.eras import Era
from engine.errors import DocumentError, illegal
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
from engine.state import GameState, Obj, evolve, with_counters
from engine.trace import Trace
from engine.zones import enter_battlefield

EXTRA_FIELDS = ("copy_of", "legendary", "attacking")
"""Fields of `enter` that say how it enters, not what the object is."""


@dataclass(frozen=True, slots=True)
class Enter:
    id: str
    controller: str | None = None
    """Who controls it (default: its owner)."""
    counters: Mapping[str, int] | None = None
    """The counters it enters with (default: a planeswalker's printed loyalty, a
    battle's defense); for a copy, counters in addition to those."""
    copy_of: str | None = None
    """It enters as a copy of this object (707.5)."""
    legendary: bool | None = None
    """An exception of the copy effect: False for "it isn't legendary" (707.9b)."""
    attacking: str | None = None
    """It is put onto the battlefield attacking this player, planeswalker or battle."""
    tapped: bool = False
    """A new object written with `tapped: true` enters tapped."""


def _extra(ctx: ParseContext, args: Mapping[str, Any], path: str) -> None:
    if "copy_of" in args:
        ctx.obj_ref(args["copy_of"], f"{path}.copy_of")
        if args["copy_of"] == args.get("id"):
            ctx.add(f"{path}.copy_of", "an object can't enter as a copy of itself")
    if "legendary" in args:
        if not isinstance(args["legendary"], bool):
            ctx.add(f"{path}.legendary", "`legendary` must be true or false")
        elif "copy_of" not in args:
            ctx.add(f"{path}.legendary", "`legendary` is an exception of a copy effect: it "
                                         "goes with `copy_of`")
    if "attacking" in args:
        ctx.any_ref(args["attacking"], f"{path}.attacking")


def _counters(ctx: ParseContext, counters: Any, path: str) -> bool:
    if counters is not None and not isinstance(counters, dict):
        ctx.add(f"{path}.counters", "`counters` is a mapping kind -> number")
        return False
    for kind, n in (counters or {}).items():
        if not isinstance(kind, str) or not is_int(n) or not 0 <= n <= MAX_NUMBER:
            ctx.add(f"{path}.counters.{kind}", "a counter count is a whole number from 0")
    return True


def parse(ctx: ParseContext, args: Any, path: str) -> Enter | None:
    if not isinstance(args, dict) or "id" not in args:
        ctx.add(path, "`enter` takes an object (with a new `id`) or {id: ID} of an object "
                      "in another zone")
        return None
    _extra(ctx, args, path)
    extra = {k: args[k] for k in EXTRA_FIELDS if k in args}
    if args["id"] in ctx.known:
        ctx.fields(args, path, ("id", "controller", "counters", *EXTRA_FIELDS), ("id",))
        if "controller" in args and args["controller"] not in ctx.players:
            ctx.add(f"{path}.controller", f"{args['controller']!r} is not a player")
        if not _counters(ctx, args.get("counters"), path):
            return None
        return Enter(args["id"], args.get("controller"), args.get("counters"), **extra)
    base = {k: v for k, v in args.items() if k not in EXTRA_FIELDS}
    obj = parse_object(base, path, "battlefield", ctx.players, ctx.err, in_setup=False,
                       is_copy="copy_of" in args)
    if obj is None:
        return None
    if obj.id in ctx.players or obj.id in ctx.teams:
        ctx.add(f"{path}.id", f"duplicate id {obj.id!r}")
    ctx.known.add(obj.id)
    if ctx.new_objects is not None:
        ctx.new_objects[ctx.index] = obj
    return Enter(obj.id, args.get("controller"), args.get("counters"), **extra,
                 tapped=obj.tapped)


def perform(era: type[Era], state: GameState, trace: Trace, value: Enter,
            at: PerformContext) -> GameState:
    if at.new_obj is not None:
        obj = evolve(at.new_obj, zone="enter-pending")
    else:
        obj = state.obj(value.id)
        if obj.on_battlefield:
            raise DocumentError.at(f"{at.path}.id", f"{obj.id} is already on the battlefield")
    oid = obj.id
    counters = value.counters
    extra: dict[str, int] = {}
    copy = None
    if value.copy_of is not None:
        copy, extra = _as_copy(era, state, trace, obj, value, at)
        obj, counters = copy, None
    state = state.with_object(obj)
    state = enter_battlefield(era, state, trace, oid, controller=value.controller,
                              counters=counters)
    if copy is not None and extra:
        entered = state.obj(oid)
        for kind, n in extra.items():
            entered = with_counters(entered, kind, n)
        state = state.with_object(entered)
        trace.add("copy.exceptions", "copy.extra-counters", object=oid, counters=extra)
    if value.tapped:
        state = state.with_object(evolve(state.obj(oid), tapped=True))
    if value.attacking is not None:
        state = enter_attacking(era, state, trace, oid, value.attacking)
    return state


def _as_copy(era: type[Era], state: GameState, trace: Trace, obj: Obj, value: Enter,
             at: PerformContext) -> tuple[Obj, dict[str, int]]:
    """``obj`` as it enters as a copy (707.5), and the counters it gets on top of what
    the copy enters with (707.9b exceptions, and the document's `counters`)."""
    assert value.copy_of is not None
    original = state.objects.get(value.copy_of)
    if original is None:
        raise DocumentError.at(f"{at.path}.copy_of", f"{value.copy_of} never entered the game")
    controller = value.controller or obj.owner
    ability = card_copy_ability(obj)
    if ability is not None:
        if value.legendary is not None:
            raise DocumentError.at(
                f"{at.path}.legendary", f"{obj.display_name()}'s copy ability states its own "
                f"exceptions (707.9); `legendary` is for a copy effect the scenario does not "
                f"model as a card")
        why = why_not_copiable(ability, obj, original, controller)
        if why is not None:
            raise illegal(f"{at.path}.copy_of", era, "copy.enters-as-copy", "enter.not-copiable",
                          why)
        exceptions = card_exceptions(ability)
    else:
        exceptions = Exceptions(value.legendary)
    copy = as_copy(obj, original, exceptions)
    if era.battles and copy.is_battle and copy.protector is None:
        raise DocumentError.at(at.path, f"{obj.id} enters as a copy of a battle: name its "
                                        f"`protector`")
    trace.add("copy.enters-as-copy", "copy.enters-as-copy", object=obj.id,
              original=original.id)
    if exceptions.legendary is False:
        trace.add("copy.exceptions", "copy.not-legendary", object=obj.id)
    extra = exceptions.extra_counters(copy)
    for kind, n in (value.counters or {}).items():
        extra[kind] = extra.get(kind, 0) + n
    return copy, {k: n for k, n in extra.items() if n}


def schema() -> sp.Schema:
    from engine.schema import _object_fields

    return sp.fields(
        "An object enters the battlefield (a planeswalker with its printed loyalty unless "
        "`counters` says otherwise); with the id of an object in another zone, that object "
        "returns as a new object. `copy_of` enters it as a copy, `attacking` attacking.",
        {**_object_fields(),
         "copy_of": sp.string("It enters as a copy of this object (707.5); `counters` are "
                              "then in addition to what the copy enters with."),
         "legendary": sp.boolean("An exception of the copy effect: false for \"it isn't "
                                 "legendary\" (707.9b)."),
         "attacking": sp.string("It is put onto the battlefield attacking this player, "
                                "planeswalker or battle (508.4).")},
        ("id",))


def to_args(data: Mapping[str, Any]) -> Any:
    return present(("id", data.get("id")), ("card", data.get("card") or None),
                   ("controller", data.get("controller") or None),
                   ("counters", {"loyalty": data["loyalty"]}
                    if data.get("loyalty") is not None else None),
                   ("copy_of", data.get("copy_of") or None),
                   ("attacking", data.get("attacking") or None))


def from_args(args: Any) -> dict[str, Any] | None:
    a = args if isinstance(args, dict) else {}
    counters = a.get("counters") or {}
    if set(a) - {"id", "card", "controller", "counters", "copy_of", "attacking"} or set(
            counters) - {"loyalty"}:
        return None
    return {"id": a.get("id", ""), "card": a.get("card", ""),
            "controller": a.get("controller", ""), "loyalty": counters.get("loyalty"),
            "copy_of": a.get("copy_of", ""), "attacking": a.get("attacking", "")}


SPEC: ActionSpec[Enter] = ActionSpec(
    name="enter", parse=parse, perform=perform, schema=schema,
    editor=Editor((
        EditorField("id", "id", gettext_noop("Object")),
        EditorField("card", "id", gettext_noop("Card (for a new object)")),
        EditorField("controller", "id", gettext_noop("Controller")),
        EditorField("loyalty", "int",
                    gettext_noop("Loyalty counters (empty: printed loyalty)")),
        EditorField("copy_of", "id", gettext_noop("Enters as a copy of")),
        EditorField("attacking", "id", gettext_noop("Enters attacking")),
    ), to_args, from_args))
