"""Time to validate the whole scenario library, every variant in every era."""

from __future__ import annotations

import time
from pathlib import Path

import yaml

from engine.check import check_document

LIBRARY = Path(__file__).resolve().parents[2] / "scenarios" / "library"


def report() -> None:
    files = sorted(LIBRARY.rglob("*.yaml"))
    if not files:
        print("library: no scenario files yet")
        return
    docs = [yaml.safe_load(f.read_text(encoding="utf-8")) for f in files]
    start = time.perf_counter()
    bad = 0
    for doc in docs:
        if not check_document(doc).ok:
            bad += 1
    elapsed = time.perf_counter() - start
    print(f"library: {len(files)} scenarios validated in every era and variant in "
          f"{elapsed:.2f} s (target < 2 s){f'; {bad} with problems' if bad else ''}")
    from engine.eras import find_era
    from engine.notation import parse
    from engine.runner import run_variant, scenario_eras

    slowest = (0.0, "")
    for doc in docs:
        scenario = parse(doc)
        variant = scenario.variant(0)
        for era in scenario_eras(scenario, variant):
            start = time.perf_counter()
            run_variant(find_era(era), variant)
            took = time.perf_counter() - start
            slowest = max(slowest, (took, f"{doc['id']} in {era}"))
    print(f"library: the slowest single run takes {slowest[0] * 1000:.2f} ms "
          f"({slowest[1]}; every document must finish within 10 ms)")
