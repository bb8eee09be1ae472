"""Write scenario documents back to files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scenarios.library import dump_document
from scenarios.models import Scenario
from scenarios.services import scenario_export


class Command(BaseCommand):
    help = "Export scenarios (published version, else latest) as YAML files: OUT/<topic>/<id>.yaml"

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--out", required=True, help="output folder")
        parser.add_argument("slugs", nargs="*", help="only these scenarios")

    def handle(self, *args: Any, **options: Any) -> None:
        out = Path(options["out"])
        scenarios = Scenario.objects.all()
        if options["slugs"]:
            scenarios = scenarios.filter(slug__in=options["slugs"])
            missing = set(options["slugs"]) - set(scenarios.values_list("slug", flat=True))
            if missing:
                raise CommandError(f"unknown scenario(s): {', '.join(sorted(missing))}")
        n = 0
        for scenario in scenarios:
            if scenario.latest_version() is None:
                continue
            path = out / scenario.topic / f"{scenario.slug}.yaml"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(dump_document(scenario_export(scenario=scenario)), encoding="utf-8")
            n += 1
        self.stdout.write(f"exported {n} scenario(s) to {out}")
