"""python manage.py make_instructor USERNAME [--remove]"""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from scenarios.roles import INSTRUCTORS_GROUP, instructor_grant, instructor_revoke


class Command(BaseCommand):
    help = f"Add a user to the {INSTRUCTORS_GROUP} group, or remove them with --remove."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username", help="the user's username (case-sensitive)")
        parser.add_argument(
            "--remove", action="store_true", help=f"remove the user from {INSTRUCTORS_GROUP}"
        )

    def handle(self, *args: Any, username: str, remove: bool, **options: Any) -> None:
        user_model = get_user_model()
        try:
            user = user_model._default_manager.get_by_natural_key(username)
        except user_model.DoesNotExist:
            raise CommandError(f"No user named {username!r}.") from None

        if remove:
            changed = instructor_revoke(user=user)
            message = "is no longer" if changed else "was not"
        else:
            changed = instructor_grant(user=user)
            message = "is now" if changed else "already was"
        self.stdout.write(self.style.SUCCESS(f"{username} {message} an instructor."))
        if remove and user.is_superuser:
            self.stdout.write(
                self.style.WARNING(f"{username} is a superuser and keeps instructor access.")
            )
