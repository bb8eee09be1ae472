"""Data growth (issue 16): the pages whose cost can grow with the data, measured at 1x, 10x
and 100x data in process with Django's test client, each scale in its own SQLite file.

The 100x scale is 10,000 users, 1,000,000 attempts and 1,087 scenarios (the library and
1,000 authored copies). Attempts come with their sessions and items as the app makes them
(sessions of ten items), spread over the candidates and skewed over the scenarios: one
scenario is in the first session of every candidate, signed in or anonymous (45,000 at
100x, past SQLite's 32,766 variables in one statement), the rest by a Zipf-like weight;
right and wrong answers by the candidate's ability; eras the version is asked in; review
cards and problem reports. Made with factory-boy (``tests/factories.py``): its factories
build users, sessions, cards and reports; the two million items and attempts of 100x are
built by the same factories' model classes directly, since a factory ``build`` costs
137 us an object (270 s for those rows) against 17 us.

Each scale's file is kept in ``.bench-cache/`` (gitignored) under a name holding a hash of
this generator, the factories, the migrations and the library, so a changed generator or
schema builds it afresh. Measurements run inside a transaction rolled back at the end, so
the cached file stays as generated.

Every page: median of 5 requests after one warm-up, and the queries it runs
(``CaptureQueriesContext``); "first view" pages are requested with the per-process caches
(``scenarios.caches``) and Django's cache cleared before each request.

    python -m tests.bench.growth_bench [--scales 1,10,100]
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import io
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CACHE_DIR = ROOT / ".bench-cache"
SETTINGS = "config.settings.dev"
RUNS = 5


@dataclass(frozen=True)
class Scale:
    users: int
    attempts: int
    authored: int
    anonymous: int  # anonymous candidates: one session of ten answers each


SCALES = {
    1: Scale(users=100, attempts=10_000, authored=10, anonymous=350),
    10: Scale(users=1_000, attempts=100_000, authored=100, anonymous=3_500),
    100: Scale(users=10_000, attempts=1_000_000, authored=1_000, anonymous=35_000),
}
DEFAULT_SCALES = [1, 10, 100]
POPULAR = "popular-0000"  # the authored scenario every candidate answers


def fingerprint() -> str:
    """What the data depends on: the generator's code, the factories, the migrations, the
    library (the measuring code can change without building the data again)."""
    digest = hashlib.sha256(repr(SCALES).encode())
    for part in (generate, _wrong, models_f, _Statements):
        digest.update(inspect.getsource(part).encode())
    files = [ROOT / "tests" / "factories.py"]
    files += sorted(ROOT.glob("*/migrations/*.py"))
    files += sorted((ROOT / "scenarios" / "library").rglob("*"))
    for path in files:
        if path.is_file():
            digest.update(str(path.relative_to(ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def cache_path(scale: int) -> Path:
    return CACHE_DIR / f"growth-{scale}x-{fingerprint()}.sqlite3"


# -- generation (in the child process, Django set up on the scale's file) ----------------

def generate(scale: Scale, *, seed: int = 16) -> None:  # noqa: PLR0915 - one recipe
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.test import override_settings
    from django.utils import timezone

    from quiz.models import Attempt, QuizItem
    from quiz.services import scenario_of
    from scenarios.models import Scenario, ScenarioVersion
    from scenarios.services import content_hash
    from tests.factories import (
        AdminFactory,
        AttemptFactory,
        InstructorFactory,
        ProblemReportFactory,
        QuizItemFactory,
        QuizSessionFactory,
        ReviewCardFactory,
        UserFactory,
    )

    rng = random.Random(seed)
    clock = time.perf_counter()

    def stage(name: str) -> None:
        print(f"growth: {name} at {time.perf_counter() - clock:.0f} s", file=sys.stderr,
              flush=True)

    with connection.cursor() as cursor:  # a scratch file: no crash safety needed
        cursor.execute("PRAGMA journal_mode=OFF")
        cursor.execute("PRAGMA synchronous=OFF")
        cursor.execute("PRAGMA cache_size=-400000")
    call_command("migrate", verbosity=0)
    call_command("load_scenarios", verbosity=0)
    stage("library loaded")
    now = timezone.now()
    # the test settings' hasher: the factory's password hashed 10,000 times with the
    # production hasher would take hours (the bench logs its users in without one)
    fast = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
    with fast, transaction.atomic():
        library = list(ScenarioVersion.objects.filter(scenario__current_version__isnull=False,
                                                      scenario__current_version=models_f("pk"))
                       .select_related("scenario").order_by("scenario__slug"))
        # authored scenarios: copies of library documents under new slugs, published
        copies = [(f"popular-{i:04d}" if i == 0 else f"authored-{i:04d}", library[i % len(library)])
                  for i in range(scale.authored)]
        scenarios = Scenario.objects.bulk_create([
            Scenario(slug=slug, topic=source.scenario.topic,
                     difficulty=source.scenario.difficulty, status=Scenario.Status.PUBLISHED)
            for slug, source in copies])
        versions = []
        copied = [f.attname for f in ScenarioVersion._meta.concrete_fields
                  if f.attname not in ("id", "scenario_id", "document", "content_hash",
                                       "created_at")]
        for scenario, (slug, source) in zip(scenarios, copies, strict=True):
            document = {**source.document, "id": slug}
            document["title"] = {lang: f"{text} ({slug})"
                                 for lang, text in source.document["title"].items()}
            version = ScenarioVersion(scenario=scenario, document=document,
                                      content_hash=content_hash(document),
                                      **{a: getattr(source, a) for a in copied})
            version.fill_facts()  # the facts of the copy's own document (its title)
            versions.append(version)
        ScenarioVersion.objects.bulk_create(versions)
        for scenario, version in zip(scenarios, versions, strict=True):
            scenario.current_version = version
        Scenario.objects.bulk_update(scenarios, ["current_version"])

        published = list(ScenarioVersion.objects.filter(scenario__current_version=models_f("pk"))
                         .select_related("scenario").order_by("scenario__slug"))
        popular = next(v for v in published if v.scenario.slug == POPULAR)
        others = [v for v in published if v is not popular]
        rng.shuffle(others)
        weights = list(itertools.accumulate(1 / (rank + 1) ** 0.9
                                            for rank in range(len(others))))
        facts = {}  # per version: questions, eras, answer keys, a few variants, difficulty
        for version in published:
            parsed = scenario_of(version)
            seeds = [0] + ([rng.randrange(1, 2**31 - 1) for _ in range(3)] if parsed.params
                           else [])
            facts[version.pk] = (
                [q["id"] for q in version.document["questions"]], list(version.eras),
                version.answer_keys, [(s, parsed.values_for(s)) for s in seeds],
                rng.uniform(-0.2, 0.2))

        stage("authored scenarios made")
        users = UserFactory.build_batch(scale.users)
        from django.contrib.auth import get_user_model

        get_user_model().objects.bulk_create(users)
        InstructorFactory(username="bench-instructor")
        AdminFactory(username="bench-admin")
        ability = {u.pk: rng.uniform(0.35, 0.95) for u in users}

        # sessions: every anonymous candidate one, the signed-in the rest
        user_sessions = (scale.attempts // 10) - scale.anonymous
        owners: list[tuple[Any, str]] = [(u, "") for u in users]
        owners += [(rng.choice(users), "") for _ in range(user_sessions - len(users))]
        owners += [(None, f"anon{n:06d}") for n in range(scale.anonymous)]
        first: set[Any] = set()
        item_id = attempt_id = 0
        items: list[Any] = []
        attempts: list[Any] = []
        sessions = []
        cards: dict[tuple[int, int, str], Any] = {}
        reported: list[Any] = []
        for owner, key in owners:
            started = now - timedelta(seconds=rng.randrange(365 * 86400))
            session = QuizSessionFactory.build(user=owner, session_key=key, created_at=started,
                                               finished_at=started + timedelta(minutes=15))
            sessions.append(session)
            who = owner.pk if owner else key
            picks = rng.choices(others, cum_weights=weights, k=10)
            if who not in first:  # the popular scenario is in every candidate's first quiz
                first.add(who)
                picks[rng.randrange(10)] = popular
            p = ability[owner.pk] if owner else rng.uniform(0.3, 0.9)
            for position, version in enumerate(picks, start=1):
                questions, eras, keys, variants, hardness = facts[version.pk]
                question, era = rng.choice(questions), rng.choice(eras)
                seed_, params = rng.choice(variants)
                served = started + timedelta(seconds=60 * position)
                item_id += 1
                item = QuizItem(pk=item_id, session=session, position=position,
                                version_id=version.pk, question_id=question, era=era,
                                seed=seed_, params=params, served_at=served)
                items.append(item)
                expected = keys.get(era, {}).get(question, 0)
                correct = rng.random() < min(0.98, max(0.02, p - hardness))
                attempt_id += 1
                attempts.append(Attempt(
                    pk=attempt_id, item_id=item_id, user=owner, session_key=key,
                    version_id=version.pk, question_id=question, era=era, seed=seed_,
                    params=params, answer=expected if correct else _wrong(expected, rng),
                    correct=correct, expected=expected,
                    time_taken_ms=rng.randrange(2_000, 90_000), created_at=served))
                card = (owner.pk, version.scenario_id, question) if owner else None
                if card and card not in cards and len(cards) < scale.attempts // 5:
                    cards[card] = ReviewCardFactory.build(
                        user=owner, scenario_id=version.scenario_id, question_id=question,
                        due=served + timedelta(days=rng.randrange(-10, 60)),
                        reviews=1, lapses=0 if correct else 1)
                if rng.random() < 0.002:
                    reported.append((item, version, owner, key, correct, served))
        stage("rows built")
        # the attempt tallies' triggers off while loading, then filled in one statement
        # each and the triggers made again: what the migration that made them does
        tallies = importlib.import_module("quiz.migrations.0004_attempt_tallies")
        editor = _Statements(connection)
        tallies.drop_triggers(None, editor)
        QuizSessionFactory._meta.model.objects.bulk_create(sessions, batch_size=2000)
        QuizItemFactory._meta.model.objects.bulk_create(items, batch_size=2000)
        AttemptFactory._meta.model.objects.bulk_create(attempts, batch_size=2000)
        ReviewCardFactory._meta.model.objects.bulk_create(cards.values(), batch_size=2000)
        ProblemReportFactory._meta.model.objects.bulk_create([
            ProblemReportFactory.build(
                scenario_id=version.scenario_id, version=version, question_id=item.question_id,
                era=item.era, seed=item.seed, params=item.params, answer=None,
                correct=correct, quiz_item=item.pk, user=owner, session_key=key,
                created_at=served, closed_at=served if n % 3 else None)
            for n, (item, version, owner, key, correct, served) in enumerate(reported)],
            batch_size=2000)
        stage("rows written")
        tallies.create_triggers(None, editor)
    stage("tallies filled")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


class _Statements:
    """What the migration's functions use of a schema editor: the connection, execute."""

    def __init__(self, connection: Any) -> None:
        self.connection = connection

    def execute(self, sql: str) -> None:
        with self.connection.cursor() as cursor:
            cursor.execute(sql)


