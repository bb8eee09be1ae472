"""Plain SQL for the two statements every answer runs: reading the item with its session
and attempt (one join), and inserting the attempt. The ORM compiles each query afresh on
every call (a quarter of a millisecond for an INSERT, and on SQLite that compile happens
inside the write transaction, while the database lock is held); these build their SQL
once per model and database and convert values exactly as the ORM does."""

from __future__ import annotations

from typing import Any

from django.db import connections


class RowReader:
    """How to read one model's columns out of a raw row, as the ORM's compiler would:
    the columns to select, the attribute names, each field's converters. Built once per
    model and database connection (the converters depend on the backend)."""

    def __init__(self, model: Any, connection: Any, table_alias: str) -> None:
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

    def instance(self, values: tuple[Any, ...], connection: Any) -> Any:
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
