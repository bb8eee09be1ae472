"""Re-run every published version through the current engine."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scenarios.services import scenarios_recheck


class Command(BaseCommand):
    help = ("Re-run every published scenario version through the current engine and report "
            "each question whose answer key changed since it was published (exit 1 if any).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        changes = scenarios_recheck()
        if options["json"]:
            self.stdout.write(json.dumps([c.__dict__ if hasattr(c, "__dict__") else
                                          {f: getattr(c, f) for f in c.__slots__}
                                          for c in changes], ensure_ascii=False))
        else:
            for c in changes:
                self.stdout.write(f"{c.scenario} v{c.version} {c.question} in {c.era}: "
                                  f"{json.dumps(c.stored)} -> {json.dumps(c.now)}")
            self.stdout.write(f"{len(changes)} answer key(s) changed")
        if changes:
            raise CommandError("answer keys changed since publication")
