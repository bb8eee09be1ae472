"""Backups of the whole database, and restoring one (``manage.py backup`` / ``restore``).

SQLite: the online backup API (a consistent copy while the site runs, page by page; the
restore copies the backup into the live database the same way). PostgreSQL: ``pg_dump`` in
its custom format and ``pg_restore --clean --if-exists --single-transaction`` (both come
with PostgreSQL's client package; found on PATH or in /usr/lib/postgresql/*/bin).

A backup is written to a temporary file beside the target and renamed into place, so a
failed backup never leaves a half-written file under the name asked for. A restore checks
the file is a backup of the right kind before it touches the database.
"""

from __future__ import annotations

import glob
import os
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path

from django.db import connection

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_MAGIC = b"PGDMP"


class BackupError(Exception):
    """What went wrong, in a sentence a person running the command can act on."""


def backup(target: Path) -> int:
    """Write a backup of the database to ``target``; returns its size in bytes."""
    target = target.resolve()
    if not target.parent.is_dir():
        raise BackupError(f"{target.parent} is not a directory")
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        if connection.vendor == "sqlite":
            _sqlite_copy(tmp, into_file=True)
        elif connection.vendor == "postgresql":
            _run([_pg_tool("pg_dump"), "--format=custom", "--no-owner", f"--file={tmp}",
                  *_pg_args()], "pg_dump")
        else:
            raise BackupError(f"no backup for the {connection.vendor} database")
        tmp.replace(target)
    finally:
        tmp.unlink(missing_ok=True)
    return target.stat().st_size


def restore(source: Path) -> None:
    """Replace the database's contents with the backup in ``source``."""
    if not source.is_file():
        raise BackupError(f"{source} is not a file")
    with source.open("rb") as f:
        head = f.read(len(SQLITE_MAGIC))
    if connection.vendor == "sqlite":
        if not head.startswith(SQLITE_MAGIC):
            raise BackupError(f"{source} is not an SQLite backup")
        _sqlite_copy(source, into_file=False)
    elif connection.vendor == "postgresql":
        if not head.startswith(PG_MAGIC):
            raise BackupError(f"{source} is not a pg_dump backup (custom format)")
        connection.close()  # no session of ours holds a lock on a table being replaced
        _run([_pg_tool("pg_restore"), "--clean", "--if-exists", "--no-owner",
              "--single-transaction", *_pg_args(), str(source)], "pg_restore")
    else:
        raise BackupError(f"no restore for the {connection.vendor} database")


def _sqlite_copy(file: Path, *, into_file: bool) -> None:
    """SQLite's online backup, page by page, from the live database into ``file`` or
    from ``file`` into the live database."""
    connection.ensure_connection()
    live = connection.connection
    other = sqlite3.connect(file)
    try:
        source, target = (live, other) if into_file else (other, live)
        source.backup(target)
    finally:
        other.close()


# Connection options psycopg takes from OPTIONS that pg_dump and pg_restore must use too
# (libpq keywords): ``DATABASE_URL``'s query string lands there, e.g. a socket directory
# given as ``?host=/run/postgresql``.
_LIBPQ_OPTIONS = frozenset({
    "host", "hostaddr", "port", "sslmode", "sslcert", "sslkey", "sslrootcert", "sslcrl",
    "passfile", "service", "connect_timeout", "options", "application_name",
    "target_session_attrs", "gssencmode", "channel_binding",
})


def _pg_args() -> list[str]:
    """The live database for pg_dump and pg_restore, as one libpq connection string: the
    libpq options of OPTIONS, then HOST, PORT, USER and NAME over them (as Django's
    backend connects). The password goes in PGPASSWORD (``_run``), never on the command
    line."""
    from psycopg.conninfo import make_conninfo

    s = connection.settings_dict
    params = {k: str(v) for k, v in (s.get("OPTIONS") or {}).items()
              if k in _LIBPQ_OPTIONS and v not in (None, "")}
    for key, name in (("HOST", "host"), ("PORT", "port"), ("USER", "user"),
                      ("NAME", "dbname")):
        if s.get(key):
            params[name] = str(s[key])
    return [f"--dbname={make_conninfo(**params)}"]


def _pg_tool(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if candidates:
        return candidates[-1]
    raise BackupError(f"{name} was not found: install PostgreSQL's client tools")


def _run(command: list[str], tool: str) -> None:
    env = dict(os.environ)
    password = connection.settings_dict.get("PASSWORD")
    if password:
        env["PGPASSWORD"] = str(password)
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupError(f"{tool} failed: {done.stderr.strip()[:500]}")
