"""Answer submission against a production-like server: gunicorn with one sync worker
per core, persistent connections, SQLite in WAL mode, wrk on 127.0.0.1. Measured side by
side, in the same run, with the app's full question page, a bare Django view and an
answer's floor (same server, settings and middleware: ``tests.bench.bench_urls``); median of
three 10-second runs. Every submission is a well-formed first answer to a question nobody
has answered yet, of one of the library's generators (a board space of a thousand or
more), its variant drawn at random as the question page draws it, so each one is graded
and writes its attempt (the run prints how many were written).

Absolute times differ twofold between machines (and other work on a shared machine moves
them), so each endpoint is also given as its CPU per request (the workers' CPU seconds
from /proc over the run, divided by the requests wrk counted) and as a multiple of the
bare view's, measured in the same run.

With DATABASE_URL set (a PostgreSQL server the bench may create a database on), the same
runs are made on PostgreSQL too, in a database of their own that is dropped afterwards.

One worker per core because the requests are CPU-bound: more workers than cores only add
context switches and waits for SQLite's write lock. Measured at 64 clients on 2 cores:
4 workers 616 answers/s with a p99 of 136 ms, 2 workers 918/s and 90 ms.

BENCH_SECONDS and BENCH_RUNS shorten a run while working on a page; BENCH_DATABASE=sqlite
or postgresql measures on that one only."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tests.servers import free_port, postgres_database

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable

PREPARE = r'''
import django, sys
django.setup()
from django.contrib.sessions.backends.db import SessionStore
from django.middleware.csrf import _get_new_csrf_string
from django.utils import timezone
from quiz.models import QuizItem
from quiz.services import draw_seed, scenario_of
from tests.bench.answers import answer_fields
from urllib.parse import urlencode


def body(item):
    return urlencode(answer_fields(item))

sessions, per = int(sys.argv[1]), int(sys.argv[2])
out = open(sys.argv[3], "w")
now = timezone.now()
# Every question comes from a generator (issue 18): a fresh variant of a board space of
# thousands, drawn as the question page draws it, so nothing is answered from a cache
# another request filled.
import random
from quiz.models import QuizSession
from quiz.selectors import question_pool
from quiz.services import version_meta
pool = [c for c in question_pool(topics=[], difficulty_min=1, difficulty_max=5,
                                 era_mode="mixed")
        if scenario_of(version_meta(c.version_id)).params
        and scenario_of(version_meta(c.version_id)).value_count() >= 1000]
print(f"bench items: {len(pool)} generator questions", file=sys.stderr)
rng = random.Random(18)
for n in range(sessions):
    store = SessionStore(); store.create()
    token = _get_new_csrf_string()
    s = QuizSession.objects.create(session_key=store.session_key, length=per,
                                   era_mode="mixed", created_at=now)
    QuizItem.objects.bulk_create([
        QuizItem(session=s, position=i + 1, version_id=c.version_id,
                 question_id=c.question_id, era=rng.choice(c.eras))
        for i, c in enumerate(rng.choice(pool) for _ in range(per))])
    cookie = f"sessionid={store.session_key}; csrftoken={token}"
    items = list(s.items.select_related("version").order_by("position"))
    for item in items:  # each variant drawn as the question page draws it
        scenario = scenario_of(item.version)
        item.seed = draw_seed(scenario, item.era, item.question_id)
        item.params, item.served_at = scenario.values_for(item.seed), now
    QuizItem.objects.bulk_update(items, ["seed", "params", "served_at"])
    for item in items:
        out.write(f"/en/quiz/{s.pk}/q/{item.position}/|{cookie}|{token}|{body(item)}\n")
out.close()
'''

LUA = r'''
-- Each wrk thread walks its own slice of the request lines, so an answer run posts to
-- questions nobody has answered yet: every submission writes its attempt.
local lines = {}
for line in io.lines("%(data)s") do
  local path, cookie, token, form = line:match("([^|]+)|([^|]+)|([^|]+)|([^|]+)")
  lines[#lines + 1] = {path, cookie, token, form}
end
local threads = 0
function setup(thread)
  thread:set("slot", threads)
  threads = threads + 1
end
function init(args)
  mode = args[1]
  first = tonumber(args[2])
  span = tonumber(args[3])
  counter = 0
end
function request()
  local l = lines[first + slot * span + (counter %% span) + 1]
  counter = counter + 1
  local headers = {["Cookie"] = l[2], ["X-Forwarded-Proto"] = "https",
                   ["Origin"] = "https://127.0.0.1:%(port)d"}
  if mode == "bare" then
    return wrk.format("GET", "/bench/bare/", headers)
  end
  if mode == "answer" or mode == "floor" then
    headers["X-CSRFToken"] = l[3]
    headers["Content-Type"] = "application/x-www-form-urlencoded"
    headers["HX-Request"] = "true"
    if mode == "floor" then
      return wrk.format("POST", "/bench/floor" .. l[1], headers, l[4])
    end
    return wrk.format("POST", l[1] .. "answer/", headers, l[4])
  end
  return wrk.format("GET", l[1], headers)
end
'''


CONNECTIONS = (16, 64)
PAGE_SPAN = 4000   # question pages per wrk thread (read-only, may repeat)
SPAN = 6000        # fresh questions per wrk thread and answer run (~1,200 req/s max)


def ensure_wrk() -> str:
    wrk = shutil.which("wrk")
    if wrk:
        return wrk
    if os.geteuid() == 0:
        subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
    wrk = shutil.which("wrk")
    if not wrk:
        raise SystemExit("wrk is missing: apt-get install wrk")
    return wrk


def worker_rss_mb(master: int) -> list[float]:
    """Resident memory of the gunicorn master's worker processes (Linux /proc)."""
    sizes = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) != master:  # the parent pid
                continue
            status = (stat.parent / "status").read_text()
        except (OSError, IndexError, ValueError):
            continue  # a process that ended meanwhile
        m = re.search(r"VmRSS:\s+(\d+) kB", status)
        if m:
            sizes.append(int(m.group(1)) / 1024)
    return sorted(sizes)


