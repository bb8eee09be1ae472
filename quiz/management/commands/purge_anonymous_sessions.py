"""Delete abandoned anonymous quizzes: run it daily (cron, a systemd timer).

An anonymous quiz belongs to a browser session; once that session has expired nobody can
open the quiz again, yet its rows stay (one per question). This deletes such quizzes
created more than ``QUIZ_ANONYMOUS_PURGE_DAYS`` days ago, with their questions, unless
someone answered one of their questions: attempts are the instructors' statistics.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from quiz.services import quiz_sessions_purge


class Command(BaseCommand):
    help = ("Delete anonymous quiz sessions created more than N days ago (default: the "
            "QUIZ_ANONYMOUS_PURGE_DAYS setting) whose browser session has expired or is "
            "gone, with their questions. Sessions with at least one answer (attempt) are "
            "kept, and no attempt is ever deleted: attempts are the instructors' "
            "statistics. Signed-in users' sessions are never touched. Run it daily.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=None,
                            help="age in days (default: QUIZ_ANONYMOUS_PURGE_DAYS)")
        parser.add_argument("--dry-run", action="store_true",
                            help="count what would be deleted, delete nothing")

    def handle(self, *args: Any, days: int | None, dry_run: bool, **options: Any) -> None:
        days = settings.QUIZ_ANONYMOUS_PURGE_DAYS if days is None else days
        if days < 0:
            raise CommandError("--days must be 0 or more")
        now = timezone.now()
        sessions, items = quiz_sessions_purge(created_before=now - timedelta(days=days),
                                              now=now, dry_run=dry_run)
        verb = "Would delete" if dry_run else "Deleted"
        self.stdout.write(f"{verb} {sessions} anonymous session(s) older than {days} day(s) "
                          f"and {items} question item(s).")
