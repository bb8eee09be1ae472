"""`make multiserver`: two app servers on one PostgreSQL and one Redis, tested together.

Two gunicorn servers (two workers each, production settings) run on two ports behind what
a load balancer would send them: one host name, ``X-Forwarded-Proto: https``, and each
client's own address in ``X-Forwarded-For`` (``DJANGO_TRUSTED_PROXIES=1``). Simulated
browsers send each request to either server. The run checks what running on several
servers must keep true:

1. both servers are healthy (``/healthz``: database and shared cache);
2. a session started on one server continues on the other (signed in and anonymous);
3. a mock exam's deadline is the same on both;
4. the throttles are exact across servers: requests raced through both servers are
   refused exactly past the limit (quiz starts, answers to one question);
5. a scenario published on one server is seen by the other at its next request
   (per-process caches are keyed by content, so they never serve a stale version);
6. a load run: every answer a server acknowledged is stored exactly once, races of the
   same answer through both servers included, and nothing else is stored.

Needs ``DATABASE_URL`` (PostgreSQL: the run makes its own database there and drops it) and
``REDIS_URL``; ``.ci/run`` starts both from Debian's packages. Exits 1 on any failure.
"""

from __future__ import annotations

import concurrent.futures
import http.client
import json
import os
import random
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import psycopg
import yaml

from tests.servers import free_port, postgres_database

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
HOST = "quiz.test"  # the site's name, as the load balancer forwards it to both servers
ORIGIN = f"https://{HOST}"
PASSWORD = secrets.token_urlsafe(12)
LOAD_CLIENTS = 24
LOAD_LENGTH = 10


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: str

    @property
    def location(self) -> str:
        return urlsplit(self.headers.get("location", "")).path


class Browser:
    """One visitor: its cookies and its address, sending each request to the server
    named by port (the load balancer's choice, made here at random or on purpose)."""

    def __init__(self, ports: tuple[int, int], address: str) -> None:
        self.ports, self.address = ports, address
        self.cookies: dict[str, str] = {}
        self._lock = threading.Lock()

    def any_port(self) -> int:
        return random.choice(self.ports)

    def request(self, port: int, method: str, path: str, body: bytes | None = None,
                content_type: str = "application/x-www-form-urlencoded") -> Response:
        headers = {"Host": HOST, "X-Forwarded-Proto": "https",
                   "X-Forwarded-For": self.address}
        with self._lock:
            if self.cookies:
                headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if method == "POST":
            headers |= {"Origin": ORIGIN, "Referer": ORIGIN + path,
                        "Content-Type": content_type}
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            conn.request(method, path, body=body, headers=headers)
            raw = conn.getresponse()
            text = raw.read().decode("utf-8", "replace")
            with self._lock:
                for value in raw.headers.get_all("Set-Cookie") or []:
                    jar: SimpleCookie = SimpleCookie()
                    jar.load(value)
                    for name, morsel in jar.items():
                        if morsel["max-age"] == "0" or not morsel.value:
                            self.cookies.pop(name, None)
                        else:
                            self.cookies[name] = morsel.value
            return Response(raw.status, {k.lower(): v for k, v in raw.getheaders()}, text)
        finally:
            conn.close()

    def get(self, port: int, path: str) -> Response:
        return self.request(port, "GET", path)

    def post(self, port: int, path: str, fields: dict[str, Any] | list[tuple[str, str]]
             ) -> Response:
        pairs = list(fields.items()) if isinstance(fields, dict) else list(fields)
        pairs.append(("csrfmiddlewaretoken", self.cookies.get("csrftoken", "")))
        return self.request(port, "POST", path, urlencode(pairs).encode())

    def upload(self, port: int, path: str, name: str, content: bytes) -> Response:
        boundary = secrets.token_hex(16)
        parts = [
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"'
            f'\r\n\r\n{self.cookies.get("csrftoken", "")}\r\n'.encode(),
            f'--{boundary}\r\nContent-Disposition: form-data; name="files"; '
            f'filename="{name}"\r\nContent-Type: application/json\r\n\r\n'.encode()
            + content + b"\r\n",
            f"--{boundary}--\r\n".encode(),
        ]
        return self.request(port, "POST", path, b"".join(parts),
                            f"multipart/form-data; boundary={boundary}")

    def sign_in(self, port: int, username: str) -> None:
        self.get(port, "/en/accounts/login/")
        r = self.post(port, "/en/accounts/login/", {"username": username, "password": PASSWORD})
        if r.status != 302:
            raise AssertionError(f"signing in as {username} answered {r.status}")

    def start(self, port: int, **fields: Any) -> Response:
        if "csrftoken" not in self.cookies:
            self.get(port, "/en/practice/")
        form = {"era_mode": "current", "difficulty_min": 1, "difficulty_max": 5,
                "length": LOAD_LENGTH} | fields
        return self.post(port, "/en/practice/", form)


