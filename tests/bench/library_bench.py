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
