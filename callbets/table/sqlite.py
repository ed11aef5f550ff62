"""The table's SQLite file (the default store): its schema, how it is created and opened,
and who may write it.

* A table file is recognised by its SQLite ``application_id`` (or, for files made before
  it was set, by its ``meta`` header), checked on a read-only connection **before any
  write**: another application's database is never touched, a 0-byte file is never made
  into a table.
* Reading commands open the file read-only; writing ones open it read-write in WAL mode
  with ``synchronous=FULL``, after SQLite's quick integrity check.
* A new file is created readable and writable by its owner only (0600), in a folder
  that must already exist.
* Files made by an earlier version are brought up to date only by ``callbets db upgrade
  FILE`` (the audit chain, idempotency keys, the ``table_id`` column the SQL of every
  backend names), in one transaction, recorded in the audit; an ordinary command refuses
  to write to them.  The upgrade chains audit rows only in a file made before the chain
  (no ``hash`` column, no identity): a row without a hash in a chained file was written
  behind callbets' back, and is refused, never signed.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..errors import LocationError, TableError
from ..messages import said
from .chain import genesis, row_hash, table_key
from .core import terminal, timestamp
from .store import Row, Store

APPLICATION_ID = 0x43424554
"""``PRAGMA application_id`` of a callbets table ("CBET")."""
SCHEMA_VERSION = 3
"""``PRAGMA user_version``: 1 had no audit chain nor idempotency keys, 2 no ``table_id``."""
TABLES = ("meta", "players", "announcements", "bets", "spins", "outcomes", "audit")
SCOPE = "table_id TEXT NOT NULL DEFAULT ''"
"""Every row's table; one file holds one table, so it is always empty here."""
SCOPED_INDEXES = (
    "CREATE UNIQUE INDEX IF NOT EXISTS announcements_by_table ON announcements(table_id, id)",
    "CREATE UNIQUE INDEX IF NOT EXISTS bets_by_table ON bets(table_id, id)",
    "CREATE INDEX IF NOT EXISTS open_bets ON bets(table_id, id) WHERE status = 'open'",
    "CREATE INDEX IF NOT EXISTS announcements_by_status ON announcements(table_id, status, round)",
)
"""A new announcement or bet is numbered from the table's highest number so far; the bets
on the layout and the announcements waiting are found without reading the evening's
history (every query names ``table_id``, so every index starts with it)."""
SQLITE_HEADER = b"SQLite format 3\x00"

TRIGGERS = (
    "CREATE TRIGGER IF NOT EXISTS audit_no_update BEFORE UPDATE ON audit"
    " BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END",
    "CREATE TRIGGER IF NOT EXISTS audit_no_delete BEFORE DELETE ON audit"
    " BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END",
)
"""The audit log refuses updates and deletions (its hash chain shows any that get round)."""

FORMAT = "callbets-table-1"

SCHEMA = f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL, {SCOPE});
CREATE TABLE players (name TEXT PRIMARY KEY, created TEXT NOT NULL, {SCOPE});
CREATE TABLE announcements (
    {SCOPE},
    id INTEGER PRIMARY KEY,
    player TEXT NOT NULL REFERENCES players(name),
    text TEXT NOT NULL,
    lang TEXT NOT NULL,
    notation TEXT NOT NULL,
    total INTEGER NOT NULL,
    round INTEGER NOT NULL,
    status TEXT NOT NULL
        CHECK (status IN ('pending', 'confirmed', 'cancelled', 'undone', 'cleared')),
    origin TEXT,
    idem TEXT,
    created TEXT NOT NULL
);
CREATE UNIQUE INDEX one_announcement_per_key ON announcements(idem) WHERE idem IS NOT NULL;
CREATE TABLE bets (
    {SCOPE},
    id INTEGER PRIMARY KEY,
    announcement INTEGER NOT NULL REFERENCES announcements(id),
    call_index INTEGER NOT NULL,
    call TEXT NOT NULL,
    kind TEXT NOT NULL,
    numbers TEXT NOT NULL,
    amount INTEGER NOT NULL CHECK (amount > 0),
    prison INTEGER NOT NULL DEFAULT 0,
    round INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('open', 'settled', 'removed'))
);
CREATE TABLE spins (
    {SCOPE},
    round INTEGER PRIMARY KEY,
    number INTEGER NOT NULL CHECK (number BETWEEN 0 AND 36),
    created TEXT NOT NULL,
    report TEXT NOT NULL
);
CREATE TABLE outcomes (
    {SCOPE},
    round INTEGER NOT NULL REFERENCES spins(round),
    bet INTEGER NOT NULL REFERENCES bets(id),
    result TEXT NOT NULL,
    paid TEXT NOT NULL,
    returned TEXT NOT NULL,
    PRIMARY KEY (round, bet)
);
CREATE UNIQUE INDEX one_settlement_per_bet ON outcomes(bet);
CREATE TABLE audit (
    {SCOPE},
    id INTEGER PRIMARY KEY,
    ts TEXT NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    hash TEXT
);
""" + "".join(f"{t};\n" for t in (*TRIGGERS, *SCOPED_INDEXES))


def db_error(path: Path, err: sqlite3.Error) -> TableError:
    """A croupier's words for an SQLite error."""
    text = str(err)
    if "locked" in text or "busy" in text:
        return TableError(said("table_locked_file", location=path))
    if "readonly" in text or "read-only" in text:
        return TableError(f"{path} cannot be written (read-only file or folder)")
    if any(k in text for k in ("not a database", "malformed", "encrypted", "no such table")):
        return TableError(f"{path} is not a callbets table, or it is damaged ({text})")
    return TableError(f"{path}: {text}")


