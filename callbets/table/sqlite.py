"""The table's SQLite file: its schema, how it is created and opened, and who may write it.

* A table file is recognised by its SQLite ``application_id`` (or, for files made before
  it was set, by its ``meta`` header), checked on a read-only connection **before any
  write**: another application's database is never touched, a 0-byte file is never made
  into a table.
* Reading commands open the file read-only; writing ones open it read-write in WAL mode
  with ``synchronous=FULL``, after SQLite's quick integrity check.
* A new file is created readable and writable by its owner only (0600), in a folder
  that must already exist.
* Files made by an earlier version are brought up to date when opened for writing (the
  audit chain, idempotency keys), in one transaction.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from urllib.parse import quote

from ..errors import TableError
from .chain import GENESIS, audit_key, row_hash

APPLICATION_ID = 0x43424554
"""``PRAGMA application_id`` of a callbets table ("CBET")."""
SCHEMA_VERSION = 2
"""``PRAGMA user_version``: 1 had no audit chain nor idempotency keys."""
SQLITE_HEADER = b"SQLite format 3\x00"

TRIGGERS = (
    "CREATE TRIGGER IF NOT EXISTS audit_no_update BEFORE UPDATE ON audit"
    " BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END",
    "CREATE TRIGGER IF NOT EXISTS audit_no_delete BEFORE DELETE ON audit"
    " BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END",
)
"""The audit log refuses updates and deletions (its hash chain shows any that get round)."""

FORMAT = "callbets-table-1"

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE players (name TEXT PRIMARY KEY, created TEXT NOT NULL);
CREATE TABLE announcements (
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
CREATE INDEX open_bets ON bets(id) WHERE status = 'open';
CREATE TABLE spins (
    round INTEGER PRIMARY KEY,
    number INTEGER NOT NULL CHECK (number BETWEEN 0 AND 36),
    created TEXT NOT NULL,
    report TEXT NOT NULL
);
CREATE TABLE outcomes (
    round INTEGER NOT NULL REFERENCES spins(round),
    bet INTEGER NOT NULL REFERENCES bets(id),
    result TEXT NOT NULL,
    paid TEXT NOT NULL,
    returned TEXT NOT NULL,
    PRIMARY KEY (round, bet)
);
CREATE UNIQUE INDEX one_settlement_per_bet ON outcomes(bet);
CREATE TABLE audit (
    id INTEGER PRIMARY KEY,
    ts TEXT NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    hash TEXT
);
""" + "".join(f"{t};\n" for t in TRIGGERS)


def db_error(path: Path, err: sqlite3.Error) -> TableError:
    """A croupier's words for an SQLite error."""
    text = str(err)
    if "locked" in text or "busy" in text:
        return TableError(f"{path} is in use by another program (the database is locked)")
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


def create_db(path: Path) -> sqlite3.Connection:
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
    return db


def open_db(path: Path, write: bool) -> sqlite3.Connection:
    """Open an existing table file, checked before anything is written to it.

    :raises TableError: no such file, not a callbets table, damaged, or locked.
    """
    if not path.is_file():
        raise TableError(f"no table at {path}: open one with 'callbets table open'")
    with open(path, "rb") as f:
        if f.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
            raise TableError(f"{path} is not a callbets table")
    try:
        ro = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True,
                             isolation_level=None, timeout=2.0)  # fmt: skip
        version = _recognise(ro, path)
        check = ro.execute("PRAGMA quick_check").fetchone()
        if check is None or check[0] != "ok":
            said = check[0] if check else "?"
            raise TableError(f"{path} is damaged (SQLite quick check: {said})")
    except sqlite3.Error as err:
        raise db_error(path, err) from None
    if not write:
        return ro
    ro.close()
    try:
        db = _writable(path)
        if version < SCHEMA_VERSION:
            _upgrade(db)
    except sqlite3.Error as err:
        raise db_error(path, err) from None
    return db


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


def _upgrade(db: sqlite3.Connection) -> None:
    """Version 1 to 2: chain the existing audit rows, add idempotency keys."""
    db.execute("BEGIN IMMEDIATE")
    try:
        columns = {r[1] for r in db.execute("PRAGMA table_info(audit)")}
        if "hash" not in columns:
            db.execute("ALTER TABLE audit ADD COLUMN hash TEXT")
        if "idem" not in {r[1] for r in db.execute("PRAGMA table_info(announcements)")}:
            db.execute("ALTER TABLE announcements ADD COLUMN idem TEXT")
            db.execute(
                "CREATE UNIQUE INDEX one_announcement_per_key ON announcements(idem)"
                " WHERE idem IS NOT NULL"
            )
        db.execute("DROP TRIGGER IF EXISTS audit_no_update")
        db.execute("DROP TRIGGER IF EXISTS audit_no_delete")
        previous, key = GENESIS, audit_key()
        rows = db.execute("SELECT id, ts, kind, payload FROM audit ORDER BY id").fetchall()
        for seq, ts, kind, payload in rows:
            previous = row_hash(previous, seq, ts, kind, payload, key)
            db.execute("UPDATE audit SET hash = ? WHERE id = ?", (previous, seq))
        for trigger in TRIGGERS:
            db.execute(trigger)
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