def parse(output: str) -> tuple[float, float, float, int, int]:
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))  # type: ignore[union-attr]
    total = int(re.search(r"(\d+) requests in", output).group(1))  # type: ignore[union-attr]

    def ms(label: str) -> float:
        m = re.search(rf"{label}%\s+([\d.]+)(us|ms|s)", output)
        assert m, output
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    errors = 0
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if m:
        errors += int(m.group(1))
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    if m:
        errors += sum(int(x) for x in m.groups())
    return rate, ms("50"), ms("99"), errors, total


_ASSET = re.compile(r'<(?:link[^>]+href|script[^>]+src)="(/static/[^"]+)"')


def first_load(port: int, line: str) -> None:
    """The question page's first load over the wire, as a browser with an empty cache
    asks for it (gzip accepted): the HTML, then every stylesheet and script it links.
    Static files come compressed from WhiteNoise; Django sends the HTML as it is, so its
    gzip size (what a compressing proxy would send) is given too."""
    import gzip
    import urllib.request

    path, cookie, _token, _form = line.split("|")

    def get(url: str) -> tuple[bytes, int]:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}{url}",
            headers={"Cookie": cookie, "X-Forwarded-Proto": "https",
                     "Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()
            return body, len(body)

    html, html_wire = get(path)
    html_gzip = len(gzip.compress(html))
    css = js = 0
    for asset in dict.fromkeys(_ASSET.findall(html.decode())):
        _body, wire = get(asset)
        if asset.endswith(".css"):
            css += wire
        else:
            js += wire
    total = min(html_wire, html_gzip) + css + js
    print(f"web: the question page's first load over the wire: {total / 1024:.1f} KB "
          f"(HTML {html_wire / 1024:.1f} KB as sent, {html_gzip / 1024:.1f} KB gzipped; "
          f"CSS {css / 1024:.1f} KB; JS {js / 1024:.1f} KB; static files compressed by "
          f"WhiteNoise) (target <= 60 KB)")


def worker_cpu_seconds(master: int) -> float:
    """User + system CPU time of the gunicorn master's worker processes (Linux /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # a process that ended meanwhile
        if int(fields[1]) == master:  # the parent pid; utime and stime follow
            total += int(fields[11]) + int(fields[12])
    return total / ticks


def database_server_cpu_seconds(database: str) -> float:
    """CPU time of the local PostgreSQL backends serving ``database`` (their process
    titles name it), 0 when the server is on another machine."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if f" {database} ".encode() not in cmdline.read_bytes():
                continue
            fields = (cmdline.parent / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        total += int(fields[11]) + int(fields[12])
    return total / ticks


MODES = ("bare", "floor", "page", "answer")
LABELS = {"bare": "bare view", "floor": "answer floor", "page": "question page",
          "answer": "answer"}


def count_attempts(env: dict[str, str]) -> int:
    url = env.get("DATABASE_URL")
    if url:
        import psycopg

        with psycopg.connect(url) as db:
            row = db.execute("SELECT count(*) FROM quiz_attempt").fetchone()
    else:
        with sqlite3.connect(env["DJANGO_SQLITE_PATH"]) as db:
            row = db.execute("SELECT count(*) FROM quiz_attempt").fetchone()
    assert row is not None
    return int(row[0])


def server_env(tmp: Path, database_url: str = "") -> dict[str, str]:
    """The bench server's environment: production settings with the bench's bare view,
    its files under ``tmp``, SQLite unless ``database_url`` is given."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.bench.bench_settings",
           "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
           "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
           "DJANGO_SQLITE_PATH": str(tmp / "bench.sqlite3"),
           "DJANGO_STATIC_ROOT": str(tmp / "static")}
    env.pop("DATABASE_URL", None)
    if database_url:
        env["DATABASE_URL"] = database_url
    return env


def measure(wrk: str, tmp: Path, database_url: str, seconds: int, runs: int) -> None:
    """Every endpoint at every client count, ``runs`` times; prints the medians."""
    label = "postgresql" if database_url else "sqlite"
    database = urlsplit(database_url).path.lstrip("/") if database_url else ""
    port = free_port()
    env = server_env(tmp, database_url)
    run: dict[str, Any] = {"cwd": ROOT, "env": env, "check": True,
                           "stdout": subprocess.DEVNULL}
    # production's static files: fingerprinted names the pages link to (WhiteNoise)
    subprocess.run([PY, "manage.py", "collectstatic", "--no-input"], **run)
    subprocess.run([PY, "manage.py", "migrate", "--no-input"], **run)
    subprocess.run([PY, "manage.py", "load_scenarios"], **run)
    # Lines 0..PAGE_SPAN*2 are pages, read again and again; every answer run then gets
    # its own unanswered slice of SPAN lines per wrk thread.
    answer_runs = len(CONNECTIONS) * runs
    lines = 2 * PAGE_SPAN + answer_runs * 2 * SPAN
    data = tmp / f"requests-{label}.txt"
    subprocess.run([PY, "-c", PREPARE, str(lines // 40 + 1), "40", str(data)], **run)
    script = tmp / f"bench-{label}.lua"
    script.write_text(LUA % {"data": data, "port": port})
    server = subprocess.Popen(
        [str(Path(PY).with_name("gunicorn")), "config.wsgi", "-w", str(os.cpu_count() or 2),
         "-b", f"127.0.0.1:{port}", "--log-level", "warning"], cwd=ROOT, env=env,
        start_new_session=True)
    try:
        time.sleep(3)
        if not database_url:
            first_load(port, data.read_text().splitlines()[0])
        # (rate, p50, p99, errors, requests, the workers' and the database server's CPU ms
        # per request) per run
        results: dict[tuple[str, int], list[tuple[float, ...]]] = {}
        fresh = 2 * PAGE_SPAN
        submitted = 0
        for connections in CONNECTIONS:
            for _ in range(runs):
                for mode in MODES:  # interleaved: a slow moment spreads over all three
                    first, span = (fresh, SPAN) if mode == "answer" else (0, PAGE_SPAN)
                    cpu = worker_cpu_seconds(server.pid)
                    db_cpu = database_server_cpu_seconds(database) if database else 0.0
                    out = subprocess.run(
                        [wrk, "-t", "2", "-c", str(connections), "-d", f"{seconds}s",
                         "--latency", "-s", str(script), f"http://127.0.0.1:{port}",
                         "--", mode, str(first), str(span)],
                        capture_output=True, text=True, check=True).stdout
                    cpu = worker_cpu_seconds(server.pid) - cpu
                    if database:
                        db_cpu = database_server_cpu_seconds(database) - db_cpu
                    result = parse(out)
                    results.setdefault((mode, connections), []).append(
                        (*result, cpu * 1000 / max(result[4], 1),
                         db_cpu * 1000 / max(result[4], 1)))
                    if mode == "answer":
                        fresh += 2 * span
                        submitted += result[4]
        for connections in CONNECTIONS:
            medians: dict[str, dict[str, float]] = {}
            for mode in MODES:
                rs = results[(mode, connections)]
                medians[mode] = {
                    "rate": statistics.median(r[0] for r in rs),
                    "p50": statistics.median(r[1] for r in rs),
                    "p99": statistics.median(r[2] for r in rs),
                    "errors": sum(r[3] for r in rs),
                    "cpu": statistics.median(r[5] for r in rs),
                    "db": statistics.median(r[6] for r in rs)}
            bare = medians["bare"]["cpu"]
            for mode in MODES:
                m = medians[mode]
                target = ""
                if mode in ("page", "answer"):
                    target = " (target <= 3x)" if mode == "answer" else " (target <= 4x)"
                db_note = (f" (+ {m['db']:4.2f} ms in the database server)"
                           if m["db"] else "")
                print(f"web[{label}]: {LABELS[mode]:13} at {connections:2} clients: "
                      f"{m['rate']:6.0f} req/s, p50 {m['p50']:6.1f} ms, p99 {m['p99']:6.1f} ms, "
                      f"{m['cpu']:5.2f} ms CPU per request = {m['cpu'] / bare:4.1f}x the bare "
                      f"view{target}{db_note}, {m['errors']:.0f} errors")
            answer = medians["answer"]
            print(f"web[{label}]: the answer costs {answer['cpu'] / medians['floor']['cpu']:.1f}x "
                  f"its floor at {connections} clients (the floor: the session, the item's "
                  f"query, one write, a small template: what any answer does, with no rules "
                  f"in it; {medians['floor']['cpu'] / bare:.1f}x the bare view)")
            if connections == 64:
                print(f"web[{label}]: answer at 64 clients: p99 {answer['p99']:.1f} ms = "
                      f"{answer['p99'] / answer['p50']:.2f}x the p50 (target <= 1.5x; "
                      f"p99 target < 100 ms)")
            print(f"web[{label}]: answer submission costs "
                  f"{medians['page']['rate'] / answer['rate']:.2f}x a full question page "
                  f"at {connections} clients in throughput, "
                  f"{answer['cpu'] / medians['page']['cpu']:.2f}x in CPU (target <= 1.0)")
        rss = worker_rss_mb(server.pid)
        print(f"web[{label}]: each worker's memory after the runs: "
              f"{', '.join(f'{mb:.0f}' for mb in rss)} MB resident (caches included)")
        written = count_attempts(env)
        # Every submission answers a question not answered before, with a well-formed
        # answer: each one is graded and writes its attempt.
        print(f"web[{label}]: {written:,} attempts written for the {submitted:,} "
              f"submissions wrk counted (it leaves out those still in flight when a run "
              f"ends)")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=10)


def main(seconds: int = 10, runs: int = 3) -> None:
    seconds = int(os.environ.get("BENCH_SECONDS", seconds))
    runs = int(os.environ.get("BENCH_RUNS", runs))
    wrk = ensure_wrk()
    tmp = Path(tempfile.mkdtemp(prefix="quiz-bench-"))
    only = os.environ.get("BENCH_DATABASE", "")  # "sqlite" or "postgresql": that one only
    try:
        if only != "postgresql":
            measure(wrk, tmp, "", seconds, runs)
        url = os.environ.get("DATABASE_URL", "").strip()
        if only == "sqlite":
            pass
        elif url.startswith(("postgres://", "postgresql://")):
            bench_url, drop = postgres_database(url)
            try:
                measure(wrk, tmp, bench_url, seconds, runs)
            finally:
                drop()
        else:
            print("web: PostgreSQL not measured (set DATABASE_URL to a server the bench may "
                  "create a database on)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