def new_private_file(path: Path, exists: str) -> None:
    """Make an empty file readable and writable by its owner only; never an existing one.

    :raises TableError: ``exists`` when the file is there, or why it cannot be made.
    """
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        raise TableError(exists) from None
    except OSError as err:
        raise TableError(f"cannot create {path}: {err.strerror}") from None
    os.close(fd)


class SqliteStore(Store):
    """A table kept in one SQLite file (WAL, ``synchronous=FULL``)."""

    backend = "sqlite"

    def __init__(self, db: sqlite3.Connection, path: Path, writable: bool) -> None:
        self.db, self.path, self.writable = db, path, writable
        self.label, self.table_id = str(path), ""

    def rows(self, sql: str, **params: Any) -> list[Row]:
        """Run one statement; its rows."""
        try:
            return self.db.execute(sql, self.params(params)).fetchall()
        except sqlite3.Error as err:
            raise db_error(self.path, err) from None

    def many(self, sql: str, rows: Sequence[dict[str, Any]]) -> None:
        """Run one statement for each set of parameters."""
        try:
            self.db.executemany(sql, [self.params(r) for r in rows])
        except sqlite3.Error as err:
            raise db_error(self.path, err) from None

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``: SQLite lets one writer in at a time."""
        self._run("BEGIN IMMEDIATE")
        try:
            yield
            self._run("COMMIT")
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise

    @contextmanager
    def reading(self) -> Iterator[None]:
        """A read transaction: SQLite keeps its snapshot of the file until it ends."""
        if self.db.in_transaction:  # inside a writer's transaction: already one moment
            yield
            return
        self._run("BEGIN")
        try:
            yield
        finally:
            if self.db.in_transaction:
                self.db.execute("COMMIT")

    def _run(self, statement: str) -> None:
        try:
            self.db.execute(statement)
        except sqlite3.Error as err:
            raise db_error(self.path, err) from None

    def backup(self, target: Path) -> None:
        """SQLite's online backup: unlike a plain copy of the file, it includes what is
        still in the write-ahead log."""
        new_private_file(target, said("backup_exists", file=target))
        copy = sqlite3.connect(target)
        try:
            self.db.backup(copy)
        except sqlite3.Error as err:
            copy.close()
            target.unlink(missing_ok=True)
            raise db_error(self.path, err) from None
        copy.close()

    def close(self) -> None:
        """Close the file."""
        self.db.close()


def create_sqlite(path: Path) -> SqliteStore:
    """A new, empty table file (schema only), owner-only, in an existing folder.

    :raises TableError: the file exists, or the folder does not.
    """
    if not path.parent.is_dir():
        raise TableError(f"no folder {path.parent}: create it first")
    new_private_file(path, f"{path} already exists: open it, or choose another file")
    try:
        db = _writable(path)
        db.executescript(SCHEMA)
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except sqlite3.Error as err:
        raise db_error(path, err) from None
    return SqliteStore(db, path, True)


def open_sqlite(path: Path, write: bool, checked: bool = True) -> SqliteStore:
    """Open an existing table file, checked before anything is written to it.

    :raises TableError: no such file, not a callbets table, damaged, locked, made by a
        newer callbets, or (to write) by an earlier one: ``callbets db upgrade`` first.
    """
    ro, version = _checked(path, quick=checked or write)
    if not write:
        return SqliteStore(ro, path, False)
    ro.close()
    if version < SCHEMA_VERSION:
        raise TableError(said("table_needs_upgrade", location=path, version=version))
    try:
        db = _writable(path)
    except sqlite3.Error as err:
        raise db_error(path, err) from None
    return SqliteStore(db, path, True)


def upgrade_sqlite(path: Path) -> tuple[int, int]:
    """Bring a table file's schema up to date, and record it in its audit; (version
    before, version after).

    :raises TableError: as :func:`open_sqlite`; audit rows without a hash in a file whose
        chain had begun (tampering: nothing is upgraded).
    :raises AuditKeyError: a keyed table, and its key is not set.
    """
    ro, version = _checked(path)
    ro.close()
    if version < SCHEMA_VERSION:
        try:
            db = _writable(path)
            try:
                _upgrade(db, path, version)
            finally:
                db.close()
        except sqlite3.Error as err:
            raise db_error(path, err) from None
    return version, SCHEMA_VERSION


def _checked(path: Path, quick: bool = True) -> tuple[sqlite3.Connection, int]:
    """A read-only connection to a table file and its schema version, after SQLite's
    quick check (``quick``); nothing is written."""
    if not path.is_file():
        if path.exists():  # a folder, a device, a pipe: bad input, not a missing table
            raise LocationError(said("table_not_a_file", path=path))
        raise TableError(said("no_table_at", location=path))
    with open(path, "rb") as f:
        if f.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
            raise TableError(f"{path} is not a callbets table")
    try:
        ro = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True,
                             isolation_level=None, timeout=2.0)  # fmt: skip
        version = _recognise(ro, path)
        check = ro.execute("PRAGMA quick_check").fetchone() if quick else ("ok",)
        if check is None or check[0] != "ok":
            found = check[0] if check else "?"
            raise TableError(f"{path} is damaged (SQLite quick check: {found})")
    except sqlite3.Error as err:
        raise db_error(path, err) from None
    if version > SCHEMA_VERSION:
        raise TableError(
            f"{path} was made by a newer callbets (schema {version}; this one knows "
            f"{SCHEMA_VERSION}): upgrade callbets"
        )
    return ro, version


def _recognise(db: sqlite3.Connection, path: Path) -> int:
    """The schema version of a callbets table; refuses any other file."""
    app = db.execute("PRAGMA application_id").fetchone()[0]
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if app == APPLICATION_ID:
        return version
    if app == 0:  # made before the application id was set: its header says
        found = db.execute(
            "SELECT value FROM sqlite_master m, meta WHERE m.name = 'meta' AND key = 'format'"
        ).fetchone()
        if found is not None and found[0] == FORMAT:
            return 1
    raise TableError(f"{path} is not a callbets table")


def _writable(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, timeout=2.0)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")
    return db


def _columns(db: sqlite3.Connection, table: str) -> set[str]:
    return {r[1] for r in db.execute(f"PRAGMA table_info({table})")}


def _upgrade(db: sqlite3.Connection, path: Path, version: int) -> None:
    """From ``version`` to the current one, in one transaction: chain the audit rows of a
    file made before the chain, add idempotency keys and the ``table_id`` column, and
    write an ``upgrade`` row to the audit (how many rows it chained, which it did not
    see written)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        chained_before = "hash" in _columns(db, "audit")
        header = dict(db.execute("SELECT key, value FROM meta").fetchall())
        key = table_key(header.get("uid"), header.get("key_check"))
        _add_columns(db)
        rows = db.execute("SELECT id, ts, kind, payload, hash FROM audit ORDER BY id").fetchall()
        unhashed = [seq for seq, _ts, _kind, _payload, stored in rows if stored is None]
        if unhashed and (chained_before or header.get("uid") or header.get("key_check")):
            shown = ", ".join(map(str, unhashed[:10])) + (" …" if len(unhashed) > 10 else "")
            raise TableError(said("upgrade_unhashed", location=path, rows=shown))
        previous = genesis(header.get("uid"))
        for seq, ts, kind, payload, stored in rows:  # a file from before the chain
            if stored is None:
                stored = row_hash(previous, seq, ts, kind, payload, key)
                db.execute("UPDATE audit SET hash = ? WHERE id = ?", (stored, seq))
            previous = stored
        seq, ts = (rows[-1][0] + 1 if rows else 1), timestamp()
        payload = json.dumps({"from": version, "to": SCHEMA_VERSION, "chained": len(unhashed),
                              "by": {"terminal": terminal()}})  # fmt: skip
        db.execute("INSERT INTO audit (id, ts, kind, payload, hash) VALUES (?, ?, ?, ?, ?)",
                   (seq, ts, "upgrade", payload,
                    row_hash(previous, seq, ts, "upgrade", payload, key)))  # fmt: skip
        for trigger in TRIGGERS:
            db.execute(trigger)
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def _add_columns(db: sqlite3.Connection) -> None:
    """The columns, indexes and triggers versions 1 and 2 lack (the triggers dropped
    while the hashes are written)."""
    if "hash" not in _columns(db, "audit"):
        db.execute("ALTER TABLE audit ADD COLUMN hash TEXT")
    if "idem" not in _columns(db, "announcements"):
        db.execute("ALTER TABLE announcements ADD COLUMN idem TEXT")
        db.execute(
            "CREATE UNIQUE INDEX one_announcement_per_key ON announcements(idem)"
            " WHERE idem IS NOT NULL"
        )
    for table in TABLES:
        if "table_id" not in _columns(db, table):
            db.execute(f"ALTER TABLE {table} ADD COLUMN {SCOPE}")
    db.execute("DROP INDEX IF EXISTS open_bets")  # version 2's, without table_id
    for index in SCOPED_INDEXES:
        db.execute(index)
    db.execute("DROP TRIGGER IF EXISTS audit_no_update")
    db.execute("DROP TRIGGER IF EXISTS audit_no_delete")
