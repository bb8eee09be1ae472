"""``manage.py backup FILE``: a consistent backup of the whole database, taken while the
site runs (quiz.backups)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from quiz.backups import BackupError, backup


class Command(BaseCommand):
    help = ("Write a backup of the whole database to FILE (SQLite: the online backup API; "
            "PostgreSQL: pg_dump's custom format). Safe while the site runs.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            size = backup(options["file"])
        except BackupError as err:
            raise CommandError(str(err)) from None
        self.stdout.write(f"backup written: {options['file']} ({size:,} bytes)")
