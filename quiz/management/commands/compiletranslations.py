"""Compile locale/*/LC_MESSAGES/*.po to .mo with polib (no GNU gettext needed).

Only catalogues whose .mo is missing or older than the .po are compiled, so running it
again is instant and touches nothing.
"""

from pathlib import Path
from typing import Any

import polib
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser


def stale_catalogues(locale_dirs: list[Path], *, force: bool = False) -> list[Path]:
    stale = []
    for locale_dir in locale_dirs:
        for po_path in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
            mo_path = po_path.with_suffix(".mo")
            if force or not mo_path.exists() or mo_path.stat().st_mtime < po_path.stat().st_mtime:
                stale.append(po_path)
    return stale


class Command(BaseCommand):
    help = "Compile stale .po files in LOCALE_PATHS to .mo files using polib."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--force", action="store_true", help="recompile every catalogue")

    def handle(self, *args: Any, force: bool, **options: Any) -> None:
        locale_dirs = [Path(path) for path in settings.LOCALE_PATHS]
        for po_path in stale_catalogues(locale_dirs, force=force):
            try:
                catalogue = polib.pofile(str(po_path))
            except (OSError, ValueError) as error:
                raise CommandError(f"{po_path}: {error}") from error
            catalogue.save_as_mofile(str(po_path.with_suffix(".mo")))
            if options["verbosity"] >= 1:
                self.stdout.write(f"compiled {po_path}")
