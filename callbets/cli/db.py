"""``callbets db …``: the schema of where tables are kept (a PostgreSQL database, or an
SQLite table file)."""

from __future__ import annotations

import argparse
from typing import Any

from ..table.locations import upgrade
from .options import EXIT_OK


def cmd_db(args: argparse.Namespace) -> int:
    """``callbets db upgrade LOCATION``: create or migrate the schema."""
    before, after = upgrade(args.location)
    if before == after:
        print(f"schema {after}: already up to date")
    elif before == 0:
        print(f"schema {after} created")
    else:
        print(f"schema {before} upgraded to {after}")
    return EXIT_OK


def add_commands(sub: Any) -> None:
    """Register ``db``."""
    p = sub.add_parser(
        "db",
        help="create or migrate the schema of a PostgreSQL database (or an SQLite table file)",
        description="A PostgreSQL database is made ready for the casino's tables once, and "
        "again after each callbets upgrade that changes its schema; callbets checks the "
        "schema version every time it opens a table and says when this is needed.  "
        "An SQLite table file of an earlier version is refused for writing until this "
        "brings it up to date (set the audit key for a keyed table): the upgrade is "
        "recorded in its audit, and rows without a hash are chained only in a file made "
        "before the chain (elsewhere they are tampering, and refused).",
        epilog="example: callbets db upgrade postgresql://pit@db.casino/floor",
    )
    p.add_argument("action", choices=["upgrade"], help="upgrade: create or migrate the schema")
    p.add_argument("location", metavar="URL|FILE",
                   help="postgresql://USER@HOST/DATABASE, or a table file")  # fmt: skip
    p.set_defaults(run=cmd_db)
