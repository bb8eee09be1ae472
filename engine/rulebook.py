"""The rule catalogue: rule numbers and short summaries per era, as data.

``data/rules.yaml`` maps a stable key (``trample.planeswalker-excess``) to its versions:
from which era, the number it had there, and a summary in our own words in English,
Italian and Spanish. The engine cites keys; the era resolves each to its number, so the
trace gives the rule as numbered in the era being simulated.

``lookup`` answers ``python -m engine rule 306.7``: the keys with that number (or that
key), the eras in which it had it, its summary and the engine lines that cite it.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, TypedDict

import yaml

from engine.errors import EngineError

DATA = Path(__file__).with_name("data") / "rules.yaml"


class RuleVersion(TypedDict, total=False):
    era: str
    number: str
    removed: bool
    unsure: bool
    """The number was not read in a CR text of that date (`unsure: true` in the data):
    pages show it as not verified."""
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
                "unsure": bool(v.get("unsure", False)),
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


def unsure(key: str, era: str) -> bool:
    """Whether rule ``key``'s number in ``era`` was not verified (False for a rule not in
    force there)."""
    return exists(key, era) and version(key, era)["unsure"]


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


# -- lookup (``python -m engine rule``) ------------------------------------------------------

PACKAGE = Path(__file__).parent
_NUMBER = re.compile(r"\d{3}(\.\d+[a-z]?)?")


@dataclass(frozen=True, slots=True)
class EraRange:
    """Consecutive eras in which a rule had one number (``None``: not in the rules)."""

    first: str
    last: str
    number: str | None
    unsure: bool = False
    """The number was not verified in these eras (``unsure: true`` in the data)."""

    def __str__(self) -> str:
        eras = self.first if self.first == self.last else f"{self.first}..{self.last}"
        shown = self.number or "not in the rules"
        return f"{eras}: {shown}{' (number not verified)' if self.unsure else ''}"


@dataclass(frozen=True, slots=True)
class Found:
    """One catalogue key found by ``lookup``."""

    key: str
    ranges: tuple[EraRange, ...]
    summary: str
    citations: tuple[tuple[str, int], ...]  # (path inside the engine package, line)


def era_ranges(key: str) -> tuple[EraRange, ...]:
    """The number of rule ``key`` era by era, consecutive eras with one number grouped,
    from the era it first appears in."""
    out: list[EraRange] = []
    for era in _era_keys():
        if not any(v["era"] == era for v in catalogue()[key]) and not out:
            continue
        n = number(key, era) if exists(key, era) else None
        doubt = unsure(key, era)
        if out and out[-1].number == n and out[-1].unsure == doubt:
            out[-1] = EraRange(out[-1].first, era, n, doubt)
        else:
            out.append(EraRange(era, era, n, doubt))
    return tuple(out)


def citations(key: str, package: Path = PACKAGE) -> tuple[tuple[str, int], ...]:
    """Every line of the engine's own Python files that holds ``key`` (not as part of a
    longer key), as (path relative to the package directory, line number)."""
    pattern = re.compile(rf"(?<![\w.-]){re.escape(key)}(?![\w-]|\.\w)")
    out: list[tuple[str, int]] = []
    for path in sorted(package.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if key not in text:
            continue
        for i, line in enumerate(text.splitlines(), start=1):
            if pattern.search(line):
                out.append((path.relative_to(package).as_posix(), i))
    return tuple(out)


def lookup(query: str, language: str = "en") -> list[Found]:
    """The catalogue keys a rule number (``306.7``, ``702.19c``) or a key
    (``combat.declare-attackers``) names. For a number, only the eras in which each key
    had that number; for a key, all of them. An error, with close matches, if none."""
    query = query.strip().lower()
    rules = catalogue()
    if _NUMBER.fullmatch(query):
        keys = _keys_numbered(query)
        if not keys:
            raise UnknownRule(f"no rule numbered {query} in any era{_did_you_mean(query)}")
    elif query in rules:
        keys = [query]
    else:
        raise UnknownRule(f"no rule key {query!r} in the catalogue{_did_you_mean(query)}")
    found = []
    for key in keys:
        ranges = era_ranges(key)
        in_force = [v for v in rules[key] if not v["removed"]]
        if query != key:
            ranges = tuple(r for r in ranges if r.number == query)
            in_force = [v for v in in_force if v["number"] == query]
        texts = in_force[-1]["summary"] if in_force else rules[key][-1]["summary"]
        found.append(Found(key, ranges, texts.get(language) or texts.get("en", ""),
                           citations(key)))
    return found


def _keys_numbered(n: str) -> list[str]:
    """The keys that have number ``n`` in some era (a removed rule's note doesn't count)."""
    return [k for k, vs in catalogue().items()
            if any(v["number"] == n and not v["removed"] for v in vs)]


def _did_you_mean(query: str) -> str:
    """``; did you mean ...?`` with the closest keys or numbers, or nothing: for a number,
    its subrules (``306`` -> ``306.1``..., ``702.19`` -> ``702.19b``...) or similar ones."""
    rules = catalogue()
    if _NUMBER.fullmatch(query):
        numbers = sorted({v["number"] for vs in rules.values() for v in vs if not v["removed"]})
        sub = "." if "." not in query else ""
        close = [n for n in numbers if len(n) > len(query) and n.startswith(query)
                 and (n[len(query)] == sub or (not sub and n[len(query)].isalpha()))][:5]
        close = close or difflib.get_close_matches(query, numbers, n=3, cutoff=0.8)
        close = [f"{n} ({', '.join(_keys_numbered(n))})" for n in close]
    else:
        close = [k for k in rules if query in k][:5] or difflib.get_close_matches(
            query, list(rules), n=3, cutoff=0.6)
    return f"; did you mean {', '.join(close)}?" if close else ""
