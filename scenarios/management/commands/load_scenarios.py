"""Import scenario files into the database, idempotently."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scenarios.library import LibraryFileError, library_files
from scenarios.services import (
    NotPublishable,
    ScenarioInvalid,
    loaded_hashes,
    scenario_load,
    versions_refresh,
)


class Command(BaseCommand):
    help = ("Load scenario files (default: scenarios/library/**/*.yaml). Unchanged documents "
            "add nothing, changed ones add a version; an invalid file is reported with its "
            "errors and nothing of it is written. A file is checked again only if it changed "
            "or the engine did since it was last loaded.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="*", help="files or folders (default: the library)")
        parser.add_argument("--draft", action="store_true",
                            help="store new versions as drafts instead of publishing them")
        parser.add_argument("--force", action="store_true",
                            help="read and check every file, even those unchanged since they "
                                 "were loaded by this very engine")

    def handle(self, *args: Any, **options: Any) -> None:
        files = library_files(options["paths"])
        counts = {"created": 0, "updated": 0, "unchanged": 0, "failed": 0}
        loaded: set[int] = set()  # versions checked (or found unchanged) just now
        known = loaded_hashes()
        for path in files:
            try:
                result = scenario_load(path=path, publish=not options["draft"],
                                       force=options["force"], known=known)
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
            loaded.add(result.version.pk)
            if result.outcome != "unchanged" and options["verbosity"] > 1:
                self.stdout.write(f"{result.outcome}: {result.scenario.slug} "
                                  f"v{result.version.number}")
        refreshed = versions_refresh(skip=loaded)  # checks an older engine made, made again
        if refreshed and options["verbosity"] > 1:
            self.stdout.write(f"checked again with this engine: {refreshed} version(s)")
        summary = ", ".join(f"{n} {k}" for k, n in counts.items())
        self.stdout.write(f"scenarios: {len(files)} files: {summary}")
        if counts["failed"]:
            raise CommandError(f"{counts['failed']} file(s) were not loaded")
