"""`manage.py backup` and `restore`: a populated database comes back row for row, on
SQLite and on PostgreSQL (whichever the suite runs on)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from scenarios.models import Scenario
from tests.factories import ScenarioFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def every_row() -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows, sorted (the comparison must not depend on scan order)."""
    out = {}
    with connection.cursor() as cursor:
        for table in sorted(connection.introspection.table_names(cursor)):
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            out[table] = sorted(tuple(map(repr, row)) for row in cursor.fetchall())
    return out


def test_a_restored_backup_has_every_row_of_every_table(tmp_path: Path) -> None:
    for _ in range(3):
        UserFactory()
    ScenarioFactory(slug="backed-up")
    before = every_row()
    assert sum(len(rows) for rows in before.values()) > 20
    target = tmp_path / "quiz.backup"
    call_command("backup", str(target))
    assert target.stat().st_size > 0
    # Life goes on after the backup: rows change, come and go.
    UserFactory()
    Scenario.objects.filter(slug="backed-up").update(slug="renamed")
    assert every_row() != before
    call_command("restore", str(target), "--yes")
    assert every_row() == before


def test_restore_asks_for_confirmation_and_checks_the_file(tmp_path: Path) -> None:
    target = tmp_path / "quiz.backup"
    call_command("backup", str(target))
    with pytest.raises(CommandError, match="--yes"):
        call_command("restore", str(target))
    bogus = tmp_path / "notes.txt"
    bogus.write_text("not a backup")
    with pytest.raises(CommandError, match="is not an? "):
        call_command("restore", str(bogus), "--yes")
    with pytest.raises(CommandError, match="is not a file"):
        call_command("restore", str(tmp_path / "missing"), "--yes")


def test_a_backup_into_a_missing_directory_is_refused_and_leaves_nothing(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="is not a directory"):
        call_command("backup", str(tmp_path / "nowhere" / "quiz.backup"))
    assert list(tmp_path.iterdir()) == []


def test_pg_tools_connect_as_the_app_does_with_options_from_the_url(monkeypatch) -> None:
    """``DATABASE_URL``'s query string (a socket directory as ``?host=``, sslmode) lands
    in OPTIONS, which psycopg uses; pg_dump and pg_restore get them too, HOST and friends
    win over them as in Django's backend, and the password stays off the command line."""
    from types import SimpleNamespace

    from psycopg.conninfo import conninfo_to_dict

    from quiz import backups

    monkeypatch.setattr(backups, "connection", SimpleNamespace(settings_dict={
        "NAME": "quiz", "USER": "judge", "PASSWORD": "s3cret", "HOST": "", "PORT": "",
        "OPTIONS": {"host": "/run/postgresql", "port": "5433", "sslmode": "require",
                    "server_side_binding": True, "pool": False},
    }))
    (arg,) = backups._pg_args()
    assert arg.startswith("--dbname=")
    assert conninfo_to_dict(arg.removeprefix("--dbname=")) == {
        "dbname": "quiz", "user": "judge", "host": "/run/postgresql", "port": "5433",
        "sslmode": "require"}
    monkeypatch.setattr(backups, "connection", SimpleNamespace(settings_dict={
        "NAME": "quiz", "USER": "", "PASSWORD": "", "HOST": "db.example", "PORT": "6432",
        "OPTIONS": {"host": "/run/postgresql"}}))
    (arg,) = backups._pg_args()
    assert conninfo_to_dict(arg.removeprefix("--dbname=")) == {
        "dbname": "quiz", "host": "db.example", "port": "6432"}
