"""Import scenario files into the database, idempotently."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scenarios.library import LibraryFileError, library_files, read_document
from scenarios.services import NotPublishable, ScenarioInvalid, scenario_import


class Command(BaseCommand):
    help = ("Load scenario files (default: scenarios/library/**/*.yaml). Unchanged documents "
            "add nothing, changed ones add a version; an invalid file is reported with its "
            "errors and nothing of it is written.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="*", help="files or folders (default: the library)")
        parser.add_argument("--draft", action="store_true",
                            help="store new versions as drafts instead of publishing them")

    def handle(self, *args: Any, **options: Any) -> None:
        files = library_files(options["paths"])
        counts = {"created": 0, "updated": 0, "unchanged": 0, "failed": 0}
        for path in files:
            try:
                document = read_document(path)
                result = scenario_import(document=document, source_path=str(path),
                                         publish=not options["draft"])
            except LibraryFileError as err:
                counts["failed"] += 1
                self.stderr.write(f"{path}: {err}")
                continue
            except (ScenarioInvalid, NotPublishable) as err:
                counts["failed"] += 1
                self.stderr.write(f"{path}:")
                for e in err.report.errors:
                    rule = f" (rule {e['rule']})" if e.get("rule") else ""
                    era = f" [{e['era']}]" if e.get("era") else ""
                    self.stderr.write(f"  {e['path']}: {e['message']}{rule}{era}")
                if isinstance(err, NotPublishable):
                    self.stderr.write(f"  not publishable: {err}")
                continue
            counts[result.outcome] += 1
            if result.outcome != "unchanged" and options["verbosity"] > 1:
                self.stdout.write(f"{result.outcome}: {result.scenario.slug} "
                                  f"v{result.version.number}")
        summary = ", ".join(f"{n} {k}" for k, n in counts.items())
        self.stdout.write(f"scenarios: {len(files)} files: {summary}")
        if counts["failed"]:
            raise CommandError(f"{counts['failed']} file(s) were not loaded")
