"""Requests that race: the same work run in several threads released at the same moment,
each on database connections of its own (as separate workers would be)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connections


def at_once(threads: int, work: Callable[[], object]) -> list[BaseException]:
    """Run ``work`` in ``threads`` threads that start it together; wait for all; return
    what they raised (nothing, if all went well). Each thread closes its connections."""
    start = threading.Barrier(threads)
    errors: list[BaseException] = []

    def run() -> None:
        try:
            start.wait()
            work()
        except BaseException as err:  # noqa: BLE001 - returned to the test
            errors.append(err)
        finally:
            connections.close_all()

    running = [threading.Thread(target=run) for _ in range(threads)]
    for t in running:
        t.start()
    for t in running:
        t.join()
    return errors
