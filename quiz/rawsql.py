"""Every statement the apps write in plain SQL, in one place, each justified by measurement.

The ORM compiles each query afresh on every call (a quarter of a millisecond for an
INSERT, and on SQLite that compile happens inside the write transaction, while the
database lock is held). The statements every request or every answer runs are built here
once per model and database and convert values exactly as the ORM does
(``tests/quiz/test_rawsql.py`` holds them equal to the ORM's):

- ``session_data``: the session store's read (``quiz.sessions``), on every request of a
  signed-in user or an anonymous quiz;
- ``owned_item``: an item with its session and attempt, on every question and answer;
- ``writer``: inserting the attempt, on every answer;
- ``session_counts``: the answered and right counts of a session, on every answer.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import connection as default_connection
from django.db import connections
from django.db.models import Model
from django.utils import timezone

from quiz.models import Attempt, QuizItem, QuizSession


class RowReader[M: Model]:
    """How to read one model's columns out of a raw row, as the ORM's compiler would:
    the columns to select, the attribute names, each field's converters. Built once per
    model and database connection (the converters depend on the backend)."""

    def __init__(self, model: type[M], connection: Any, table_alias: str) -> None:
        self.model = model
        self.db = connection.alias
        fields = model._meta.concrete_fields
        qn = connection.ops.quote_name
        self.columns = [f"{table_alias}.{qn(f.column)}" for f in fields]
        self.attnames = [f.attname for f in fields]
        self.cols = [f.get_col(model._meta.db_table) for f in fields]
        self.converters = [tuple(connection.ops.get_db_converters(col)
                                 + col.get_db_converters(connection)) for col in self.cols]

    def __len__(self) -> int:
        return len(self.columns)

    def instance(self, values: tuple[Any, ...], connection: Any) -> M:
        out = []
        for value, converters, col in zip(values, self.converters, self.cols, strict=True):
            for converter in converters:
                value = converter(value, col, connection)
            out.append(value)
        return self.model.from_db(self.db, self.attnames, out)


class RowWriter:
    """INSERT one model instance, as ``Model.objects.create`` would (no signals: the
    models written here have no receivers). Split in two so the values are prepared before
    the transaction opens and only the statement runs inside it."""

    def __init__(self, model: Any, connection: Any) -> None:
        self.db = connection.alias
        qn = connection.ops.quote_name
        self.fields = [f for f in model._meta.concrete_fields if not f.primary_key]
        columns = ", ".join(qn(f.column) for f in self.fields)
        marks = ", ".join(["%s"] * len(self.fields))
        self.returning = connection.features.can_return_columns_from_insert
        self.sql = (f"INSERT INTO {qn(model._meta.db_table)} ({columns}) VALUES ({marks})"
                    + (f" RETURNING {qn(model._meta.pk.column)}" if self.returning else ""))

    def params(self, obj: Any) -> list[Any]:
        connection = connections[self.db]
        return [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in self.fields]

    def insert(self, obj: Any, params: list[Any]) -> None:
        with connections[self.db].cursor() as cursor:
            cursor.execute(self.sql, params)
            obj.pk = cursor.fetchone()[0] if self.returning else cursor.lastrowid
        obj._state.adding = False
        obj._state.db = self.db


_WRITERS: dict[tuple[Any, str], RowWriter] = {}


def writer(model: Any, using: str = "default") -> RowWriter:
    key = (model, using)
    if key not in _WRITERS:
        _WRITERS[key] = RowWriter(model, connections[using])
    return _WRITERS[key]


# -- the session store's read ----------------------------------------------------------------

def session_data(model: Any, key: str, connection: Any) -> str | None:
    """The stored data of session ``key`` unless it expired: the SELECT of Django's
    database store (same table, same expiry condition), or None."""
    sql = (f"SELECT session_data FROM {connection.ops.quote_name(model._meta.db_table)} "
           f"WHERE session_key = %s AND expire_date > %s")
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(sql, [key, now])
        row = cursor.fetchone()
    return None if row is None else str(row[0])


# -- an item with its session and attempt ----------------------------------------------------

type _OwnedItemPlan = tuple[RowReader[QuizItem], RowReader[QuizSession], RowReader[Attempt],
                           str]
_OWNED_ITEM: dict[str, _OwnedItemPlan] = {}


def _owned_item_plan(connection: Any) -> _OwnedItemPlan:
    plan = _OWNED_ITEM.get(connection.alias)
    if plan is None:
        item, session, attempt = (RowReader(QuizItem, connection, "i"),
                                  RowReader(QuizSession, connection, "s"),
                                  RowReader(Attempt, connection, "a"))
        select = ", ".join(item.columns + session.columns + attempt.columns)
        # The candidate's running mock exam, if any (its id): answers and feedback of
        # other sessions are refused while it runs, at no extra round trip.
        exam = (f"(SELECT e.id FROM {QuizSession._meta.db_table} e WHERE {{exam_owner}} "
                f"AND e.mode = %s AND e.finished_at IS NULL AND e.deadline > %s "
                f"ORDER BY e.deadline LIMIT 1)")
        sql = (f"SELECT {select}, {exam} FROM {QuizItem._meta.db_table} i "
               f"JOIN {QuizSession._meta.db_table} s ON s.id = i.session_id "
               f"LEFT JOIN {Attempt._meta.db_table} a ON a.item_id = i.id "
               f"WHERE i.session_id = %s AND i.position = %s AND {{owner}}")
        plan = _OWNED_ITEM[connection.alias] = (item, session, attempt, sql)
    return plan


def owned_item(*, session_id: Any, position: int, user_id: int | None = None,
               session_key: str | None = None) -> QuizItem | None:
    """One query for the item, its session and its attempt, owned by this user (or, for
    an anonymous quiz, this browser session); None otherwise. ``item.running_exam_id``
    is the owner's mock exam still running (this session or another), or None."""
    connection = default_connection
    try:
        sid = uuid.UUID(str(session_id))
    except ValueError:
        return None
    items, sessions, attempts, sql = _owned_item_plan(connection)
    who: int | str | None
    if user_id is not None:
        owner, exam_owner, who = "s.user_id = %s", "e.user_id = %s", user_id
    else:
        owner = "s.user_id IS NULL AND s.session_key = %s"
        exam_owner, who = "e.user_id IS NULL AND e.session_key = %s", session_key
    session_param = sid.hex if connection.vendor == "sqlite" else sid
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(sql.format(owner=owner, exam_owner=exam_owner),
                       [who, QuizSession.Mode.EXAM.value, now, session_param, position, who])
        row = cursor.fetchone()
    if row is None:
        return None
    n_item, n_session = len(items), len(sessions)
    item = items.instance(row[:n_item], connection)
    item.session = sessions.instance(row[n_item:n_item + n_session], connection)
    exam_id = row[-1]
    item.running_exam_id = None if exam_id is None else uuid.UUID(str(exam_id))
    attempt_row = row[n_item + n_session:-1]
    if attempt_row[0] is not None:
        item.attempt = attempts.instance(attempt_row, connection)
    else:
        item._state.fields_cache["attempt"] = None  # known to have no attempt: no query
    return item


# -- a session's counts ----------------------------------------------------------------------

def session_counts(session: QuizSession) -> tuple[int, int]:
    """Questions of ``session`` answered, and answered right (one plain query: it runs on
    every answer)."""
    connection = default_connection
    items, attempts = QuizItem._meta.db_table, Attempt._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT COUNT(a.id), COALESCE(SUM(CASE WHEN a.correct THEN 1 ELSE 0 END), 0) "
            f"FROM {items} i JOIN {attempts} a ON a.item_id = i.id WHERE i.session_id = %s",
            [session.pk.hex if connection.vendor == "sqlite" else session.pk])
        done, right = cursor.fetchone()
    return int(done), int(right)

