"""The table: its state and books in a database file, every change one transaction.

* :mod:`callbets.table.table`: :class:`Table`, what a croupier does to a table;
* :mod:`callbets.table.sqlite`: the SQLite file (opening, schema, who may write it);
* :mod:`callbets.table.chain`: the audit log's hash chain (tamper evidence).
"""

from __future__ import annotations

from ..errors import TableError
from .table import SpinReport, Table, default_path, money

__all__ = ["SpinReport", "Table", "TableError", "default_path", "money"]
