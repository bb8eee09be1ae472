"""The data-driven case corpus: tests/engine/cases/*.yaml.

Each file has optional ``defaults`` (players, turn, teams) and a list of ``cases``. A case
is a board (``battlefield``, ``hand``), ``actions``, the ``eras`` it runs in, and what
must hold afterwards:

- ``expect``: a list of ``{query: QUERY, is: VALUE}``; VALUE may be a mapping
  ``{ERA: VALUE, ..., else: VALUE}`` when the answer differs by era;
- ``cites``: rule keys the trace must cite (``{ERA: [...], else: [...]}`` allowed);
- ``numbers``: ``{ERA: [rule numbers]}`` that must appear in that era's trace;
- ``error``: ``{rule: KEY, path: PATH}`` when the actions are illegal (per era allowed).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from engine.eras import ERA_KEYS

CASES = Path(__file__).with_name("cases")


@dataclass(frozen=True)
class Case:
    file: str
    name: str
    era: str
    raw: dict[str, Any]
    defaults: dict[str, Any]

    @property
    def id(self) -> str:
        return f"{self.file}:{self.name}@{self.era}"


def era_range(spec: Any) -> list[str]:
    if spec in (None, "all"):
        return list(ERA_KEYS)
    if isinstance(spec, dict):
        lo = ERA_KEYS.index(spec.get("from", ERA_KEYS[0]))
        hi = ERA_KEYS.index(spec["to"]) if "to" in spec else len(ERA_KEYS) - 1
        return list(ERA_KEYS[lo:hi + 1])
    return list(spec)


def per_era(value: Any, era: str) -> tuple[bool, Any]:
    """``{ERA: v, else: v}`` picks by era; a range key ``from-ERA`` applies from that era
    on. Anything else applies to every era."""
    if isinstance(value, dict) and value and all(
            k in ERA_KEYS or k == "else" or str(k).startswith("from-") for k in value):
        if era in value:
            return True, value[era]
        best = None
        for k in value:
            if str(k).startswith("from-") and ERA_KEYS.index(k[5:]) <= ERA_KEYS.index(era):
                if best is None or ERA_KEYS.index(k[5:]) > ERA_KEYS.index(best[5:]):
                    best = k
        if best is not None:
            return True, value[best]
        if "else" in value:
            return True, value["else"]
        return False, None
    return True, value


def load_cases() -> list[Case]:
    out: list[Case] = []
    for path in sorted(CASES.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        defaults = data.get("defaults", {})
        for raw in data["cases"]:
            for era in era_range(raw.get("eras")):
                out.append(Case(path.stem, raw["name"], era, raw, defaults))
    return out


def document(case: Case) -> dict[str, Any]:
    raw, d = case.raw, case.defaults
    players = raw.get("players", d.get("players", [{"id": "alice", "life": 20},
                                                   {"id": "bob", "life": 20}]))
    setup: dict[str, Any] = {
        "turn": raw.get("turn", d.get("turn", {"active": "alice", "step": "main1"})),
        "players": players,
        "battlefield": raw.get("battlefield", []),
    }
    teams = raw.get("teams", d.get("teams"))
    if teams:
        setup["teams"] = teams
    for zone in ("hand", "graveyard", "exile", "library", "command", "planechase"):
        if zone in raw:
            setup[zone] = raw[zone]
    slug = "".join(c if c.isalnum() else "-" for c in case.name.lower())[:60].strip("-")
    return {
        "format": 1, "id": slug or "case", "topic": raw.get("topic", "loyalty"),
        "difficulty": 1, "title": {"en": case.name}, "setup": setup,
        "actions": raw.get("actions", []),
        "questions": [{"id": "q", "kind": "number", "ask": {"en": "life"},
                       "answer": {"life": players[0]["id"]}}],
    }
