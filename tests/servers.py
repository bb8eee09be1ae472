"""For the runs that start real servers (the web bench, the page profile, the
multi-server test): a free port, and a throwaway PostgreSQL database."""

from __future__ import annotations

import secrets
import socket
from collections.abc import Callable
from urllib.parse import urlsplit, urlunsplit


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def postgres_database(url: str, prefix: str = "quiz_bench") -> tuple[str, Callable[[], None]]:
    """A new, empty database on DATABASE_URL's server for one run, and a function that
    drops it: a run never writes into the database it was pointed at."""
    import psycopg
    from psycopg import sql

    name = f"{prefix}_{secrets.token_hex(4)}"
    parts = urlsplit(url)
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))

    def drop() -> None:
        with psycopg.connect(url, autocommit=True) as db:
            db.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(name)))

    return urlunsplit(parts._replace(path=f"/{name}")), drop
