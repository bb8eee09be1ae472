"""The card catalog: printed names in three languages, characteristics, loyalty
abilities, and the Oracle wording of each spell or ability by rules era."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from engine.errors import EngineError

DATA = Path(__file__).with_name("data") / "cards.yaml"
PLANES = Path(__file__).with_name("data") / "planes.yaml"


class UnknownCard(EngineError):
    pass


def slugify(name: str) -> str:
    """The catalog slug of an English card name: lowercase, apostrophes and commas
    dropped, other runs of non-alphanumerics turned into one hyphen."""
    text = re.sub(r"[',’]", "", name.lower())
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


@dataclass(frozen=True, slots=True)
class Wording:
    era: str
    targets: tuple[frozenset[str], ...]
    text: str


@dataclass(frozen=True, slots=True)
class Effect:
    kind: str
    params: Mapping[str, Any]

    def get(self, key: str, default: Any = None) -> Any:
        return self.params.get(key, default)


_LOYALTY_COST = re.compile(r"^[+-]?(\d+|X)$")


@dataclass(frozen=True, slots=True)
class Ability:
    """An activated ability. A loyalty ability's ``cost`` is its loyalty symbol (``+1``,
    ``0``, ``-3``, ``-X``, 606.2); any other ability's is its printed activation cost
    (``{4}, {T}``: mana symbols and the tap symbol, 602.1a)."""

    cost: str
    effect: Effect
    wordings: tuple[Wording, ...]
    timing: str = "instant"
    """``sorcery`` for "Activate only as a sorcery" (602.5d); otherwise any time its
    controller has priority."""

    def wording(self, era: str) -> Wording:
        return _wording_in(self.wordings, era)

    @property
    def is_loyalty(self) -> bool:
        """606.2: an activated ability with a loyalty symbol in its cost."""
        return bool(_LOYALTY_COST.match(self.cost.replace("−", "-").strip()))

    @property
    def taps(self) -> bool:
        """The tap symbol is part of its cost (107.5)."""
        return "{T}" in self.cost

    @property
    def mana(self) -> str:
        """The mana symbols of its cost (``{4}``), which the engine treats as paid."""
        return "".join(s for s in re.findall(r"\{[^}]*\}", self.cost) if s != "{T}")

    def cost_value(self, x: int | None) -> int:
        """The change in loyalty counters: +N, 0, -N, or -X with X chosen."""
        text = self.cost.replace("−", "-").strip()
        if text in ("-X", "−X"):
            return -(x or 0)
        return int(text)


@dataclass(frozen=True, slots=True)
class Card:
    slug: str
    name: Mapping[str, str]
    released: date
    types: frozenset[str]
    supertypes: frozenset[str]
    subtypes: tuple[str, ...]
    mana_cost: str = ""
    power: int | None = None
    toughness: int | None = None
    loyalty: int | None = None
    defense: int | None = None
    keywords: frozenset[str] = frozenset()
    effect: Effect | None = None
    wordings: tuple[Wording, ...] = ()
    abilities: tuple[Ability, ...] = ()
    text: str = ""
    type_line: Mapping[str, str] | None = None
    chaos: Effect | None = None
    chaos_text: str = ""
    encounter: Effect | None = None
    encounter_text: str = ""
    statics: tuple[Effect, ...] = ()          # a plane's modelled static abilities
    planeswalk_away: Effect | None = None     # "When you planeswalk away from ~, ..."
    copy_as: Effect | None = None
    """"You may have ~ enter as a copy of ...": what it may copy and the exceptions
    (707.9) — ``of`` (card types), ``controlled_by_you``, ``legendary``, ``counters``
    (type -> {counter kind: number} added if the copy has that type)."""
    triggers: tuple[Effect, ...] = ()
    """A permanent's modelled triggered abilities (engine/triggers.py), by kind."""
    colors: frozenset[str] = frozenset()
    """202.2: the colors of the mana symbols in its mana cost, or its color indicator."""
    protection: frozenset[str] = frozenset()
    """Qualities it has protection from (702.16), as printed."""
    modes: tuple[Ability, ...] = ()
    """A modal spell's modes (700.2), each with its effect and wording by era; the cost
    is unused."""

    def wording(self, era: str) -> Wording:
        return _wording_in(self.wordings, era)

    @property
    def is_spell_card(self) -> bool:
        return bool(self.types & {"instant", "sorcery"})


