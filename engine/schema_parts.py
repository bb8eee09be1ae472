"""Small builders of JSON Schema (draft 2020-12) fragments.

Each action and query kind writes its argument's fragment with these
(``engine.kinds``); ``engine.schema`` assembles the whole document's schema from them.
"""

from __future__ import annotations

from typing import Any

from engine.document import MAX_NUMBER

Schema = dict[str, Any]


def ref(name: str, description: str = "") -> Schema:
    out: Schema = {"$ref": f"#/$defs/{name}"}
    if description:
        out["description"] = description
    return out


def integer(description: str, lo: int | None = -MAX_NUMBER, hi: int | None = MAX_NUMBER,
            ) -> Schema:
    """A whole number, or a parameter (``$name``) that stands for one."""
    number: Schema = {"type": "integer"}
    if lo is not None:
        number["minimum"] = lo
    if hi is not None:
        number["maximum"] = hi
    return {"description": description, "anyOf": [number, ref("param_ref")]}


def enum(values: tuple[str, ...] | list[str], description: str) -> Schema:
    """One of the engine's fixed words, or a parameter that stands for one."""
    return {"description": description, "anyOf": [{"enum": list(values)}, ref("param_ref")]}


def string(description: str) -> Schema:
    return {"type": "string", "description": description}


def boolean(description: str) -> Schema:
    return {"type": "boolean", "description": description}


def ids(description: str) -> Schema:
    return {"type": "array", "description": description, "items": {"type": "string"}}


def mapping(description: str, values: Schema) -> Schema:
    """A non-empty mapping id -> value (attack, block, move, ...)."""
    return {"type": "object", "description": description, "minProperties": 1,
            "additionalProperties": values}


def fields(description: str, properties: Schema, required: tuple[str, ...] = ()) -> Schema:
    out: Schema = {"type": "object", "description": description, "properties": properties,
                   "additionalProperties": False}
    if required:
        out["required"] = list(required)
    return out


def nothing(description: str) -> Schema:
    """``{}`` (or nothing at all)."""
    return {"description": description,
            "anyOf": [{"type": "null"}, {"type": "object", "maxProperties": 0}]}


def redirect_map() -> Schema:
    """``redirect_to`` of a spell or ability: player -> planeswalker."""
    return mapping("The redirection rule (before dom-2018): player -> the planeswalker "
                   "they control that the damage is dealt to instead.",
                   {"type": "string"})


def complete[T](name: str, entries: dict[str, T], expected: tuple[str, ...]) -> dict[str, T]:
    """``entries`` in the engine's order, refusing to build if one is missing or extra."""
    if set(entries) != set(expected):
        raise RuntimeError(f"engine/schema.py: the {name} described "
                           f"({', '.join(sorted(entries))}) are not the engine's "
                           f"({', '.join(sorted(expected))})")
    return {key: entries[key] for key in expected}