def models_f(name: str) -> Any:
    from django.db.models import F

    return F(name)


def _wrong(expected: Any, rng: random.Random) -> Any:
    """A wrong answer of the expected answer's shape."""
    if isinstance(expected, bool):
        return not expected
    if isinstance(expected, int):
        return expected + rng.choice((-2, -1, 1, 2, 3))
    if isinstance(expected, list):
        return expected[:1] if len(expected) > 1 else ["nothing"]
    if isinstance(expected, str):
        return rng.choice(("yes", "no", "alice", "bob"))
    return 0


# -- measuring (in the child process) -----------------------------------------------------

@dataclass
class Figure:
    ms: float
    queries: int


def timed(request: Callable[[], Any], *, first_view: bool = False,
          prepare: Callable[[], Any] | None = None) -> Figure:
    """Median of RUNS requests after one warm-up, and the queries of the last one."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scenarios import caches

    times = []
    queries = 0
    for run in range(RUNS + 1):
        arg = prepare() if prepare else None
        if first_view:
            caches.clear()
            cache.clear()
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            response = request() if arg is None else request(arg)  # type: ignore[call-arg]
            elapsed = time.perf_counter() - start
        assert response.status_code in (200, 302, 303), (response.status_code, response)
        if run:
            times.append(elapsed * 1000)
            queries = len(captured)
    return Figure(statistics.median(times), queries)


def measure() -> dict[str, dict[str, float]]:  # noqa: PLR0915 - one page after another
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import transaction
    from django.db.models import Count
    from django.test import Client
    from django.utils import timezone

    from quiz.models import Attempt, QuizItem
    from quiz.services import draw_seed, quiz_start, scenario_of
    from scenarios.models import Scenario
    from tests.bench.answers import answer_fields

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    settings.QUIZ_START_RATE = settings.QUIZ_START_ADDRESS_RATE = (10**9, 60)
    settings.QUIZ_ANSWER_RATE = settings.QUIZ_USER_RATE = (10**9, 60)
    users = get_user_model().objects
    candidate = (users.filter(username__startswith="candidate")
                 .annotate(n=Count("attempts")).order_by("-n").first())
    instructor = users.get(username="bench-instructor")
    admin = users.get(username="bench-admin")
    top = (Attempt.objects.values("version__scenario__slug").annotate(n=Count("pk"))
           .order_by("-n").first())
    assert candidate is not None and top is not None
    popular = top["version__scenario__slug"]
    era_slug = Scenario.objects.published().order_by("slug").first().slug  # type: ignore[union-attr]
    as_candidate, as_instructor, as_admin = Client(), Client(), Client()
    as_candidate.force_login(candidate)
    as_instructor.force_login(instructor)
    as_admin.force_login(admin)
    out: dict[str, Figure] = {}

    def fresh_item() -> tuple[str, dict[str, str]]:
        """An unanswered first question of a new quiz, its variant drawn, with an answer."""
        session = quiz_start(user=candidate, session_key="", length=1)
        item = QuizItem.objects.select_related("version").get(session=session, position=1)
        scenario = scenario_of(item.version)
        item.seed = draw_seed(scenario, item.era, item.question_id)
        item.params = scenario.values_for(item.seed)
        item.served_at = timezone.now()
        item.save(update_fields=["seed", "params", "served_at"])
        url = f"/en/quiz/{session.pk}/q/1/"
        return url, answer_fields(item)

    with transaction.atomic():
        out["statistics, computed on view"] = timed(
            lambda: as_instructor.get(f"/en/author/s/{popular}/stats/"))
        start = time.perf_counter()
        call_command("refresh_question_stats", stdout=io.StringIO())
        out["refresh_question_stats (command, once)"] = Figure(
            (time.perf_counter() - start) * 1000, 0)
        out["statistics (most answered)"] = timed(
            lambda: as_instructor.get(f"/en/author/s/{popular}/stats/"))
        out["instructor list"] = timed(lambda: as_instructor.get("/en/author/"))
        out["instructor list ?q="] = timed(lambda: as_instructor.get("/en/author/?q=trample"))
        out["admin attempts"] = timed(lambda: as_admin.get("/admin/quiz/attempt/"))
        out["admin attempts ?q=user"] = timed(
            lambda: as_admin.get(f"/admin/quiz/attempt/?q={candidate.username}"))
        out["rules index, first view"] = timed(lambda: as_candidate.get("/en/history/rules/"),
                                               first_view=True)
        out["rules index, warm"] = timed(lambda: as_candidate.get("/en/history/rules/"))
        out["quiz start"] = timed(lambda: as_candidate.post("/en/practice/", {
            "mode": "practice", "era_mode": "current", "difficulty_min": 1,
            "difficulty_max": 5, "length": 10}))
        out["review queue (start)"] = timed(lambda: as_candidate.post(
            "/en/practice/", {"mode": "review"}))
        out["history timeline"] = timed(lambda: as_candidate.get("/en/history/"))
        out["history timeline, first view"] = timed(
            lambda: as_candidate.get("/en/history/"), first_view=True)
        out["progress"] = timed(lambda: as_candidate.get("/en/progress/"))
        url, body = fresh_item()
        out["question page"] = timed(lambda: as_candidate.get(url))
        out["answer"] = timed(lambda arg: as_candidate.post(arg[0] + "answer/", arg[1]),  # type: ignore[arg-type,misc]
                              prepare=fresh_item)
        out["era comparison"] = timed(
            lambda: as_candidate.get(f"/en/history/scenario/{era_slug}/"))
        transaction.set_rollback(True)
    return {page: {"ms": f.ms, "queries": f.queries} for page, f in out.items()}


def child(scale: int, path: Path) -> None:
    """Build the scale's file if it isn't cached, then measure: one JSON line out."""
    import django

    django.setup()
    built = None
    if not path.exists():
        partial = path.with_suffix(".partial")
        partial.unlink(missing_ok=True)
        start = time.perf_counter()
        generate(SCALES[scale])
        built = time.perf_counter() - start
        from django.db import connection

        connection.close()
        os.replace(partial, path)
        for suffix in ("-wal", "-shm"):
            Path(f"{partial}{suffix}").unlink(missing_ok=True)
        # reconnect to the final name
        connection.settings_dict["NAME"] = str(path)
    pages = {} if os.environ.get("GROWTH_BUILD_ONLY") else measure()
    print(json.dumps({"built": built, "pages": pages}))


def run_scale(scale: int) -> dict[str, Any]:
    CACHE_DIR.mkdir(exist_ok=True)
    path = cache_path(scale)
    for stale in CACHE_DIR.glob(f"growth-{scale}x-*"):
        if not stale.name.startswith(path.name):
            stale.unlink()
    target = path if path.exists() else path.with_suffix(".partial")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": SETTINGS, "DJANGO_SQLITE_PATH": str(target)}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    result = subprocess.run([sys.executable, "-m", "tests.bench.growth_bench", "--child",
                             str(scale), str(path)], cwd=ROOT, env=env,
                            capture_output=True, text=True)
    sys.stderr.write("".join(line + "\n" for line in result.stderr.splitlines()
                             if line.startswith("growth:")))
    if result.returncode:
        raise SystemExit(f"growth: {scale}x failed:\n{result.stderr[-3000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def report(scales: list[int]) -> None:
    results = {}
    for scale in scales:
        results[scale] = run_scale(scale)
        built = results[scale]["built"]
        print(f"growth: {scale}x data "
              + (f"generated in {built:.0f} s" if built is not None else "from the cache")
              + f" ({cache_path(scale).name})", flush=True)
    pages = list(results[scales[0]]["pages"])
    head = " | ".join(f"{s}x" for s in scales)
    ratio = f" | {scales[-1]}x/{scales[0]}x" if len(scales) > 1 else ""
    print(f"growth: page | {head}{ratio} | queries at {head}")
    for page in pages:
        figures = [results[s]["pages"][page] for s in scales]
        cells = " | ".join(f"{f['ms']:.1f} ms" for f in figures)
        queries = " / ".join(str(f["queries"]) for f in figures)
        growth = f" | {figures[-1]['ms'] / figures[0]['ms']:.1f}x" if len(scales) > 1 else ""
        print(f"growth: {page} | {cells}{growth} | {queries}")


def main(argv: list[str]) -> int:
    sys.setrecursionlimit(10_000)
    if argv[:1] == ["--child"]:
        child(int(argv[1]), Path(argv[2]))
        return 0
    scales = DEFAULT_SCALES
    if "--scales" in argv:
        scales = [int(s) for s in argv[argv.index("--scales") + 1].split(",")]
    report(scales)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
