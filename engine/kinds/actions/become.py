"""`become: {ID: {types, subtypes, supertypes, power, toughness, keywords}}`: an effect
changes an object's characteristics (613). An attacked planeswalker or battle that stops
being one, or an attacking or blocking creature that stops being a creature, is removed
from combat (506.4)."""

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
    listed,
)
from engine.state import KEYWORDS, PERMANENT_TYPES, GameState, evolve
from engine.trace import Trace
from engine.zones import remove_from_combat

BECOME_FIELDS = ("types", "subtypes", "supertypes", "power", "toughness", "keywords")


@dataclass(frozen=True, slots=True)
class Change:
    """The characteristics an object gets; None keeps its own."""

    types: frozenset[str] | None = None
    subtypes: tuple[str, ...] | None = None
    supertypes: frozenset[str] | None = None
    power: int | None = None
    toughness: int | None = None
    keywords: frozenset[str] | None = None


@dataclass(frozen=True, slots=True)
class Become:
    changes: Mapping[str, Change]


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
        power=raw.get("power"), toughness=raw.get("toughness"),
        keywords=frozenset(keywords) if keywords is not None else None)


def parse(ctx: ParseContext, args: Any, path: str) -> Become | None:
    if not ctx.mapping(args, path, "become"):
        return None
    before = len(ctx.err.items)
    for o, change in args.items():
        ctx.obj_ref(o, f"{path}.{o}")
        if not isinstance(change, dict) or not change:
            ctx.add(f"{path}.{o}", f"a change is a mapping of: {', '.join(BECOME_FIELDS)}")
            continue
        for k, v in change.items():
            if k not in BECOME_FIELDS:
                ctx.add(f"{path}.{o}.{k}", f"unknown field {k!r}; expected: "
                                           f"{', '.join(BECOME_FIELDS)}")
            elif k in ("power", "toughness"):
                if not is_int(v) or abs(v) > MAX_NUMBER:
                    ctx.add(f"{path}.{o}.{k}", f"`{k}` must be a whole number")
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
            keywords=obj.keywords if change.keywords is None else change.keywords,
        )
        trace.add(None, "effect.characteristics", object=oid,
                  types=sorted(new.types), power=new.power, toughness=new.toughness)
        combat = state.combat
        state = state.with_object(new)
        if combat is not None:
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
        "keywords": {"type": "array", "description": "The new keywords.",
                     "items": sp.enum(tuple(sorted(KEYWORDS)), "A keyword.")},
    }, BECOME_FIELDS)
    return sp.mapping("An effect changes an object's characteristics: ID: {...}.",
                      {"type": "object", "minProperties": 1, "properties": fields,
                       "additionalProperties": False})


def to_args(data: Mapping[str, Any]) -> Any:
    return {data.get("object"): {k: v for k, v in (
        ("types", listed(data.get("types")) or None), ("power", data.get("power")),
        ("toughness", data.get("toughness"))) if v is not None}}


def from_args(args: Any) -> dict[str, Any] | None:
    obj, change = next(iter((args if isinstance(args, dict) else {}).items()))
    return {"object": obj, "types": ", ".join(change.get("types") or []),
            "power": change.get("power"), "toughness": change.get("toughness")}


SPEC: ActionSpec[Become] = ActionSpec(
    name="become", parse=parse, perform=perform, schema=schema,
    editor=Editor((
        EditorField("object", "id", gettext_noop("Object")),
        EditorField("types", "list", gettext_noop("New types")),
        EditorField("power", "int", gettext_noop("Power")),
        EditorField("toughness", "int", gettext_noop("Toughness")),
    ), to_args, from_args))
