"""Where a page's time goes, in one process, without a server or the network: CPU per
request of the bare view, the question page and an answer (each as a multiple of the bare
view), and optionally a cProfile of one of them.

    .venv/bin/python -m tests.bench.page_profile [--profile page|answer|bare] [-n 300]
        [--postgresql]   # on a new database on DATABASE_URL's server, dropped afterwards

Same settings as the web bench (production's, with the bench's bare view), a fresh SQLite
database loaded with the library, the same prepared requests. The web bench measures the
same ratios through gunicorn; this is the quick loop for finding what to make cheaper."""

from __future__ import annotations

import argparse
import io
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def environ_for(line: str, mode: str) -> dict[str, Any]:
    path, cookie, token, form = line.split("|")
    body = form.encode() if mode == "answer" else b""
    environ: dict[str, Any] = {
        "REQUEST_METHOD": "POST" if mode == "answer" else "GET",
        "PATH_INFO": {"bare": "/bench/bare/", "page": path}.get(mode, path + "answer/"),
        "QUERY_STRING": "", "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8800",
        "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1:8800", "HTTP_COOKIE": cookie, "HTTP_X_FORWARDED_PROTO": "https",
        "HTTP_ORIGIN": "https://127.0.0.1:8800",
        "wsgi.input": io.BytesIO(body), "wsgi.url_scheme": "http", "wsgi.errors": sys.stderr,
        "wsgi.multithread": False, "wsgi.multiprocess": True, "wsgi.run_once": False,
        "wsgi.version": (1, 0),
    }
    if mode == "answer":
        environ.update({"CONTENT_TYPE": "application/x-www-form-urlencoded",
                        "CONTENT_LENGTH": str(len(body)), "HTTP_X_CSRFTOKEN": token,
                        "HTTP_HX_REQUEST": "true"})
    return environ


def prepare(tmp: Path, lines: int, database_url: str = "") -> tuple[dict[str, str], list[str]]:
    from tests.bench.web_bench import PREPARE, server_env

    env = server_env(tmp, database_url)
    run: dict[str, Any] = {"cwd": ROOT, "env": env, "check": True,
                           "stdout": subprocess.DEVNULL}
    py = sys.executable
    subprocess.run([py, "manage.py", "collectstatic", "--no-input"], **run)
    subprocess.run([py, "manage.py", "migrate", "--no-input"], **run)
    subprocess.run([py, "manage.py", "load_scenarios"], **run)
    data = tmp / "requests.txt"
    subprocess.run([py, "-c", PREPARE, str(lines // 40 + 1), "40", str(data)], **run)
    return env, data.read_text().splitlines()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=300, help="requests per measurement")
    parser.add_argument("--profile", choices=("bare", "page", "answer"))
    parser.add_argument("--postgresql", action="store_true")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="quiz-profile-"))
    url, drop = "", None
    if args.postgresql:
        from tests.servers import postgres_database

        url, drop = postgres_database(os.environ["DATABASE_URL"])
    try:
        env, lines = prepare(tmp, 3 * args.n + 200, url)
        if not url:
            os.environ.pop("DATABASE_URL", None)  # this process too: SQLite
        measure(args, env, lines)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if drop is not None:
            from django.db import connections

            connections.close_all()
            drop()


def measure(args: argparse.Namespace, env: dict[str, str], lines: list[str]) -> None:
    os.environ.update(env)
    import django

    django.setup()
    from django.core.wsgi import get_wsgi_application

    app = get_wsgi_application()
    statuses: list[str] = []

    def start_response(status: str, headers: Any, exc_info: Any = None) -> Any:
        statuses.append(status)

    def hit(line: str, mode: str) -> None:
        response = app(environ_for(line, mode), start_response)
        b"".join(response)

    fresh = iter(lines[100:])  # answers go to questions not answered before
    pages = lines[:50]  # warmed below: the page is measured with its caches full

    def one(mode: str) -> Callable[[int], None]:
        if mode == "answer":
            return lambda i: hit(next(fresh), "answer")
        return lambda i: hit(pages[i % len(pages)], mode)

    for mode in ("bare", "page"):  # warm: templates compiled, caches filled
        for i in range(50):
            one(mode)(i)
    for _ in range(20):
        one("answer")(0)
    from django.db import connection

    def server_cpu() -> float:
        """CPU seconds of this connection's PostgreSQL backend, when the server runs on
        this machine (0 for SQLite, which runs in this process and is counted in it)."""
        if connection.vendor != "postgresql":
            return 0.0
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            (pid,) = cursor.fetchone()
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    cpu: dict[str, float] = {}
    wall: dict[str, float] = {}
    server: dict[str, float] = {}
    for mode in ("bare", "page", "answer"):
        fn = one(mode)
        statuses.clear()
        start, clock, backend = time.process_time(), time.perf_counter(), server_cpu()
        for i in range(args.n):
            fn(i)
        cpu[mode] = (time.process_time() - start) / args.n * 1000
        wall[mode] = (time.perf_counter() - clock) / args.n * 1000
        server[mode] = (server_cpu() - backend) / args.n * 1000
        bad = [s for s in statuses if not s.startswith(("200", "303"))]
        assert not bad, (mode, bad[:3])

    for mode, ms in cpu.items():
        db = (f", + {server[mode]:5.2f} ms in the database server"
              if connection.vendor == "postgresql" else "")
        print(f"in-process ({connection.vendor}): {mode:6} {ms:6.2f} ms CPU per request "
              f"({ms / cpu['bare']:4.1f}x the bare view){db}, {wall[mode]:6.2f} ms from "
              f"start to end, one request at a time")
    if args.profile:
        import cProfile
        import pstats

        fn = one(args.profile)
        profiler = cProfile.Profile()
        profiler.enable()
        for i in range(args.n):
            fn(i)
        profiler.disable()
        stats = pstats.Stats(profiler).sort_stats("cumulative")
        stats.print_stats(int(os.environ.get("PROFILE_LINES", "45")))


if __name__ == "__main__":
    main()
