"""``manage.py restore FILE --yes``: replace the database's contents with a backup made by
``manage.py backup`` (quiz.backups)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from quiz.backups import BackupError, restore


class Command(BaseCommand):
    help = ("Replace the whole database with the backup in FILE, made by `manage.py "
            "backup`. Everything written since the backup is lost: give --yes to confirm. "
            "Stop the app servers first.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--yes", action="store_true",
                            help="confirm that the database's current contents are replaced")

    def handle(self, *args: Any, **options: Any) -> None:
        if not options["yes"]:
            raise CommandError("restore replaces every row of the database with the "
                               "backup's: give --yes to confirm")
        try:
            restore(options["file"])
        except BackupError as err:
            raise CommandError(str(err)) from None
        self.stdout.write(f"restored from {options['file']}")
