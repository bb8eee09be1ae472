"""Rule history: what each update changed, which rule numbers moved, and where two
traces of the same scenario under two eras first part ways."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from engine import rulebook
from engine.eras import ERA_KEYS
from engine.trace import TraceStep

DATA = Path(__file__).with_name("data") / "eras.yaml"


@cache
def _changes() -> dict[str, list[dict[str, str]]]:
    data: dict[str, list[dict[str, str]]] = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    return data


def changes(era: str, language: str = "en") -> list[str]:
    """What the update that opened ``era`` changed, in our words."""
    return [c.get(language) or c["en"] for c in _changes().get(era, [])]


@dataclass(frozen=True, slots=True)
class RuleMove:
    key: str
    before: str | None  # None: the rule is new in this era
    after: str | None  # None: the rule was removed in this era


def moved_rules(era: str) -> list[RuleMove]:
    """Rules that appeared, were renumbered or were removed by the update opening
    ``era`` (compared with the era before; the first era has none before it)."""
    i = ERA_KEYS.index(era)
    if i == 0:
        return []
    prev = ERA_KEYS[i - 1]
    out = []
    for key in sorted(rulebook.catalogue()):
        before = rulebook.number(key, prev) if rulebook.exists(key, prev) else None
        after = rulebook.number(key, era) if rulebook.exists(key, era) else None
        if before != after:
            out.append(RuleMove(key, before, after))
    return out


DESCRIPTIVE = frozenset({"wording"})
"""Data that describes a step without being what happened (a card's Oracle text)."""


def step_signature(step: TraceStep) -> tuple[Any, ...]:
    """What a step did, independent of how its rule was numbered in its era."""
    return (step.rule_key, step.event,
            tuple(sorted((k, repr(v)) for k, v in step.data.items() if k not in DESCRIPTIVE)))


def first_divergence(a: list[TraceStep], b: list[TraceStep]) -> int | None:
    """The index of the first step where two traces differ (None when they agree)."""
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if step_signature(x) != step_signature(y):
            return i
    if len(a) != len(b):
        return min(len(a), len(b))
    return None
