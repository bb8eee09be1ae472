import subprocess
import sys
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from scenarios.roles import is_instructor
from tests.factories import InstructorFactory, UserFactory


def run(*args):
    out = StringIO()
    call_command("make_instructor", *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_make_instructor_promotes_a_candidate():
    user = UserFactory(username="ada")
    assert "ada is now an instructor" in run("ada")
    assert is_instructor(type(user).objects.get(pk=user.pk))


@pytest.mark.django_db
def test_make_instructor_twice_is_harmless():
    InstructorFactory(username="ada")
    assert "already was" in run("ada")


@pytest.mark.django_db
def test_make_instructor_remove_demotes():
    user = InstructorFactory(username="ada")
    assert "ada is no longer an instructor" in run("ada", "--remove")
    assert not is_instructor(type(user).objects.get(pk=user.pk))


@pytest.mark.django_db
def test_make_instructor_unknown_user_is_a_command_error():
    with pytest.raises(CommandError, match="No user named 'ghost'"):
        run("ghost")


def test_make_instructor_unknown_user_exits_without_traceback(tmp_path):
    # A throwaway SQLite database so the real one is never touched.
    env = {
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": f"sqlite:///{tmp_path}/db.sqlite3",
        "PATH": "/usr/bin:/bin",
    }
    script = (
        "import django;"
        "django.setup();"
        "from django.core.management import call_command, execute_from_command_line;"
        "call_command('migrate', verbosity=0);"
        "execute_from_command_line(['manage.py', 'make_instructor', 'ghost'])"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert "CommandError: No user named 'ghost'." in result.stderr
    assert "Traceback" not in result.stderr
