"""Delete the request counters whose window has ended: run it daily (cron, a systemd
timer). Only where the throttles count in the database (no REDIS_URL; quiz.throttle)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from quiz.throttle import purge_expired_windows


class Command(BaseCommand):
    help = ("Delete the throttles' request counters whose window has ended (they only take "
            "room: a new window starts again at 1). Run it daily.")

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(f"deleted {purge_expired_windows()} ended counter windows")
