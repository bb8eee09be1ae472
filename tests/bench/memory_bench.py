"""Bounded memory: a worker's per-process caches filled by real traffic, each one's size
against its bound, and the process's resident memory against the ceiling stated in
``scenarios/caches.py`` (150 MB a worker).

    .venv/bin/python -m tests.bench.memory_bench [-n 4000]

Production's settings, a fresh SQLite database loaded with the library, and in one
process (as a gunicorn worker is) question pages and answers in every language of the site for
``n`` questions nobody saw before, each variant drawn at random, until the caches that
grow with traffic stop growing or reach their bound. For each cache: entries, estimated
bytes (``text_size`` for the byte-bounded ones; a deep ``sys.getsizeof`` of up to 200
values, scaled, for the others), its bounds, and its size when full at the measured size
per entry."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

CEILING_MB = 150


def deep_size(value: Any, seen: set[int] | None = None) -> int:
    """``sys.getsizeof`` of a value and everything it refers to (counted once)."""
    seen = set() if seen is None else seen
    if id(value) in seen or isinstance(value, type):
        return 0
    seen.add(id(value))
    total = sys.getsizeof(value)
    if isinstance(value, dict):
        total += sum(deep_size(k, seen) + deep_size(v, seen) for k, v in value.items())
    elif isinstance(value, (list, tuple, set, frozenset)):
        total += sum(deep_size(v, seen) for v in value)
    else:
        if hasattr(value, "__dict__"):
            total += deep_size(vars(value), seen)
        for slot in getattr(type(value), "__slots__", ()):
            if hasattr(value, slot):
                total += deep_size(getattr(value, slot), seen)
    return total


def rss_mb() -> float:
    """This process's resident memory (Linux /proc)."""
    status = Path("/proc/self/status").read_text()
    m = re.search(r"VmRSS:\s+(\d+) kB", status)
    return int(m.group(1)) / 1024 if m else 0.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=4000, help="fresh questions to serve")
    report(parser.parse_args().n)


def report(n: int = 4000) -> None:
    """Serve ``n`` fresh questions and their answers, then print each cache and the
    process's memory (``make bench`` runs it in a process of its own)."""
    from tests.bench.page_profile import prepare

    tmp = Path(tempfile.mkdtemp(prefix="quiz-memory-"))
    try:
        env, lines = prepare(tmp, n)
        os.environ.update(env)
        os.environ.pop("DATABASE_URL", None)
        fill_and_measure(n, lines)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def fill_and_measure(n: int, lines: list[str]) -> None:
    import django

    from tests.bench.page_profile import environ_for

    django.setup()
    from django.core.wsgi import get_wsgi_application

    from engine import catalog, rule_catalogue
    from scenarios import caches

    app = get_wsgi_application()
    catalog()
    rule_catalogue()  # as config.wsgi loads them

    def start_response(status: str, headers: Any, exc_info: Any = None) -> Any:
        assert status.startswith(("200", "303")), status

    def hit(line: str, mode: str, query: str = "") -> None:
        environ = environ_for(line, mode)
        environ["QUERY_STRING"] = query
        b"".join(app(environ, start_response))

    hit(lines[0], "page")
    start = rss_mb()
    from django.conf import settings

    languages = [code for code, _name in settings.LANGUAGES]  # the site's six
    for count, line in enumerate(lines[:n]):
        language = languages[count % len(languages)]
        line = line.replace("/en/", f"/{language}/", 1)
        hit(line, "page")
        hit(line, "answer")
    # the rule history's caches: the timeline, the rule index and search, each rule's page
    from django.urls import reverse
    from django.utils import translation

    from scenarios.models import Scenario

    cookie = lines[0].split("|")[1]
    slugs = list(Scenario.objects.published().values_list("slug", flat=True))
    for language in languages:
        with translation.override(language):
            paths = [reverse("quiz:history"), reverse("quiz:rules"),
                     reverse("quiz:rules") + "?q=combat+damage"]
            paths += [reverse("quiz:rule", args=[key]) for key in sorted(rule_catalogue())]
            paths += [reverse("quiz:history_scenario", args=[slug]) for slug in slugs[:20]]
        for path in paths:
            path, _, query = path.partition("?")
            hit(f"{path}|{cookie}|-|-", "page", query)
    now = rss_mb()
    print(f"memory: {n:,} questions served and answered in {len(languages)} languages, "
          f"and the rule history's pages; resident {start:.0f} MB after the first page, "
          f"{now:.0f} MB now (ceiling {CEILING_MB} MB a worker)")
    more = 0.0
    for cache in caches.registry():
        entries = len(cache)
        if not entries:
            print(f"memory:   {cache.name}: empty (bound {cache.maxsize} entries)")
            continue
        values = cache.stored()  # compressed caches: their packed values, as held
        sample = values[-200:]
        per_entry = sum(deep_size(v) for v in sample) / len(sample)
        held = per_entry * entries
        full = per_entry * cache.maxsize
        bound = f"{cache.maxsize} entries"
        if cache.maxbytes is not None:
            full = min(full, cache.maxbytes * per_entry / max(cache.bytes / entries, 1))
            bound += f" or {cache.maxbytes / 1e6:.0f} MB ({cache.bytes / 1e6:.1f} now)"
        more += max(0.0, full - held)
        print(f"memory:   {cache.name}: {entries} entries, ~{per_entry / 1024:.1f} KB each, "
              f"~{held / 1e6:.1f} MB now; bound {bound}: ~{full / 1e6:.1f} MB when full")
    # The engine's own: the variants kept of every scenario (generators draw many).
    from engine.notation import KEPT_VARIANTS, kept_variants

    variants = kept_variants()
    if variants:
        sample = variants[-200:]
        per_entry = sum(deep_size(v) for v in sample) / len(sample)
        held, full = per_entry * len(variants), per_entry * KEPT_VARIANTS
        more += max(0.0, full - held)
        print(f"memory:   engine variants: {len(variants)} entries, ~{per_entry / 1024:.1f} KB "
              f"each, ~{held / 1e6:.1f} MB now; bound {KEPT_VARIANTS} entries: "
              f"~{full / 1e6:.1f} MB when full")
    # A cache keyed by versions holds at most the library: the rest of its bound is
    # counted at the measured size per entry (an upper estimate: values the caches share,
    # a scenario and its runs, are counted once per cache).
    print(f"memory: with every cache at its bound (a library large enough to fill those "
          f"keyed by versions): at most ~{now + more / 2**20:.0f} MB "
          f"(ceiling {CEILING_MB} MB a worker)")


if __name__ == "__main__":
    main()
