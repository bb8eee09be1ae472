"""`make bench`: the speed goals of QUALITY.md, as figures measured in one run."""

from __future__ import annotations

import os
import subprocess
import sys


def main() -> int:
    sys.setrecursionlimit(10_000)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    from tests.bench import engine_bench

    rate, steps = engine_bench.runs_per_second()
    parsed = engine_bench.runs_per_second_parsed()
    print(f"engine: {parsed:,.0f} runs/s on one core for a 10-object combat scenario, "
          f"parsed scenario in, outcome with a {steps}-step trace out (target >= 5,000)")
    print(f"engine: {rate:,.0f} runs/s including validating the document dict "
          f"(notation.parse) each time")
    from tests.bench import library_bench

    library_bench.report()
    from tests.bench import authoring_bench

    authoring_bench.report()
    from tests.bench import board_bench

    board_bench.report()
    if "--no-web" not in sys.argv:
        from tests.bench import web_bench

        web_bench.main()
        # a worker's caches filled by real traffic, against the memory ceiling: in a
        # process of its own (production settings, its own database)
        subprocess.run([sys.executable, "-m", "tests.bench.memory_bench"], check=True)
    if "--no-growth" not in sys.argv:  # pages at 1x, 10x, 100x data (minutes the first time)
        from tests.bench import growth_bench

        growth_bench.report(growth_bench.DEFAULT_SCALES)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
