"""The worst authoring request: the live preview of a document at the caps, and of a
~560-byte YAML alias bomb ("billion laughs"), posted with the Django test client in
process (sessions, CSRF middleware, the preview view, validation in every era, the board).

Run alone as ``python tests/bench/authoring_bench.py [--levels N]`` with the code to
measure first on ``sys.path`` (``PYTHONPATH``): that is how the figure before the one reader
was taken, on a worktree of the old code. ``--levels`` nests the bomb less deeply than the
full nine levels, for code that expands aliases (its time grows ninefold per level)."""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from typing import Any

BOMB_LEVELS = 9
RUNS = 5


def alias_bomb(levels: int = BOMB_LEVELS) -> str:
    """A scenario document whose last line names 9**levels strings through aliases."""
    names = "abcdefghijklmnopqrstuvwxyz"
    lines = ["format: 1", "id: bomb", "topic: loyalty", "difficulty: 1",
             'title: {en: "Bomb"}', "setup: {}", "actions: []",
             f"{names[0]}: &{names[0]} [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, levels):
        ref = f"*{names[i - 1]}"
        lines.append(f"{names[i]}: &{names[i]} [{', '.join([ref] * 9)}]")
    lines.append(f"questions: [*{names[levels - 1]}]")
    return "\n".join(lines) + "\n"


def at_caps_document(target_bytes: int = 250 * 1024) -> dict[str, Any]:
    """A valid document near every cap at once: 40 objects, 40 actions, 20 questions,
    64 variants checked in every era, texts filling the file up to ``target_bytes``."""
    alice = [f"a{i}" for i in range(20)]
    bob = [f"b{i}" for i in range(19)]
    battlefield: list[dict[str, Any]] = [
        {"id": oid, "controller": "alice", "types": ["creature"], "power": "$p",
         "toughness": 4, "keywords": ["trample"]} for oid in alice]
    battlefield += [{"id": oid, "controller": "bob", "types": ["creature"], "power": 1,
                     "toughness": 1} for oid in bob]
    battlefield.append({"id": "garruk", "card": "garruk-wildspeaker", "controller": "bob",
                        "counters": {"loyalty": 1000}})
    actions: list[dict[str, Any]] = [
        {"attack": {oid: "garruk" if i % 2 else "bob" for i, oid in enumerate(alice)}},
        {"block": dict(zip(bob, alice, strict=False))},
        {"combat_damage": {}},
        {"step": "main2"},
    ]
    actions += [{"counters": {"garruk": {"loyalty": 1}}} for _ in range(36)]
    questions = [{"id": f"q{i}", "kind": "number",
                  "ask": {"en": "", "it": "", "es": ""},
                  "answer": {"loyalty": "garruk"} if i % 2 else {"life": "bob"}}
                 for i in range(20)]
    document: dict[str, Any] = {
        "format": 1, "id": "at-the-caps", "topic": "trample-into-planeswalkers",
        "difficulty": 5,
        "params": {"p": {"range": [1, 64], "default": 6}},
        "title": {"en": "At the caps", "it": "Ai limiti", "es": "En los límites"},
        "story": {"en": "", "it": "", "es": ""},
        "setup": {"turn": {"active": "alice", "step": "main1"},
                  "players": [{"id": "alice", "life": 20}, {"id": "bob", "life": 1000}],
                  "battlefield": battlefield},
        "actions": actions, "questions": questions,
        "explain": {"en": "", "it": "", "es": ""},
    }
    _fill_texts(document, target_bytes)
    return document


def _fill_texts(document: dict[str, Any], target_bytes: int) -> None:
    from scenarios.library import dump_document

    texts = [document["story"], document["explain"]] + [q["ask"] for q in document["questions"]]
    words = "Alice attacca con {a0} e Bob blocca; quanti segnalini fedeltà restano? " * 80
    low, high = 1, 5000
    while low < high:  # the longest texts that keep the dumped file within target_bytes
        each = (low + high + 1) // 2
        for text in texts:
            for lang in ("en", "it", "es"):
                text[lang] = words[:each].strip() + "?"
        if len(dump_document(document).encode("utf-8")) <= target_bytes:
            low = each
        else:
            high = each - 1
    for text in texts:
        for lang in ("en", "it", "es"):
            text[lang] = words[:low].strip() + "?"


def _client() -> Any:
    """A signed-in instructor's test client on a fresh SQLite database."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment

    setup_test_environment(debug=False)
    call_command("migrate", verbosity=0)
    from scenarios.roles import INSTRUCTORS_GROUP

    user = get_user_model().objects.create_user("bench-instructor", password="x" * 20)
    user.groups.add(Group.objects.get_or_create(name=INSTRUCTORS_GROUP)[0])
    client = Client()
    client.force_login(user)
    return client


def _median_ms(client: Any, source: str, runs: int = RUNS) -> tuple[float, int]:
    from django.urls import reverse

    url = reverse("scenarios:preview")
    times, status = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        response = client.post(url, {"source": source})
        times.append((time.perf_counter() - start) * 1000)
        status = response.status_code
    return statistics.median(times), status


def measure(levels: int = BOMB_LEVELS) -> dict[str, float]:
    """Median milliseconds of a preview request: at the caps, and the bomb."""
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
        os.environ["DJANGO_SQLITE_PATH"] = os.path.join(tmp, "authoring-bench.sqlite3")
        client = _client()
        from scenarios.library import dump_document

        source = dump_document(at_caps_document())
        caps, _ = _median_ms(client, source)
        bomb, _ = _median_ms(client, alias_bomb(levels), runs=1 if levels > 6 else 3)
        return {"caps": caps, "bomb": bomb, "caps_bytes": len(source.encode("utf-8")),
                "bomb_bytes": len(alias_bomb(levels).encode("utf-8"))}


def report() -> None:
    figures = measure()
    print(f"authoring: worst-case preview request at the caps {figures['caps']:.0f} ms "
          f"({figures['caps_bytes'] / 1024:.0f} KB, 40 objects, 40 actions, 20 questions, "
          f"64 variants in every era) (alias bomb {figures['bomb']:.0f} ms, "
          f"{figures['bomb_bytes']:.0f} bytes)")


if __name__ == "__main__":
    levels = int(sys.argv[sys.argv.index("--levels") + 1]) if "--levels" in sys.argv else 9
    figures = measure(levels)
    print(f"preview at the caps: {figures['caps']:.1f} ms ({figures['caps_bytes']} bytes); "
          f"alias bomb of {levels} levels: {figures['bomb']:.1f} ms "
          f"({figures['bomb_bytes']} bytes)")
