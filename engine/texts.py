"""The texts of a document: a mapping language -> text, checked when parsed, and shown
in a language with ``{param}`` and ``{object}`` placeholders filled in."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.cards import UnknownCard, find_card
from engine.document import languages
from engine.errors import Errors

if TYPE_CHECKING:
    from engine.notation import Variant

PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_-]*)\}")


def parse_text(value: Any, path: str, err: Errors, *, required: bool) -> dict[str, str]:
    """A text field: a mapping language -> non-empty text, English required."""
    if value is None:
        if required:
            err.add(path, f"`{path}` is required: a mapping language -> text with at least `en`")
        return {}
    if not isinstance(value, dict):
        err.add(path, "a text is a mapping language -> text, e.g. {en: ..., it: ..., es: ...}")
        return {}
    out: dict[str, str] = {}
    known = languages()
    for lang, text in value.items():
        if lang not in known:
            err.add(f"{path}.{lang}", f"unknown language {lang!r}; expected one of "
                                      f"{', '.join(known)}")
        elif not isinstance(text, str) or not text.strip():
            err.add(f"{path}.{lang}", "must be a non-empty string")
        else:
            out[lang] = text
    if "en" not in out and isinstance(value, dict) and "en" not in value:
        err.add(f"{path}.en", "the English text (`en`) is required")
    return out



def render_text(text: Mapping[str, str], language: str, variant: Variant) -> str:
    """A text in ``language`` (English when missing) with ``{param}`` replaced by the
    variant's value and ``{object}`` by that object's printed name in the language.
    A parameter whose value is a catalog card's slug shows the card's name."""
    raw = text.get(language) or text.get("en", "")
    objects = dict(variant.state.objects)
    objects.update({o.id: o for o in variant.new_objects.values()})

    def name_of(value: Any) -> str:
        if isinstance(value, str):
            try:
                card = find_card(value)
            except UnknownCard:
                return value
            return card.name.get(language) or card.name["en"]
        return str(value)

    def sub(match: re.Match[str]) -> str:
        key = match.group(1)
        if key in variant.values:
            return name_of(variant.values[key])
        if key in objects:
            return objects[key].display_name(language)
        if key in variant.state.players:
            return key.capitalize()
        return match.group(0)

    return PLACEHOLDER.sub(sub, raw)
