"""Engine speed: a typical 10-object combat scenario, parsed document in, outcome with
trace out, on one core."""

from __future__ import annotations

import copy
import time
from typing import Any

from engine.eras import find_era
from engine.notation import parse
from engine.runner import run_variant

TYPICAL: dict[str, Any] = {
    "format": 1, "id": "bench-combat", "topic": "trample-into-planeswalkers", "difficulty": 3,
    "title": {"en": "Bench"},
    "setup": {
        "turn": {"active": "alice", "step": "main1"},
        "players": [{"id": "alice", "life": 20}, {"id": "bob", "life": 20}],
        "battlefield": [
            {"id": "wurm", "card": "craw-wurm", "controller": "alice", "keywords": ["trample"]},
            {"id": "rats", "card": "typhoid-rats", "controller": "alice"},
            {"id": "knight", "card": "youthful-knight", "controller": "alice"},
            {"id": "angel", "card": "serra-angel", "controller": "alice"},
            {"id": "garruk", "card": "garruk-wildspeaker", "controller": "bob",
             "counters": {"loyalty": 3}},
            {"id": "jace", "card": "jace-beleren", "controller": "bob", "counters": {"loyalty": 4}},
            {"id": "wall", "card": "wall-of-wood", "controller": "bob"},
            {"id": "cadet", "card": "eager-cadet", "controller": "bob"},
            {"id": "spider", "card": "giant-spider", "controller": "bob"},
            {"id": "bears", "card": "grizzly-bears", "controller": "bob"},
        ],
    },
    "actions": [
        {"attack": {"wurm": "garruk", "rats": "jace", "knight": "bob", "angel": "jace"}},
        {"block": {"wall": "wurm", "cadet": "wurm", "spider": "angel", "bears": "knight"}},
        {"combat_damage": {}},
    ],
    "questions": [
        {"id": "q1", "kind": "number", "ask": {"en": "Garruk?"}, "answer": {"loyalty": "garruk"}},
        {"id": "q2", "kind": "number", "ask": {"en": "Bob?"}, "answer": {"life": "bob"}},
        {"id": "q3", "kind": "yesno", "ask": {"en": "Blocked?"}, "answer": {"blocked": "wurm"}},
    ],
}


def one_run(doc: dict[str, Any], era_key: str = "m14-2013") -> int:
    scenario = parse(doc)
    outcome = run_variant(find_era(era_key), scenario.variant(0))
    return len(outcome.trace.steps)


def runs_per_second_parsed(seconds: float = 2.0) -> float:
    """Parsed scenario in (the web app keeps one per scenario version): variant, run,
    answers and trace out."""
    scenario = parse(copy.deepcopy(TYPICAL))
    era = find_era("m14-2013")
    variant = scenario.variant(0)
    run_variant(era, variant)
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        run_variant(era, variant)
        n += 1
    return n / (time.perf_counter() - start)


def runs_per_second(seconds: float = 2.0) -> tuple[float, int]:
    docs = [copy.deepcopy(TYPICAL) for _ in range(64)]
    one_run(docs[0])
    n = 0
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps = one_run(docs[n % len(docs)])
        n += 1
    return n / (time.perf_counter() - start), steps