class AnswerForm(HTMLParser):
    """The inputs of a question page's answer form, and a well-formed answer to it: the
    first option (or first box ticked), 2 for a number, the served seed as given."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.inside = False
        self.action = ""
        self.fields: list[tuple[str, str]] = []
        self._names: set[str] = set()
        self._ticked = False
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("action", "").endswith("/answer/"):
            self.inside, self.action = True, a["action"]
        elif tag == "input" and self.inside:
            name, kind = a.get("name", ""), a.get("type", "text")
            if not name or name == "csrfmiddlewaretoken" or name in self._names:
                return
            if kind == "hidden":
                self.fields.append((name, a.get("value", "")))
            elif kind == "radio":
                self.fields.append((name, a.get("value", "")))
            elif kind == "checkbox":
                if self._ticked:
                    return
                self._ticked = True
                self.fields.append((name, a.get("value", "1")))
            else:
                self.fields.append((name, "2"))
            self._names.add(name)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False


@dataclass
class Outcome:
    failures: list[str] = field(default_factory=list)

    def check(self, ok: bool, what: str) -> None:
        print(f"  {'ok  ' if ok else 'FAIL'} {what}", flush=True)
        if not ok:
            self.failures.append(what)


def wait_healthy(port: int, log: Path, seconds: float = 60) -> None:
    probe = Browser((port, port), "10.255.0.1")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if probe.get(port, "/healthz").status == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise SystemExit(f"the server on port {port} did not become healthy:\n"
                     + log.read_text()[-3000:])


def item_path(session_path: str, position: int) -> str:
    return f"{session_path}q/{position}/"


def check_sessions(ports: tuple[int, int], out: Outcome) -> None:
    a, b = ports
    print("sessions across servers")
    judge = Browser(ports, "10.1.0.1")
    judge.sign_in(a, "candidate")
    page = judge.get(b, "/en/progress/")
    out.check(page.status == 200 and "candidate" in page.body,
              "signed in on server A, the progress page on server B shows the candidate")
    visitor = Browser(ports, "10.1.0.2")
    started = visitor.start(a, length=3)
    session_path = started.location
    out.check(started.status == 303 and "/quiz/" in session_path,
              "an anonymous visitor starts a practice quiz on server A")
    first = visitor.get(b, session_path)
    out.check(first.status in (302, 303) and first.location.endswith("/q/1/"),
              "server B sends the visitor to the quiz's first question")
    question = visitor.get(b, item_path(session_path, 1))
    form = AnswerForm(question.body)
    out.check(question.status == 200 and bool(form.action),
              "server B shows the question with its answer form")
    answered = visitor.post(a, form.action, form.fields)
    out.check(answered.status == 303 and answered.location.endswith("/q/1/"),
              "server A records the answer to the question server B served")
    shown = visitor.get(b, item_path(session_path, 1))
    out.check(shown.status == 200 and 'class="answer-form"' not in shown.body
              and "verdict" in shown.body,
              "server B shows the feedback of the answer recorded on server A")


def check_exam_deadline(ports: tuple[int, int], out: Outcome) -> None:
    a, b = ports
    print("mock exam")
    candidate = Browser(ports, "10.2.0.1")
    started = candidate.start(a, mode="exam")
    out.check(started.status == 303, "a mock exam starts on server A")
    path = item_path(started.location, 1)
    deadlines = []
    for port in (a, b):
        match = re.search(r'id="exam-deadline" datetime="([^"]+)"',
                          candidate.get(port, path).body)
        deadlines.append(match.group(1) if match else "")
    out.check(bool(deadlines[0]) and deadlines[0] == deadlines[1],
              f"the exam ends at the same time on both servers ({deadlines[0] or 'none shown'})")


def _room_in_window(window: int = 60, needed: float = 20) -> None:
    """Wait until the fixed throttle window has ``needed`` seconds left, so one burst of
    requests falls in one window."""
    left = window - time.time() % window
    if left < needed:
        time.sleep(left + 0.5)


def _race(calls: list[Any]) -> list[Response]:
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(lambda call: call(), calls))


def check_throttles(ports: tuple[int, int], settings: dict[str, tuple[int, int]],
                    out: Outcome) -> None:
    a, b = ports
    print("throttles across servers")
    limit, window = settings["QUIZ_START_RATE"]
    starter = Browser(ports, "10.3.0.1")
    _room_in_window(window)
    starter.start(a, length=1)  # the session (the throttle's key) exists before the race
    extra = 4
    burst = limit - 1 + extra
    answers = _race([lambda port=ports[i % 2]: starter.start(port, length=1)
                     for i in range(burst)])
    statuses = Counter(r.status for r in answers)
    out.check(statuses == Counter({303: limit - 1, 429: extra}),
              f"{burst + 1} quiz starts raced through both servers: exactly {limit} started, "
              f"{extra} refused (got {dict(statuses)})")
    limit, window = settings["QUIZ_ANSWER_RATE"]
    answerer = Browser(ports, "10.3.0.2")
    session_path = answerer.start(a, length=1).location
    form = AnswerForm(answerer.get(b, item_path(session_path, 1)).body)
    _room_in_window(window)
    answers = _race([lambda port=ports[i % 2]: answerer.post(port, form.action, form.fields)
                     for i in range(limit + extra)])
    statuses = Counter(r.status for r in answers)
    out.check(statuses == Counter({303: limit, 429: extra}),
              f"{limit + extra} submissions of one answer raced through both servers: exactly "
              f"{limit} taken, {extra} refused (got {dict(statuses)})")


def check_publish(ports: tuple[int, int], out: Outcome) -> None:
    a, b = ports
    print("publishing on one server, seen on the other")
    source = sorted((ROOT / "scenarios" / "library").rglob("*.yaml"))[0]
    document = yaml.safe_load(source.read_text(encoding="utf-8"))
    slug = document["id"]
    marker = f"Revised {secrets.token_hex(4)}"
    instructor = Browser(ports, "10.4.0.1")
    instructor.sign_in(a, "instructor")
    for port in (a, b):  # both servers have the published version in their caches
        before = instructor.get(port, f"/en/history/scenario/{slug}/")
        out.check(before.status == 200 and marker not in before.body,
                  f"server {'AB'[ports.index(port)]} shows the scenario's published version")
    document["title"]["en"] = f"{document['title']['en']} ({marker})"
    instructor.get(a, "/en/author/import/")
    imported = instructor.upload(a, "/en/author/import/", f"{slug}.json",
                                 json.dumps(document).encode())
    out.check(imported.status == 200 and "not imported" not in imported.body
              and f"{slug} v" in imported.body,
              "server A imports the revised document as a new version")
    published = instructor.post(a, f"/en/author/s/{slug}/publish/", {})
    out.check(published.status == 303, "server A publishes it")
    after = instructor.get(b, f"/en/history/scenario/{slug}/")
    out.check(after.status == 200 and marker in after.body,
              "server B shows the new version at its next request")


def check_load(ports: tuple[int, int], database_url: str, out: Outcome) -> None:
    print(f"load run: {LOAD_CLIENTS} visitors, {LOAD_LENGTH} questions each, every request "
          "to either server, one answer in four raced through both")
    acknowledged: set[tuple[str, int]] = set()
    posted = errors = 0
    lock = threading.Lock()

    def visit(n: int) -> None:
        nonlocal posted, errors
        browser = Browser(ports, f"10.5.{n // 250}.{n % 250 + 1}")
        started = browser.start(browser.any_port())
        if started.status != 303:
            with lock:
                errors += 1
            return
        session_path = started.location
        session_id = session_path.rstrip("/").rsplit("/", 1)[-1]
        for position in range(1, LOAD_LENGTH + 1):
            page = browser.get(browser.any_port(), item_path(session_path, position))
            form = AnswerForm(page.body)
            if page.status != 200 or not form.action:
                with lock:
                    errors += 1
                continue
            if random.random() < 0.25:
                replies = _race([lambda p=p, f=form: browser.post(p, f.action, f.fields)
                                 for p in ports])
            else:
                replies = [browser.post(browser.any_port(), form.action, form.fields)]
            with lock:
                posted += len(replies)
                for reply in replies:
                    if reply.status == 303 and reply.location.endswith(f"/q/{position}/"):
                        acknowledged.add((session_id, position))
                    elif reply.status >= 500:
                        errors += 1

    begun = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(visit, range(LOAD_CLIENTS)))
    seconds = time.monotonic() - begun
    print(f"  {posted} submissions in {seconds:.1f} s, {len(acknowledged)} questions "
          f"acknowledged")
    with psycopg.connect(database_url) as db:
        rows = db.execute(
            "SELECT i.session_id::text, i.position, count(a.id) FROM quiz_quizitem i "
            "JOIN quiz_attempt a ON a.item_id = i.id "
            "JOIN quiz_quizsession s ON s.id = i.session_id "
            "WHERE s.mode = 'practice' AND s.length = %s GROUP BY 1, 2",
            (LOAD_LENGTH,)).fetchall()
    stored = {(str(s).replace("-", ""), p): n for s, p, n in rows}
    acked = {(s.replace("-", ""), p) for s, p in acknowledged}
    out.check(errors == 0, f"no server error and no failed page in the load run ({errors})")
    out.check(all(stored.get(key) == 1 for key in acked),
              f"every acknowledged answer is stored exactly once ({len(acked)} answers)")
    out.check(set(stored) <= acked,
              f"nothing is stored that no server acknowledged ({len(set(stored) - acked)} "
              "stray)")


def main() -> int:
    database_url = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")
    if not database_url.startswith(("postgres://", "postgresql://")) or not redis_url:
        print("make multiserver needs DATABASE_URL (PostgreSQL) and REDIS_URL: the servers "
              "share them. See the README, 'Running on several servers'.", file=sys.stderr)
        return 2
    url, drop_database = postgres_database(database_url, prefix="quiz_multiserver")
    tmp = Path(tempfile.mkdtemp(prefix="quiz-multiserver-"))
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.prod",
           "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),  # the same on every server
           "DJANGO_ALLOWED_HOSTS": f"{HOST},127.0.0.1",
           "DJANGO_CSRF_TRUSTED_ORIGINS": ORIGIN,
           "DJANGO_TRUSTED_PROXIES": "1",
           "DJANGO_STATIC_ROOT": str(tmp / "static"),
           "DATABASE_URL": url, "REDIS_URL": redis_url}
    servers: list[subprocess.Popen[bytes]] = []
    out = Outcome()
    try:
        run = {"cwd": ROOT, "env": env, "check": True, "stdout": subprocess.DEVNULL}
        print("preparing: collectstatic, migrate, load_scenarios, two accounts", flush=True)
        subprocess.run([PY, "manage.py", "collectstatic", "--no-input"], **run)  # type: ignore[call-overload]
        subprocess.run([PY, "manage.py", "migrate", "--no-input"], **run)  # type: ignore[call-overload]
        subprocess.run([PY, "manage.py", "load_scenarios"], **run)  # type: ignore[call-overload]
        subprocess.run([PY, "manage.py", "shell", "-c", (
            "from django.contrib.auth.models import Group, User\n"
            f"User.objects.create_user('candidate', password={PASSWORD!r})\n"
            f"u = User.objects.create_user('instructor', password={PASSWORD!r})\n"
            "u.groups.add(Group.objects.get(name='Instructors'))\n")], **run)  # type: ignore[call-overload]
        settings = json.loads(_last_line(subprocess.run(
            [PY, "manage.py", "shell", "-c",
             "import json; from django.conf import settings as s; print(json.dumps("
             "{k: getattr(s, k) for k in ('QUIZ_START_RATE', 'QUIZ_ANSWER_RATE')}))"],
            cwd=ROOT, env=env, check=True, capture_output=True, text=True).stdout))
        ports = (free_port(), free_port())
        for port in ports:
            log = tmp / f"server-{port}.log"
            servers.append(subprocess.Popen(
                [str(Path(PY).with_name("gunicorn")), "config.wsgi", "-w", "2",
                 "-b", f"127.0.0.1:{port}", "--log-level", "warning"],
                cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT,
                start_new_session=True))
        for port in ports:
            wait_healthy(port, tmp / f"server-{port}.log")
        print(f"two servers on ports {ports[0]} (A) and {ports[1]} (B), PostgreSQL "
              f"database {urlsplit(url).path.lstrip('/')}, Redis {urlsplit(redis_url).netloc}")
        print("health")
        for port in ports:
            health = json.loads(Browser(ports, "10.0.0.1").get(port, "/healthz").body)
            out.check(health == {"status": "ok", "database": "ok", "cache": "ok"},
                      f"/healthz on port {port}: {health}")
        check_sessions(ports, out)
        check_exam_deadline(ports, out)
        check_throttles(ports, settings, out)
        check_publish(ports, out)
        check_load(ports, url, out)
        for port in ports:
            log = (tmp / f"server-{port}.log").read_text()
            out.check("Traceback" not in log and '"levelname": "ERROR"' not in log,
                      f"server on port {port} logged no error")
            if "Traceback" in log or '"ERROR"' in log:
                print(log[-4000:])
    finally:
        for server in servers:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=15)
        drop_database()
        shutil.rmtree(tmp, ignore_errors=True)
    if out.failures:
        print(f"\nmultiserver: {len(out.failures)} check(s) failed:", *out.failures,
              sep="\n  ")
        return 1
    print("\nmultiserver: every check passed")
    return 0


def _last_line(text: str) -> str:
    return text.strip().splitlines()[-1]


if __name__ == "__main__":
    raise SystemExit(main())
