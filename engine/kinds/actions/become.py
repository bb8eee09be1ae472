"""`become: {ID: {types, subtypes, supertypes, power, toughness, loyalty, keywords}}`: an
effect changes an object's characteristics (613). An attacked planeswalker or battle that
stops being one, or an attacking or blocking creature that stops being a creature, is
removed from combat (506.4).

`become: {id: ID, copy_of: ID2}` (with `legendary: false` for "except it isn't
legendary"): ID becomes a copy of ID2 without entering the battlefield (707.2, 707.4): it
keeps its counters, damage and status, and gets no enters-with counters (a planeswalker
with no loyalty counters is then put into its owner's graveyard, 704.5i)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import schema_parts as sp
from engine.copies import Exceptions, as_copy, copiable_values, own_values
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
    listed,
)
from engine.state import KEYWORDS, PERMANENT_TYPES, GameState, Obj, evolve
from engine.trace import Trace
from engine.zones import remove_from_combat

BECOME_FIELDS = ("types", "subtypes", "supertypes", "power", "toughness", "loyalty",
                 "keywords")
COPY_FIELDS = ("id", "copy_of", "legendary")


@dataclass(frozen=True, slots=True)
class Change:
    """The characteristics an object gets; None keeps its own."""

    types: frozenset[str] | None = None
    subtypes: tuple[str, ...] | None = None
    supertypes: frozenset[str] | None = None
    power: int | None = None
    toughness: int | None = None
    loyalty: int | None = None
    """Its printed loyalty (306.5a): not its loyalty counters."""
    keywords: frozenset[str] | None = None


@dataclass(frozen=True, slots=True)
class BecomeCopy:
    id: str
    copy_of: str
    legendary: bool | None = None


@dataclass(frozen=True, slots=True)
class Become:
    changes: Mapping[str, Change]
    copy: BecomeCopy | None = None


def _change(raw: Mapping[str, Any]) -> Change:
    def words(key: str) -> list[str] | None:
        value = raw.get(key)
        return list(value) if isinstance(value, list) else None

    types, subtypes, supertypes, keywords = (words(k) for k in (
        "types", "subtypes", "supertypes", "keywords"))
    return Change(
        types=frozenset(types) if types is not None else None,
        subtypes=tuple(subtypes) if subtypes is not None else None,
        supertypes=frozenset(supertypes) if supertypes is not None else None,
        power=raw.get("power"), toughness=raw.get("toughness"), loyalty=raw.get("loyalty"),
        keywords=frozenset(keywords) if keywords is not None else None)


def _is_copy_form(args: Mapping[str, Any]) -> bool:
    """`{id: ID, copy_of: ID2}` rather than `{ID: {...}}` (whose values are mappings)."""
    return "copy_of" in args and not isinstance(args["copy_of"], dict)


def _parse_copy(ctx: ParseContext, args: Mapping[str, Any], path: str) -> Become | None:
    ctx.fields(args, path, COPY_FIELDS, ("id", "copy_of"))
    ctx.obj_ref(args.get("id"), f"{path}.id")
    ctx.obj_ref(args["copy_of"], f"{path}.copy_of")
    if args.get("id") == args["copy_of"]:
        ctx.add(f"{path}.copy_of", "an object can't become a copy of itself")
    legendary = args.get("legendary")
    if legendary is not None and not isinstance(legendary, bool):
        ctx.add(f"{path}.legendary", "`legendary` must be true or false")
    return Become({}, BecomeCopy(str(args.get("id")), str(args["copy_of"]), legendary))


def parse(ctx: ParseContext, args: Any, path: str) -> Become | None:
    if not ctx.mapping(args, path, "become"):
        return None
    if _is_copy_form(args):
        return _parse_copy(ctx, args, path)
    before = len(ctx.err.items)
    for o, change in args.items():
        ctx.obj_ref(o, f"{path}.{o}")
        if not isinstance(change, dict) or not change:
            ctx.add(f"{path}.{o}", f"a change is a mapping of: {', '.join(BECOME_FIELDS)} "
                                   f"(or `become: {{id: ID, copy_of: ID}}` for a copy)")
            continue
        for k, v in change.items():
            if k not in BECOME_FIELDS:
                ctx.add(f"{path}.{o}.{k}", f"unknown field {k!r}; expected: "
                                           f"{', '.join(BECOME_FIELDS)}")
            elif k in ("power", "toughness", "loyalty"):
                lo = 0 if k == "loyalty" else -MAX_NUMBER
                if not is_int(v) or not lo <= v <= MAX_NUMBER:
                    ctx.add(f"{path}.{o}.{k}", f"`{k}` must be a whole number"
                                               + (" from 0" if lo == 0 else ""))
            elif not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                ctx.add(f"{path}.{o}.{k}", f"`{k}` must be a list of words")
            elif k == "keywords":
                for x in v:
                    if x not in KEYWORDS:
                        ctx.add(f"{path}.{o}.{k}", f"unknown keyword {x!r}")
            elif k == "types":
                for x in v:
                    if x not in PERMANENT_TYPES:
                        ctx.add(f"{path}.{o}.{k}", f"unknown permanent type {x!r}")
    if len(ctx.err.items) > before:
        return None  # a misshapen list (e.g. a list in `types`) can't become a frozenset
    return Become({o: _change(change) for o, change in args.items()
                   if isinstance(change, dict)})


def perform(era: type[Era], state: GameState, trace: Trace, value: Become,
            at: PerformContext) -> GameState:
    if value.copy is not None:
        return _become_copy(state, trace, value.copy, at)
    for oid, change in value.changes.items():
        obj = state.obj(oid)
        if not obj.on_battlefield:
            raise DocumentError.at(f"{at.path}.{oid}", f"{oid} is not on the battlefield")
        new = evolve(
            obj,
            types=obj.types if change.types is None else change.types,
            subtypes=obj.subtypes if change.subtypes is None else change.subtypes,
            supertypes=obj.supertypes if change.supertypes is None else change.supertypes,
            power=obj.power if change.power is None else change.power,
            toughness=obj.toughness if change.toughness is None else change.toughness,
            loyalty=obj.loyalty if change.loyalty is None else change.loyalty,
            keywords=obj.keywords if change.keywords is None else change.keywords,
            # Not copy effects: copies of it still copy what it was (707.2), and it is
            # itself again once it leaves the battlefield (400.7).
            copiable=copiable_values(obj), printed=own_values(obj),
            pw_errata=obj.pw_errata and change.supertypes is None,
        )
        trace.add(None, "effect.characteristics", object=oid,
                  types=sorted(new.types), power=new.power, toughness=new.toughness)
        state = _left_combat(state.with_object(new), trace, obj, new)
    return state


def _become_copy(state: GameState, trace: Trace, value: BecomeCopy,
                 at: PerformContext) -> GameState:
    obj = state.objects.get(value.id)
    original = state.objects.get(value.copy_of)
    if obj is None or not obj.on_battlefield:
        raise DocumentError.at(f"{at.path}.id", f"{value.id} is not on the battlefield")
    if original is None:
        raise DocumentError.at(f"{at.path}.copy_of", f"{value.copy_of} never entered the game")
    if obj.copiable is not None:
        raise DocumentError.at(
            f"{at.path}.id", f"an earlier `become` changed {value.id}'s characteristics: the "
            f"engine does not layer a copy effect under it (613.2): write the board as it is "
            f"after both effects")
    new = as_copy(obj, original, Exceptions(value.legendary))
    trace.add("copy.copiable-values", "copy.becomes-copy", object=obj.id,
              original=original.id)
    if value.legendary is False:
        trace.add("copy.exceptions", "copy.not-legendary", object=obj.id)
    return _left_combat(state.with_object(new), trace, obj, new)


def _left_combat(state: GameState, trace: Trace, obj: Obj, new: Obj) -> GameState:
    """506.4: a change of characteristics that removes it from combat."""
    combat = state.combat
    if combat is None:
        return state
    oid = obj.id
    attacked = oid in combat.attackers.values()
    in_combat = oid in combat.attackers or combat.blocking(oid) is not None
    if (attacked and ((obj.is_planeswalker and not new.is_planeswalker)
                      or (obj.is_battle and not new.is_battle))) or (
            in_combat and obj.is_creature and not new.is_creature):
        state = remove_from_combat(state, oid, trace, "stopped-being")
    return state


def schema() -> sp.Schema:
    words = {"type": "array", "items": {"type": "string"}}
    fields = sp.complete("`become` fields", {
        "types": {"type": "array", "description": "The new card types.",
                  "items": sp.enum(tuple(sorted(PERMANENT_TYPES)), "A permanent type.")},
        "subtypes": words | {"description": "The new subtypes."},
        "supertypes": words | {"description": "The new supertypes."},
        "power": sp.integer("The new power."),
        "toughness": sp.integer("The new toughness."),
        "loyalty": sp.integer("The new printed loyalty (not its loyalty counters).", 0),
        "keywords": {"type": "array", "description": "The new keywords.",
                     "items": sp.enum(tuple(sorted(KEYWORDS)), "A keyword.")},
    }, BECOME_FIELDS)
    changes = sp.mapping("An effect changes an object's characteristics: ID: {...}.",
                         {"type": "object", "minProperties": 1, "properties": fields,
                          "additionalProperties": False})
    copy = sp.fields("An object becomes a copy of another without entering the battlefield "
                     "(707.2): {id: ID, copy_of: ID2}.", {
                         "id": sp.string("The object that becomes a copy."),
                         "copy_of": sp.string("The object it becomes a copy of."),
                         "legendary": sp.boolean("An exception of the copy effect: false for "
                                                 "\"it isn't legendary\" (707.9b)."),
                     }, ("id", "copy_of"))
    return {"description": "An effect changes an object's characteristics (ID: {...}), or "
                           "makes it a copy of another ({id, copy_of}).",
            "anyOf": [copy, changes]}


def to_args(data: Mapping[str, Any]) -> Any:
    if data.get("copy_of"):
        return {"id": data.get("object"), "copy_of": data["copy_of"]}
    return {data.get("object"): {k: v for k, v in (
        ("types", listed(data.get("types")) or None), ("power", data.get("power")),
        ("toughness", data.get("toughness"))) if v is not None}}


def from_args(args: Any) -> dict[str, Any] | None:
    a = args if isinstance(args, dict) else {}
    if _is_copy_form(a):
        if set(a) - {"id", "copy_of"}:
            return None
        return {"object": a.get("id"), "types": "", "power": None, "toughness": None,
                "copy_of": a["copy_of"]}
    obj, change = next(iter(a.items()))
    return {"object": obj, "types": ", ".join(change.get("types") or []),
            "power": change.get("power"), "toughness": change.get("toughness"),
            "copy_of": ""}


SPEC: ActionSpec[Become] = ActionSpec(
    name="become", parse=parse, perform=perform, schema=schema,
    editor=Editor((
        EditorField("object", "id", gettext_noop("Object")),
        EditorField("types", "list", gettext_noop("New types")),
        EditorField("power", "int", gettext_noop("Power")),
        EditorField("toughness", "int", gettext_noop("Toughness")),
        EditorField("copy_of", "id", gettext_noop("Becomes a copy of")),
    ), to_args, from_args))
