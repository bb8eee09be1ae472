"""The rule catalogue: rule numbers and short summaries per era, as data.

``data/rules.yaml`` maps a stable key (``trample.planeswalker-excess``) to its versions:
from which era, the number it had there, and a summary in our own words in English,
Italian and Spanish. The engine cites keys; the era resolves each to its number, so the
trace gives the rule as numbered in the era being simulated.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, TypedDict

import yaml

from engine.errors import EngineError

DATA = Path(__file__).with_name("data") / "rules.yaml"
LANGUAGES = ("en", "it", "es")


class RuleVersion(TypedDict, total=False):
    era: str
    number: str
    removed: bool
    summary: dict[str, str]


class UnknownRule(EngineError):
    pass


def _era_keys() -> tuple[str, ...]:
    from engine.eras import ERA_KEYS

    return ERA_KEYS


@cache
def catalogue() -> dict[str, list[RuleVersion]]:
    raw: dict[str, Any] = yaml.safe_load(DATA.read_text(encoding="utf-8")) or {}
    order = _era_keys()
    out: dict[str, list[RuleVersion]] = {}
    for key, versions in raw.items():
        rows: list[RuleVersion] = []
        for v in versions:
            row: RuleVersion = {
                "era": v["from"],
                "number": str(v.get("number", "")),
                "removed": bool(v.get("removed", False)),
                "summary": dict(v.get("summary") or {}),
            }
            rows.append(row)
        rows.sort(key=lambda r: order.index(r["era"]))
        out[key] = rows
    return out


@cache
def version(key: str, era: str) -> RuleVersion:
    """The version of rule ``key`` in force in ``era``; an error if none is."""
    order = _era_keys()
    versions = catalogue().get(key)
    if not versions:
        raise UnknownRule(f"rule {key!r} is not in the rule catalogue")
    idx = order.index(era)
    found: RuleVersion | None = None
    for v in versions:
        if order.index(v["era"]) <= idx:
            found = v
    if found is None or found["removed"]:
        raise UnknownRule(f"rule {key!r} does not exist in era {era}")
    return found


def number(key: str, era: str) -> str:
    return version(key, era)["number"]


def exists(key: str, era: str) -> bool:
    try:
        version(key, era)
    except UnknownRule:
        return False
    return True


def summary(key: str, era: str, language: str = "en") -> str:
    texts = version(key, era)["summary"]
    return texts.get(language) or texts.get("en", "")


def history(key: str) -> list[RuleVersion]:
    """Every version of a rule, oldest first (for the rule-history pages)."""
    return list(catalogue().get(key, []))
