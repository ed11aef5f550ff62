"""The table: its state and books in a database, every change one transaction.

* :mod:`callbets.table.table`: :class:`Table`, what a croupier does to a table, one
  module per concern (:mod:`~callbets.table.core`, :mod:`~callbets.table.betting`,
  :mod:`~callbets.table.spins`, :mod:`~callbets.table.replays`);
* :mod:`callbets.table.store`: the small interface a table is kept through;
* :mod:`callbets.table.locations`: where a table's location (a path or a URL) leads;
* :mod:`callbets.table.sqlite`: one table per SQLite file (the default; opening, schema,
  who may write it);
* :mod:`callbets.table.postgres`: many tables in one PostgreSQL database;
* :mod:`callbets.table.chain`: the audit log's hash chain (tamper evidence);
* :mod:`callbets.table.books`: the books checked again (``callbets table verify``);
* :mod:`callbets.table.proof`: the state proved by replaying the audit;
* :mod:`callbets.table.anchor`: heads of audit chains kept outside the table;
* :mod:`callbets.table.rows`: the rows read back as the game's bets;
* :mod:`callbets.table.floor`: every table of a casino read at once (``callbets floor``).
"""

from __future__ import annotations

from ..errors import TableError
from .anchor import kept_heads, record_head
from .chain import Head
from .locations import exists, location_of
from .store import is_url
from .table import SpinReport, Table, default_path, money

__all__ = [
    "Head",
    "SpinReport",
    "Table",
    "TableError",
    "default_path",
    "exists",
    "is_url",
    "kept_heads",
    "location_of",
    "money",
    "record_head",
]