_MANA_COLORS = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}


def mana_colors(mana_cost: str) -> frozenset[str]:
    """202.2: an object is the color or colors of the mana symbols in its mana cost
    (a hybrid symbol is both its colors; a Phyrexian symbol is its color)."""
    return frozenset(_MANA_COLORS[c] for symbol in re.findall(r"\{([^}]*)\}", mana_cost)
                     for c in symbol.split("/") if c in _MANA_COLORS)


def _wording_in(wordings: tuple[Wording, ...], era: str) -> Wording:
    from engine.eras import ERA_KEYS

    idx = ERA_KEYS.index(era)
    found = wordings[0]
    for w in wordings:
        if ERA_KEYS.index(w.era) <= idx:
            found = w
    return found


def _wordings(raw: list[dict[str, Any]] | None) -> tuple[Wording, ...]:
    out = []
    for w in raw or []:
        targets = tuple(frozenset(t) for t in (w.get("targets") or []))
        out.append(Wording(w["from"], targets, str(w.get("text", ""))))
    return tuple(out)


def _effect(raw: dict[str, Any] | None) -> Effect | None:
    if not raw:
        return None
    params = {k: v for k, v in raw.items() if k != "kind"}
    return Effect(str(raw["kind"]), params)


def _card(raw: dict[str, Any]) -> Card:
    released = raw["released"]
    if not isinstance(released, date):
        released = date.fromisoformat(str(released))
    return Card(
        slug=raw["slug"],
        name=dict(raw["name"]),
        released=released,
        types=frozenset(raw.get("types") or ()),
        supertypes=frozenset(raw.get("supertypes") or ()),
        subtypes=tuple(raw.get("subtypes") or ()),
        mana_cost=str(raw.get("mana_cost") or ""),
        power=raw.get("power"),
        toughness=raw.get("toughness"),
        loyalty=raw.get("loyalty"),
        defense=raw.get("defense"),
        keywords=frozenset(raw.get("keywords") or ()),
        effect=_effect(raw.get("effect")),
        wordings=_wordings(raw.get("wordings")),
        abilities=tuple(
            Ability(str(a["cost"]), _effect(a.get("effect")) or Effect("none", {}),
                    _wordings(a.get("wordings")), str(a.get("timing") or "instant"))
            for a in raw.get("abilities") or ()
        ),
        text=str(raw.get("text") or raw.get("static") or ""),
        type_line=dict(raw["type_line"]) if raw.get("type_line") else None,
        chaos=_effect((raw.get("chaos") or {}).get("effect")),
        chaos_text=str((raw.get("chaos") or {}).get("text", "")),
        encounter=_effect((raw.get("encounter") or {}).get("effect")),
        encounter_text=str((raw.get("encounter") or {}).get("text", "")),
        statics=tuple(e for e in (_effect(m) for m in raw.get("modelled") or ()) if e),
        planeswalk_away=_effect(raw.get("planeswalk_away")),
        copy_as=_effect(raw.get("copy")),
        triggers=tuple(e for e in (_effect(t) for t in raw.get("triggers") or ()) if e),
        colors=frozenset(raw["colors"]) if "colors" in raw else mana_colors(
            str(raw.get("mana_cost") or "")),
        protection=frozenset(raw.get("protection") or ()),
        modes=tuple(
            Ability("", _effect(m.get("effect")) or Effect("none", {}),
                    _wordings(m.get("wordings")))
            for m in raw.get("modes") or ()
        ),
    )


@cache
def catalog() -> dict[str, Card]:
    raw = yaml.safe_load(DATA.read_text(encoding="utf-8")) or []
    if PLANES.exists():
        raw += yaml.safe_load(PLANES.read_text(encoding="utf-8")) or []
    return {c["slug"]: _card(c) for c in raw}


def find_card(slug: str) -> Card:
    try:
        return catalog()[slug]
    except (KeyError, TypeError):
        raise UnknownCard(f"unknown card {slug!r}") from None


def card_or_none(value: object) -> Card | None:
    """The catalog card a value names (a parameter's drawn slug), or None for any other
    value: a number, a word of a choice, an unknown slug."""
    return catalog().get(value) if isinstance(value, str) else None
