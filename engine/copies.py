"""Copies (707; 706 from Magic 2010 to mid-2021, 503 in Lorwyn's numbering).

An object that enters as a copy, or becomes one, takes the copiable values of what it
copies (707.2): name, card (and so its abilities and its Oracle text), card types,
subtypes, supertypes, power, toughness, loyalty, defense, keywords, colors, protection
— as modified by other copy effects, but not by other effects, status, counters, damage
or control. A copy effect may list exceptions (707.9): it "isn't legendary", it enters
with additional counters. A catalog card with a copy ability (Spark Double, Clever
Impersonator) says what it may copy and its exceptions in ``copy`` (``Card.copy_as``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from engine.cards import Effect, find_card
from engine.state import Obj

COPIABLE = tuple(f.name for f in fields(Obj) if f.name in {
    "name", "card", "types", "subtypes", "supertypes", "power", "toughness", "loyalty",
    "defense", "keywords", "instances", "colors", "protection", "pw_errata"})
"""The fields of an object that are copiable values (707.2)."""


@dataclass(frozen=True, slots=True)
class Exceptions:
    """A copy effect's exceptions (707.9): ``legendary`` False for "it isn't legendary"
    (True for "it's legendary"), ``counters`` by the copy's card type ("" for any)."""

    legendary: bool | None = None
    counters: Mapping[str, Mapping[str, int]] | None = None

    def extra_counters(self, copy: Obj) -> dict[str, int]:
        out: dict[str, int] = {}
        for card_type, counters in (self.counters or {}).items():
            if card_type == "" or card_type in copy.types:
                for kind, n in counters.items():
                    out[kind] = out.get(kind, 0) + n
        return out


def copiable_values(obj: Obj) -> dict[str, Any]:
    """``obj``'s copiable values (707.2): those of its copy effects, not of `become`
    effects nor "until end of turn" keywords."""
    if obj.copiable is not None:
        return dict(obj.copiable)
    values = {name: getattr(obj, name) for name in COPIABLE}
    if obj.eot_keywords:
        values["keywords"] = obj.keywords - obj.eot_keywords
    return values


def own_values(obj: Obj) -> dict[str, Any]:
    """What ``obj`` is again once it leaves the battlefield (its card's own values)."""
    if obj.printed is not None:
        return dict(obj.printed)
    return copiable_values(obj)


def card_copy_ability(obj: Obj) -> Effect | None:
    """The copy ability of ``obj``'s catalog card ("enter as a copy of ..."), if any."""
    if obj.card is None:
        return None
    return find_card(obj.card).copy_as


def card_exceptions(ability: Effect) -> Exceptions:
    legendary = ability.get("legendary")
    counters = ability.get("counters")
    return Exceptions(legendary if isinstance(legendary, bool) else None,
                      {str(t): {str(k): int(n) for k, n in c.items()}
                       for t, c in counters.items()} if isinstance(counters, dict) else None)


def why_not_copiable(ability: Effect, copier: Obj, original: Obj, controller: str,
                     ) -> str | None:
    """Why the card's copy ability can't copy ``original`` (its own restrictions)."""
    kinds = ability.get("of")
    name = copier.display_name()
    if not original.on_battlefield:
        return f"{name} can copy only a permanent on the battlefield; " \
               f"{original.id} is in the {original.zone}"
    if kinds and not original.types & set(kinds):
        return f"{name} can copy only a {' or '.join(kinds)}; {original.id} is a " \
               f"{' '.join(sorted(original.types)) or 'permanent with no card type'}"
    excluded = ability.get("not")
    if excluded and original.types & set(excluded):
        return f"{name} can't copy a {' or '.join(excluded)}"
    if ability.get("controlled_by_you") and original.controller != controller:
        return f"{name} can copy only a permanent its controller {controller} controls; " \
               f"{original.controller} controls {original.id}"
    return None


def as_copy(copier: Obj, original: Obj, exceptions: Exceptions) -> Obj:
    """``copier`` with ``original``'s copiable values and the exceptions applied (the
    copy's own values are kept to return to when it leaves the battlefield)."""
    from engine.state import evolve

    values = copiable_values(original)
    if exceptions.legendary is False:
        values["supertypes"] = frozenset(values.get("supertypes", frozenset())) - {
            "legendary"}
        values["pw_errata"] = False
    elif exceptions.legendary is True:
        values["supertypes"] = frozenset(values.get("supertypes", frozenset())) | {
            "legendary"}
    return evolve(copier, **values, printed=own_values(copier), copiable=None)
