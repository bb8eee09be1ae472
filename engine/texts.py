"""The texts of a document: a mapping language -> text, checked when parsed, and shown
in a language with ``{param}`` and ``{object}`` placeholders filled in."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.cards import Card, card_or_none
from engine.document import languages
from engine.errors import Errors

if TYPE_CHECKING:
    from engine.notation import Variant
    from engine.state import Obj

PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_-]*)(?:\.([a-z]+))?(?:\|([^{}]*))?\}")
"""``{name}``, ``{name.attribute}``, ``{name|one form|other form}`` (``#`` in a form is
the number): docs/scenario-format.md, "Generators"."""


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



class Named(NamedTuple):
    """A placeholder that names something: a card a parameter drew (``card``, its slug)
    or an object of the board (``obj``)."""

    name: str
    card: str | None = None
    obj: Obj | None = None


ATTRIBUTES = ("power", "toughness", "pt", "loyalty", "defense", "damage")
"""What ``{object.attribute}`` shows: an object's at the start of the scenario (with its
counters), a drawn card's as printed; ``pt`` is "3/3"."""


def plural_index(n: int, language: str, forms: int) -> int:
    """Which of a placeholder's plural forms (``{n|counter|counters}``) a number takes:
    the first for one, the last otherwise. French and Brazilian Portuguese count 0 as
    one too (CLDR: i = 0,1), as their gettext catalogues do."""
    if forms < 2:
        return 0
    one = n in (0, 1) if language in ("fr", "pt-br") else n == 1
    return 0 if one else forms - 1


def object_attribute(obj: Obj, attr: str) -> int | str | None:
    if attr == "pt":
        if obj.current_power is None or obj.current_toughness is None:
            return None
        return f"{obj.current_power}/{obj.current_toughness}"
    value: int | None = {
        "power": obj.current_power, "toughness": obj.current_toughness,
        "loyalty": obj.current_loyalty if obj.is_planeswalker else None,
        "defense": obj.current_defense if obj.is_battle else None, "damage": obj.damage,
    }.get(attr)
    return value


def card_attribute(card: Card, attr: str) -> int | str | None:
    if attr == "pt":
        if card.power is None or card.toughness is None:
            return None
        return f"{card.power}/{card.toughness}"
    value: int | None = getattr(card, attr, None) if attr != "damage" else None
    return value


def resolve(match: re.Match[str], language: str, variant: Variant,
            objects: Mapping[str, Obj]) -> str | Named:
    """What a placeholder of ``PLACEHOLDER`` stands for in a variant: a parameter first
    (a card slug names the card), then an object, then a player (but an attribute is an
    object's first: ``{a.pt}`` of ``{id: a, card: $a}`` counts its counters); ``.attr``
    one of their ATTRIBUTES, ``|forms`` the plural form the number takes. An unknown one
    stays as written (the check reports it: ``placeholder_problems``)."""
    key, attr, forms = match.group(1), match.group(2), match.group(3)
    value: Any
    named: str | Named
    if key in variant.values and not (attr is not None and key in objects):
        value = variant.values[key]
        card = card_or_none(value)
        if attr is not None:
            value = card_attribute(card, attr) if card is not None else None
        named = (Named(card.name.get(language) or card.name["en"], card=card.slug)
                 if card is not None and attr is None else str(value))
    elif key in objects:
        obj = objects[key]
        value = object_attribute(obj, attr) if attr is not None else None
        named = Named(obj.display_name(language), obj=obj) if attr is None else str(value)
    elif key in variant.state.players and attr is None:
        value, named = None, key.capitalize()
    else:
        return match.group(0)
    if attr is not None and value is None:
        return match.group(0)
    if forms is None:
        return named
    if not isinstance(value, int) or isinstance(value, bool):
        return match.group(0)
    choices = forms.split("|")
    return choices[plural_index(value, language, len(choices))].replace("#", str(value))


def render_text(text: Mapping[str, str], language: str, variant: Variant) -> str:
    """A text in ``language`` (English when missing) with its placeholders filled in
    (``resolve``): ``{param}`` by the variant's value (a card's printed name in the
    language), ``{object}`` by the object's, ``{object.pt}`` by its "3/3", and
    ``{n|form|forms}`` by the plural form the number takes."""
    raw = text.get(language) or text.get("en", "")
    if "{" not in raw:
        return raw
    objects = dict(variant.state.objects)
    objects.update({o.id: o for o in variant.new_objects.values()})

    def sub(match: re.Match[str]) -> str:
        out = resolve(match, language, variant, objects)
        return out.name if isinstance(out, Named) else out

    return PLACEHOLDER.sub(sub, raw)


def placeholder_problems(text: Mapping[str, str], path: str, params: Mapping[str, str],
                         objects: Mapping[str, Obj]) -> list[tuple[str, str]]:
    """(path, message) for each ``{x.attr}`` or ``{x|forms}`` placeholder of a text that
    can't be filled in: ``params`` maps each parameter to its kind."""
    out = []
    for language, raw in text.items():
        for m in PLACEHOLDER.finditer(raw):
            key, attr, forms = m.group(1), m.group(2), m.group(3)
            if attr is None and forms is None:
                continue
            at = f"{path}.{language}"
            if key not in params and key not in objects:
                out.append((at, f"{m.group(0)}: {key!r} is not a parameter or an object"))
            elif attr is not None and attr not in ATTRIBUTES:
                out.append((at, f"{m.group(0)}: unknown attribute {attr!r}; expected one of "
                                f"{', '.join(ATTRIBUTES)}"))
            elif attr is not None and params.get(key) in ("range", "choice"):
                out.append((at, f"{m.group(0)}: {key!r} is a number or a choice, not a card"))
            elif forms is not None and attr is None and params.get(key) not in ("range",
                                                                                   "choice"):
                out.append((at, f"{m.group(0)}: plural forms follow a number, such as a "
                                f"`range` parameter or {{object.loyalty|...}}"))
    return out
