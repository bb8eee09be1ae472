"""Answer submission against a production-like server: gunicorn (4 sync workers),
persistent connections, SQLite in WAL mode, wrk on 127.0.0.1. Measured side by side,
in the same run, with the app's full question page; median of three 10-second runs."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable

PREPARE = r'''
import django, sys
django.setup()
from django.contrib.sessions.backends.db import SessionStore
from django.middleware.csrf import _get_new_csrf_string
from django.utils import timezone
from quiz.models import QuizItem
from quiz.services import quiz_start
sessions, per = int(sys.argv[1]), int(sys.argv[2])
out = open(sys.argv[3], "w")
now = timezone.now()
for n in range(sessions):
    store = SessionStore(); store.create()
    token = _get_new_csrf_string()
    s = quiz_start(user=None, session_key=store.session_key, length=per,
                   era_mode="mixed")
    QuizItem.objects.filter(session=s).update(seed=0, params={}, served_at=now)
    for pos in range(1, s.length + 1):
        cookie = f"sessionid={store.session_key}; csrftoken={token}"
        out.write(f"/en/quiz/{s.pk}/q/{pos}/|{cookie}|{token}\n")
out.close()
'''

LUA = r'''
local lines = {}
for line in io.lines("%(data)s") do
  local path, cookie, token = line:match("([^|]+)|([^|]+)|([^|]+)")
  lines[#lines + 1] = {path, cookie, token}
end
local counter = 0
local threads = 0
function setup(thread)
  thread:set("offset", threads)
  threads = threads + 1
end
function init(args)
  counter = offset * 100000
  mode = args[1]
end
function request()
  counter = counter + 1
  local l = lines[(counter %% #lines) + 1]
  local headers = {["Cookie"] = l[2], ["X-Forwarded-Proto"] = "https",
                   ["Origin"] = "https://127.0.0.1:%(port)d"}
  if mode == "answer" then
    headers["X-CSRFToken"] = l[3]
    headers["Content-Type"] = "application/x-www-form-urlencoded"
    headers["HX-Request"] = "true"
    return wrk.format("POST", l[1] .. "answer/", headers, "answer=20&seed=0")
  end
  return wrk.format("GET", l[1], headers)
end
'''


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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


def parse(output: str) -> tuple[float, float, float, int]:
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))  # type: ignore[union-attr]

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
    return rate, ms("50"), ms("99"), errors


def main(seconds: int = 10, runs: int = 3) -> None:
    wrk = ensure_wrk()
    tmp = Path(tempfile.mkdtemp(prefix="quiz-bench-"))
    port = free_port()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.prod",
           "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
           "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
           "DJANGO_SQLITE_PATH": str(tmp / "bench.sqlite3")}
    env.pop("DATABASE_URL", None)
    run = {"cwd": ROOT, "env": env, "check": True, "stdout": subprocess.DEVNULL}
    subprocess.run([PY, "manage.py", "migrate", "--no-input"], **run)  # type: ignore[arg-type]
    subprocess.run([PY, "manage.py", "load_scenarios"], **run)  # type: ignore[arg-type]
    data = tmp / "requests.txt"
    subprocess.run([PY, "-c", PREPARE, "700", "40", str(data)], **run)  # type: ignore[arg-type]
    script = tmp / "bench.lua"
    script.write_text(LUA % {"data": data, "port": port})
    server = subprocess.Popen(
        [str(Path(PY).with_name("gunicorn")), "config.wsgi", "-w", "4", "-b",
         f"127.0.0.1:{port}", "--log-level", "warning"], cwd=ROOT, env=env,
        start_new_session=True)
    try:
        time.sleep(3)
        results: dict[tuple[str, int], list[tuple[float, float, float, int]]] = {}
        for connections in (16, 64):
            for mode in ("page", "answer"):
                for _ in range(runs):
                    out = subprocess.run(
                        [wrk, "-t", "2", "-c", str(connections), "-d", f"{seconds}s",
                         "--latency", "-s", str(script), f"http://127.0.0.1:{port}",
                         "--", mode], capture_output=True, text=True, check=True).stdout
                    results.setdefault((mode, connections), []).append(parse(out))
        for connections in (16, 64):
            rows = {}
            for mode in ("page", "answer"):
                rs = results[(mode, connections)]
                rate = statistics.median(r[0] for r in rs)
                p50 = statistics.median(r[1] for r in rs)
                p99 = statistics.median(r[2] for r in rs)
                errors = sum(r[3] for r in rs)
                rows[mode] = rate
                print(f"web: {mode:6} at {connections:2} clients: {rate:7.0f} req/s, "
                      f"p50 {p50:6.1f} ms, p99 {p99:6.1f} ms, {errors} errors")
            print(f"web: answer submission costs {rows['page'] / rows['answer']:.2f}x a full "
                  f"question page at {connections} clients (target <= 1.0)")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
