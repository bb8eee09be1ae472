"""The throttles count exactly across workers (issue 16): in the database by default (one
upsert per request), in the shared cache with REDIS_URL."""

from __future__ import annotations

import threading
from unittest import mock

import pytest
from django.core.management import call_command
from django.db import connection

from quiz import throttle
from quiz.models import ThrottleWindow
from tests.concurrency import at_once

pytestmark = pytest.mark.django_db(transaction=True)


def over(key: str, limit: int, window: int) -> bool:
    return throttle._database_over([(key, limit, window)])


def test_requests_racing_on_one_counter_each_get_their_own_count() -> None:
    """Eight threads (eight database connections, as eight workers would have) count 25
    requests each on one key with a limit of 100, at the same time: exactly 100 pass and
    100 are refused, none lost and none counted twice."""
    if connection.vendor == "sqlite" and connection.settings_dict["NAME"] == ":memory:":
        pytest.skip("threads need a database file they all open")
    refused: list[bool] = []
    lock = threading.Lock()

    def worker() -> None:
        got = [over("race", 100, 3600) for _ in range(25)]
        with lock:
            refused.extend(got)

    assert at_once(8, worker) == []
    assert (refused.count(False), refused.count(True)) == (100, 100)
    assert ThrottleWindow.objects.get(name="race").hits == 200


def test_several_limits_are_counted_in_one_transaction_until_one_is_over() -> None:
    """An answer counts two keys (this question, all answers) with one commit; once the
    first is over, the second is not counted."""
    from django.test.utils import CaptureQueriesContext

    with mock.patch("quiz.throttle.time.time", return_value=1_000_000.0):
        with CaptureQueriesContext(connection) as queries:
            assert not throttle._database_over([("one", 1, 60), ("all", 5, 60)])
        statements = [q["sql"].split()[0] for q in queries.captured_queries]
        assert (statements.count("INSERT"), statements.count("COMMIT")) == (2, 1)
        assert throttle._database_over([("one", 1, 60), ("all", 5, 60)])
    assert {w.name: w.hits for w in ThrottleWindow.objects.all()} == {"one": 2, "all": 1}


def test_a_new_window_starts_again_at_one_and_ended_windows_are_purged() -> None:
    with mock.patch("quiz.throttle.time.time", return_value=1_000_000.0):
        assert [over("k", 2, 60) for _ in range(3)] == [False, False, True]
    with mock.patch("quiz.throttle.time.time", return_value=1_000_060.0):
        assert not over("k", 0 + 1, 60)  # the next minute starts again at 1
        assert not over("other", 1, 60)
    assert {w.name: w.hits for w in ThrottleWindow.objects.all()} == {"k": 1, "other": 1}
    assert throttle.purge_expired_windows(now=1_000_070.0) == 0  # this minute ends at 1_000_080
    assert throttle.purge_expired_windows(now=1_000_200.0) == 2
    assert not ThrottleWindow.objects.exists()


def test_the_purge_command_says_what_it_deleted(capsys: pytest.CaptureFixture[str]) -> None:
    with mock.patch("quiz.throttle.time.time", return_value=1_000_000.0):
        over("k", 5, 60)
    call_command("purge_throttle_windows")
    assert "deleted 1 ended counter windows" in capsys.readouterr().out


def test_limits_hold_with_either_store(settings) -> None:
    settings.TEST_RATE = (3, 60)
    for store in ("database", "cache"):
        settings.QUIZ_THROTTLE_STORE = store
        results = [throttle._throttled((f"limit-{store}", "TEST_RATE")) for _ in range(5)]
        assert results == [False, False, False, True, True], store


def test_redis_url_makes_redis_the_shared_cache_and_the_throttles_store(monkeypatch) -> None:
    import sys

    from tests.web.test_security import PROD_ENV, load_prod_settings

    env = {k: v for k, v in PROD_ENV.items() if k != "DJANGO_SETTINGS_MODULE"}
    base = sys.modules["config.settings.base"]
    try:
        monkeypatch.setenv("REDIS_URL", "redis://cache:6379/0")
        sys.modules.pop("config.settings.base")  # read the environment again
        with_redis = load_prod_settings(monkeypatch, **env)
        monkeypatch.delenv("REDIS_URL")
        sys.modules.pop("config.settings.base")
        without = load_prod_settings(monkeypatch, **env)
    finally:
        sys.modules["config.settings.base"] = base
    assert with_redis.CACHES["default"]["BACKEND"].endswith("RedisCache")
    assert with_redis.CACHES["default"]["LOCATION"] == "redis://cache:6379/0"
    assert with_redis.QUIZ_THROTTLE_STORE == "cache"
    assert without.CACHES["default"]["BACKEND"].endswith("LocMemCache")
    assert without.QUIZ_THROTTLE_STORE == "database"
