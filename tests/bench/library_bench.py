"""Time to validate the whole scenario library, every variant in every era; and to load it
into the database (``load_scenarios``) the first time, again unchanged, and again with
every file checked (``--force``)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from engine import check_document, find_era, parse, run_variant, scenario_eras

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ROOT / "scenarios" / "library"

# Run in a process of its own (its own settings and SQLite file): seconds per load.
LOADS = r'''
import time
from io import StringIO

import django

django.setup()
from django.core.management import call_command

call_command("migrate", verbosity=0)
for args in ((), (), ("--force",)):
    start = time.perf_counter()
    call_command("load_scenarios", *args, stdout=StringIO())
    print(time.perf_counter() - start)
'''


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
    report_loads()


def load_figures() -> tuple[float, float, float]:
    """Seconds to load the library into an empty database, to load it again unchanged,
    and to load it again checking every file (``--force``: what every reload cost before
    the loader compared the files' hashes)."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.dev",
               "DJANGO_SQLITE_PATH": str(Path(tmp) / "library-bench.sqlite3")}
        env.pop("DATABASE_URL", None)
        out = subprocess.run([sys.executable, "-c", LOADS], cwd=ROOT, env=env, check=True,
                             capture_output=True, text=True).stdout
    first, again, forced = (float(line) for line in out.split())
    return first, again, forced


def report_loads() -> None:
    first, again, forced = load_figures()
    print(f"library: load_scenarios of the unchanged library {again:.2f} s (each file read "
          f"and hashed, nothing parsed or checked); with every file checked (--force) "
          f"{forced:.2f} s; the first load {first:.2f} s")
