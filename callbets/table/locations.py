"""Where a table's location leads: a PostgreSQL URL to :mod:`callbets.table.postgres`,
any other location to an SQLite file (:mod:`callbets.table.sqlite`).  The Table and the
commands open, create and upgrade tables through here; the store interface below knows
no backend.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import LocationError
from ..messages import redacted, said
from .postgres import create_postgres, has_table, open_postgres, upgrade_postgres
from .sqlite import create_sqlite, open_sqlite, upgrade_sqlite
from .store import Store, is_url


def location_of(given: str | None, default: str | Path) -> str | Path:
    """A table's location from a command line: a URL as it is, else a path."""
    if not given:
        return default
    return given if is_url(given) else Path(given)


CONNINFO = re.compile(r"(?:^|\s)(?:host|hostaddr|dbname|user|password|port|sslmode)\s*=")
"""A libpq key/value connection string (``host=db dbname=floor``), which callbets does
not read: a table in a database is named by a URL."""


def _file(location: str | Path) -> Path:
    """An SQLite table's path; never a connection string taken for one (it would be made
    into a file named after it, password and all).

    :raises LocationError: a key/value connection string.
    """
    if CONNINFO.search(Path(location).name):
        raise LocationError(said("table_conninfo", location=redacted(str(location))))
    return Path(location)


def exists(location: str | Path) -> bool:
    """True when a table is there (a file, or a table of that name in the database).

    :raises TableError: the database cannot be reached or its schema is not up to date.
    """
    if not is_url(location):
        return _file(location).exists()
    return has_table(str(location))


def open_store(
    location: str | Path, write: bool, checked: bool = True, kept: bool = False
) -> Store:
    """Open the store of an existing table: a PostgreSQL URL, or an SQLite file
    (``checked`` and ``kept``: see :meth:`callbets.table.Table.open`).

    :raises TableError: no such table, not a callbets table, damaged, locked, or a schema
        that ``callbets db upgrade`` must bring up to date first.
    """
    if is_url(location):
        return open_postgres(str(location), write, kept)
    return open_sqlite(_file(location), write, checked)


def create_store(location: str | Path) -> Store:
    """The store of a new, empty table (the schema is there, no rows yet).

    :raises TableError: a table is already there, or it cannot be made.
    """
    if is_url(location):
        return create_postgres(str(location))
    return create_sqlite(_file(location))


def upgrade(location: str | Path) -> tuple[int, int]:
    """Create or migrate the schema at a location; (version before, version after).

    :raises TableError: not a callbets database, or a newer schema than this callbets.
    """
    if is_url(location):
        return upgrade_postgres(str(location))
    return upgrade_sqlite(_file(location))
