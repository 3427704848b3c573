"""A partial index declared for SQLite and PostgreSQL alike, without loading SQLAlchemy's
PostgreSQL dialect until something reads its PostgreSQL option (issue 14: start-up stays cheap;
a SQLite ledger never imports that dialect, ``tests/cli/test_startup.py`` holds it)."""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from typing import Any

from sqlalchemy import ColumnElement, Index, TextClause

#: A partial index's condition: ``text(...)`` or a column expression.
Where = ColumnElement[bool] | TextClause


class _PostgresqlOnFirstRead(MutableMapping[str, Any]):
    """A partial index's ``dialect_options`` (dialect name -> its options): SQLAlchemy's own
    (``options``, filled as each dialect is read), but that PostgreSQL's get ``where`` on their
    first read (``postgresql_where``), and that PostgreSQL is always listed (so that
    ``dialect_kwargs`` and a copy of the table, ``Table.to_metadata``, have it; listing it loads
    the dialect)."""

    def __init__(self, options: MutableMapping[str, Any], where: Where) -> None:
        self._options = options
        self._where: Where | None = where

    def __getitem__(self, dialect: str) -> Any:
        options = self._options[dialect]  # SQLAlchemy's, made on the first read: loads it
        if dialect == "postgresql" and self._where is not None:
            options["where"], self._where = self._where, None
        return options

    def __setitem__(self, dialect: str, options: Any) -> None:
        self._options[dialect] = options

    def __delitem__(self, dialect: str) -> None:
        del self._options[dialect]

    def __contains__(self, dialect: object) -> bool:
        return dialect == "postgresql" or dialect in self._options

    def __iter__(self) -> Iterator[str]:
        yield from self._options
        if "postgresql" not in self._options:
            yield "postgresql"

    def __len__(self) -> int:
        return len(self._options) + ("postgresql" not in self._options)


class PartialIndex(Index):
    """An ``Index`` over the rows where ``where`` (``Where``) holds, on SQLite and on
    PostgreSQL alike: ``Index(name, *columns, sqlite_where=where, postgresql_where=where,
    **kw)``, read back the same (``dialect_options["postgresql"]["where"]``,
    ``dialect_kwargs["postgresql_where"]``, the PostgreSQL DDL). The PostgreSQL option is given
    when first read, not when the index is declared: giving it then imports SQLAlchemy's
    PostgreSQL dialect (to check the option's name), some 20 ms of the start-up of every command
    on a SQLite ledger, which never uses it. Raises as ``Index`` does."""

    def __init__(self, name: str, *columns: str, where: Where, **kw: Any) -> None:
        self._postgresql_where = where
        super().__init__(name, *columns, sqlite_where=where, **kw)

    @property
    def dialect_options(self) -> Any:
        """SQLAlchemy's ``dialect_options``, PostgreSQL's with ``where`` once read."""
        options = self.__dict__.get("_ledger_dialect_options")
        if options is None:
            options = _PostgresqlOnFirstRead(super().dialect_options, self._postgresql_where)
            self.__dict__["_ledger_dialect_options"] = options
        return options
