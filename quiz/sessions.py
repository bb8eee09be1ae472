"""Django's database session store, reading a session with one plain query.

Every request of a signed-in user or an anonymous quiz reads its session; the stock store
compiles an ORM ``get`` for it each time, which costs more than the query itself. This
store runs the same SELECT (same table, same expiry condition) as plain SQL
(``quiz.rawsql.session_data``); writing, creating, deleting and clearing expired sessions
are Django's own code, unchanged.
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends import db
from django.db import connections, router

from quiz import rawsql


class SessionStore(db.SessionStore):
    def load(self) -> dict[str, Any]:
        key = self.session_key
        if key is None:
            return {}
        model = self.model
        data = rawsql.session_data(model, key, connections[router.db_for_read(model)])
        if data is None:
            self._session_key = None  # unknown or expired: a new key if anything is saved
            return {}
        return self.decode(data)
