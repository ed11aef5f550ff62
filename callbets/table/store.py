"""Where a table is kept: the small interface :class:`~callbets.table.Table` writes through.

A store runs the table's SQL: one text for every backend, written with named parameters
(``:name``), every row scoped by ``table_id = :t`` (the store fills ``:t`` in), so that one
PostgreSQL database can hold all the casino's tables while an SQLite file holds one.  What
differs between backends stays in the backend: how a connection is opened and checked,
how a writer gets the table to itself for one transaction, how a driver error is said to
a croupier, and how a consistent copy is made.

* :mod:`callbets.table.sqlite`: one table per file (the default, nothing to install);
* :mod:`callbets.table.postgres`: many tables in one PostgreSQL database (``psycopg``);
* :mod:`callbets.table.locations`: which of them a location (a path or a URL) leads to.

>>> is_url("postgresql://pit@db.casino/floor?table=T12"), is_url("evening.sqlite")
(True, False)
"""

from __future__ import annotations

import functools
import re
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

URL_SCHEMES = ("postgresql://", "postgres://")
"""A table location starting with one of these is a PostgreSQL table."""

_PARAM = re.compile(r"(?<![:\w]):([a-z_][a-z0-9_]*)")

Row = tuple[Any, ...]


def is_url(location: str | Path) -> bool:
    """True for a PostgreSQL URL, False for an SQLite file's path."""
    return isinstance(location, str) and location[:13].lower().startswith(URL_SCHEMES)


@functools.cache  # the statements are the table's constants: each is rewritten once
def pyformat(sql: str) -> str:
    """Named parameters ``:name`` as ``%(name)s`` (psycopg's style).

    >>> pyformat("SELECT 1 FROM meta WHERE table_id = :t AND key = :key")
    'SELECT 1 FROM meta WHERE table_id = %(t)s AND key = %(key)s'
    """
    return _PARAM.sub(r"%(\1)s", sql)


class Store(ABC):
    """A table's storage: its SQL, its transactions, its copy.  Errors of the driver come
    out as :class:`~callbets.errors.TableError`, in a croupier's words."""

    label: str
    """Where the table is, for messages (a path, or a URL without its password)."""
    table_id: str
    """The table's name in a database of many (empty for an SQLite file)."""
    writable: bool
    """False when opened read-only."""
    backend: str
    """``sqlite`` or ``postgresql``."""

    def params(self, params: dict[str, Any]) -> dict[str, Any]:
        """The parameters of a statement, with the table's id as ``:t``."""
        return {"t": self.table_id, **params}

    @abstractmethod
    def rows(self, sql: str, **params: Any) -> list[Row]:
        """Run one statement; its rows (empty for a statement that returns none)."""

    def one(self, sql: str, **params: Any) -> Row | None:
        """The first row of a statement, or None."""
        found = self.rows(sql, **params)
        return found[0] if found else None

    def value(self, sql: str, **params: Any) -> Any:
        """The first column of the first row (a count, an id)."""
        row = self.one(sql, **params)
        return None if row is None else row[0]

    @abstractmethod
    def many(self, sql: str, rows: Sequence[dict[str, Any]]) -> None:
        """Run one statement for each set of parameters."""

    @abstractmethod
    def transaction(self) -> AbstractContextManager[None]:
        """One transaction that has the table to itself: no other writer of this table
        runs between its first read and its commit; an exception rolls it back."""

    @abstractmethod
    def reading(self) -> AbstractContextManager[None]:
        """Reads that see one moment of the table: what other terminals commit meanwhile
        is not seen (a proof reads the state and the audit of the same moment)."""

    @abstractmethod
    def backup(self, target: Path) -> None:
        """A consistent copy of the live table in a new file.

        :raises TableError: the target exists, or this backend copies otherwise.
        """

    @abstractmethod
    def close(self) -> None:
        """Close the connection."""

    def audit_rows(self) -> Iterator[Row]:
        """The audit log, oldest first: (seq, ts, kind, payload, hash)."""
        yield from self.rows(
            "SELECT id, ts, kind, payload, hash FROM audit WHERE table_id = :t ORDER BY id"
        )
