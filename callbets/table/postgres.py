"""Many tables in one PostgreSQL database (``psycopg`` 3, the ``postgresql`` extra).

A table is named by a URL with a ``table`` parameter::

    postgresql://croupier@db.casino/floor?table=T12

Every row carries its ``table_id``; each table numbers its own announcements and bets
(#1, #2, … as on an SQLite file) and keeps its own audit chain.  A writer holds
a transaction-scoped advisory lock on its table from its first statement to its commit,
so two terminals on one table take turns as they do on an SQLite file (one spin settled
once, no bet twice), while other tables go on at the same time.

The schema is made and migrated by ``callbets db upgrade URL`` (never implicitly: the
casino's database administrator decides when); its version is checked at every open.
"""

from __future__ import annotations

import re
import threading
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from ..errors import LocationError, OutcomeUnknown, TableError
from ..messages import HIDDEN, redacted, said
from .sqlite import SCHEMA_VERSION
from .store import Row, Store, pyformat

if TYPE_CHECKING:
    import psycopg

TABLE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
"""A table's name: ``T12``, ``roulette-3`` (it also names the console's files)."""

SCHEMA = [
    "CREATE TABLE callbets_schema (version integer NOT NULL)",
    "CREATE TABLE meta (table_id text NOT NULL, key text NOT NULL, value text NOT NULL,"
    " PRIMARY KEY (table_id, key))",
    # "rowid" keeps the order players sat down in, as SQLite's implicit rowid does
    "CREATE TABLE players (table_id text NOT NULL, name text NOT NULL,"
    " created text NOT NULL, rowid bigint GENERATED ALWAYS AS IDENTITY,"
    " PRIMARY KEY (table_id, name))",
    """CREATE TABLE announcements (
        table_id text NOT NULL,
        id bigint NOT NULL,
        player text NOT NULL,
        text text NOT NULL,
        lang text NOT NULL,
        notation text NOT NULL,
        total integer NOT NULL,
        round integer NOT NULL,
        status text NOT NULL
            CHECK (status IN ('pending', 'confirmed', 'cancelled', 'undone', 'cleared')),
        origin text,
        idem text,
        created text NOT NULL,
        PRIMARY KEY (table_id, id),
        FOREIGN KEY (table_id, player) REFERENCES players (table_id, name))""",
    "CREATE UNIQUE INDEX one_announcement_per_key ON announcements (table_id, idem)"
    " WHERE idem IS NOT NULL",
    "CREATE INDEX announcements_by_status ON announcements (table_id, status, round)",
    """CREATE TABLE bets (
        table_id text NOT NULL,
        id bigint NOT NULL,
        announcement bigint NOT NULL,
        call_index integer NOT NULL,
        call text NOT NULL,
        kind text NOT NULL,
        numbers text NOT NULL,
        amount integer NOT NULL CHECK (amount > 0),
        prison integer NOT NULL DEFAULT 0,
        round integer NOT NULL,
        status text NOT NULL CHECK (status IN ('open', 'settled', 'removed')),
        PRIMARY KEY (table_id, id),
        FOREIGN KEY (table_id, announcement) REFERENCES announcements (table_id, id))""",
    "CREATE INDEX open_bets ON bets (table_id, id) WHERE status = 'open'",
    """CREATE TABLE spins (
        table_id text NOT NULL,
        round integer NOT NULL,
        number integer NOT NULL CHECK (number BETWEEN 0 AND 36),
        created text NOT NULL,
        report text NOT NULL,
        PRIMARY KEY (table_id, round))""",
    """CREATE TABLE outcomes (
        table_id text NOT NULL,
        round integer NOT NULL,
        bet bigint NOT NULL,
        result text NOT NULL,
        paid text NOT NULL,
        returned text NOT NULL,
        PRIMARY KEY (table_id, round, bet),
        FOREIGN KEY (table_id, round) REFERENCES spins (table_id, round),
        FOREIGN KEY (table_id, bet) REFERENCES bets (table_id, id))""",
    "CREATE UNIQUE INDEX one_settlement_per_bet ON outcomes (table_id, bet)",
    """CREATE TABLE audit (
        table_id text NOT NULL,
        id bigint NOT NULL,
        ts text NOT NULL,
        kind text NOT NULL,
        payload text NOT NULL,
        hash text,
        PRIMARY KEY (table_id, id))""",
    """CREATE FUNCTION callbets_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $$""",
    "CREATE TRIGGER audit_no_change BEFORE UPDATE OR DELETE ON audit"
    " FOR EACH ROW EXECUTE FUNCTION callbets_audit_append_only()",
    "CREATE TRIGGER audit_no_truncate BEFORE TRUNCATE ON audit"
    " FOR EACH STATEMENT EXECUTE FUNCTION callbets_audit_append_only()",
]
"""Schema version 3 (the first on PostgreSQL; the same tables and columns as an SQLite
file of version 3, with ``table_id`` in every key)."""

MIGRATIONS: dict[int, list[str]] = {SCHEMA_VERSION: SCHEMA}
"""What brings the schema from the version before to each version."""

LOCK_WAIT_S = 5
"""How long a writer waits for its table before saying it is in use."""
HUNG_AFTER_S = 30
"""A transaction idle this long (a hung terminal) is ended by the server."""
LOCK = "SELECT pg_advisory_xact_lock(hashtextextended('callbets:' || :t, 0))"


def split_url(url: str) -> tuple[str, str, str]:
    """(connection URL for libpq, table id, label without the password).

    >>> split_url("postgresql://pit:secret@db/floor?table=T12&sslmode=require")
    ('postgresql://pit:secret@db/floor?sslmode=require', 'T12', 'postgresql://pit@db/floor?table=T12')

    :raises LocationError: a URL that cannot be read, or a table name that is not short
        plain text.
    """
    try:
        parts = urlsplit(url)
        port = parts.port
        query = parse_qsl(parts.query, keep_blank_values=True)
    except ValueError as err:  # "Invalid IPv6 URL", "Port out of range 0-65535"…
        raise LocationError(said("table_url", url=url_label(url), reason=err)) from None
    table = next((v for k, v in query if k == "table"), "")
    if table and not TABLE_ID.fullmatch(table):
        raise LocationError(said("table_name", name=table[:50], most=40))
    rest = urlencode([(k, v) for k, v in query if k != "table"])
    conn = urlunsplit(parts._replace(query=rest))
    host = parts.hostname or ""
    if ":" in host:  # an IPv6 address keeps its brackets
        host = f"[{host}]"
    netloc = f"{parts.username}@{host}" if parts.username else host
    if port:
        netloc += f":{port}"
    label = urlunsplit(parts._replace(netloc=netloc, query=f"table={table}" if table else ""))
    return conn, table, label


def url_label(url: str) -> str:
    """A URL to show, whatever it holds: its password hidden, cut to 120 characters."""
    return redacted(url if len(url) <= 120 else url[:119] + "…")


def _driver() -> Any:
    try:
        import psycopg  # optional dependency (the postgresql extra)
    except ImportError:
        raise TableError(
            "PostgreSQL tables need psycopg: pip install 'callbets[postgresql]'"
        ) from None
    return psycopg


def db_error(label: str, err: Exception) -> TableError:
    """A croupier's words for a PostgreSQL error."""
    psycopg = _driver()
    text = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    if isinstance(err, psycopg.errors.LockNotAvailable):
        return TableError(said("table_locked_terminal", location=label, seconds=LOCK_WAIT_S))
    if isinstance(err, psycopg.errors.ReadOnlySqlTransaction):
        return TableError(f"{label} was opened read-only")
    if isinstance(err, psycopg.errors.UndefinedTable):
        return TableError(f"{label}: no callbets schema there: run 'callbets db upgrade URL'")
    if isinstance(err, psycopg.errors.RaiseException):
        return TableError(f"{label}: {text}")
    if isinstance(err, psycopg.errors.InsufficientPrivilege):
        return TableError(said("db_permission", place=label, reason=text))
    if isinstance(err, psycopg.OperationalError):
        return TableError(f"cannot reach the database of {label} ({text})")
    return TableError(f"{label}: {text}")


class PostgresStore(Store):
    """A table kept in a PostgreSQL database shared with other tables."""

    backend = "postgresql"

    def __init__(
        self, url: str, conn: psycopg.Connection[Any], writable: bool, kept: bool = False
    ) -> None:
        _, self.table_id, self.label = split_url(url)
        self.url, self.conn, self.writable = url, conn, writable
        self._psycopg = _driver()
        self._depth = 0
        self._console = False
        self._console_lost = False
        """The console lock was lost with the connection and another console took the
        table meanwhile: nothing more is read or written through this store."""
        self._kept = kept
        """On a connection its thread keeps open (:func:`open_postgres`): never closed here."""
        self._finalizer = weakref.finalize(self, _left_open if kept else conn.close)
        """Like an sqlite3 connection, a store nobody closed closes when it is collected."""

    def _live(self) -> psycopg.Connection[Any]:
        """The connection; a new one when the last was lost (the server restarted, the
        network dropped) between two transactions: the action that met the loss failed
        with a clear error, the next one goes through."""
        if self._console_lost:  # told once is not enough: every action, until closed
            raise TableError(said("console_lock_lost", place=self.label))
        if self._depth == 0 and self.conn.broken:
            self._finalizer.detach()
            self.conn.close()
            self.conn, _, _ = connect(self.url, self.writable)
            self._finalizer = weakref.finalize(self, self.conn.close)
            if self._console and not self.hold_console(True):
                self._console, self._console_lost = False, True
                raise TableError(said("console_lock_lost", place=self.label))
        return self.conn

    def rows(self, sql: str, **params: Any) -> list[Row]:
        """Run one statement; its rows."""
        try:
            cur = self._live().execute(pyformat(sql), self.params(params))
            return cur.fetchall() if cur.description is not None else []
        except self._psycopg.Error as err:
            raise db_error(self.label, err) from None

    def many(self, sql: str, rows: Sequence[dict[str, Any]]) -> None:
        """Run one statement for each set of parameters."""
        if not rows:
            return
        try:
            with self._live().cursor() as cur:
                cur.executemany(pyformat(sql), [self.params(r) for r in rows])
        except self._psycopg.Error as err:
            raise db_error(self.label, err) from None

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """A transaction holding this table's advisory lock until it ends.

        :raises OutcomeUnknown: the connection was lost once the transaction had begun:
            if it went at the commit, the change may have been made or not (only the
            server knew, and it did not say).
        """
        try:
            with self._live().transaction():
                self._depth += 1
                try:
                    self.rows(LOCK)
                    yield
                finally:
                    self._depth -= 1
        except (self._psycopg.Error, TableError) as err:
            if self.conn.broken:
                lost = said("outcome_unknown", place=self.label)
                raise OutcomeUnknown(lost, self.label) from None
            if isinstance(err, TableError):
                raise
            raise db_error(self.label, err) from None

    @contextmanager
    def reading(self) -> Iterator[None]:
        """A repeatable-read transaction: one snapshot of the database for every read."""
        if self._depth:  # inside a writer's transaction: already one moment
            yield
            return
        try:
            with self._live().transaction():
                self._depth += 1
                try:
                    self.rows("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                    yield
                finally:
                    self._depth -= 1
        except self._psycopg.Error as err:
            raise db_error(self.label, err) from None

    def backup(self, target: Path) -> None:
        """Not here: a PostgreSQL database is copied with its own tools."""
        raise TableError(said("backup_postgres", location=self.label))

    def close(self) -> None:
        """Close the connection (one its thread keeps open is only let go of)."""
        if self._kept and self.conn is _kept_connections().get(split_url(self.url)[0]):
            if self.conn.info.transaction_status != self._psycopg.pq.TransactionStatus.IDLE:
                self.conn.rollback()
            return
        self.conn.close()

    def hold_console(self, hold: bool) -> bool:
        """Take (or let go) this table's console lock: a session advisory lock, which
        the server drops with the connection, however the console ends.  False when
        another console holds it."""
        fn = "pg_try_advisory_lock" if hold else "pg_advisory_unlock"
        got = bool(self.value(f"SELECT {fn}(hashtextextended('callbets-console:' || :t, 0))"))
        self._console = hold and got
        return got


def connect(url: str, write: bool) -> tuple[psycopg.Connection[Any], str, str]:
    """A connection (autocommit: each statement alone unless in a transaction), the table
    id and the label of a URL.

    :raises TableError: the server cannot be reached or refuses the login.
    """
    psycopg = _driver()
    conninfo, table_id, label = split_url(url)
    try:
        conn = psycopg.connect(conninfo, autocommit=True, connect_timeout=5,
                               application_name="callbets")  # fmt: skip
        # a busy table is said to be busy (as SQLite's 2 s timeout does), and a terminal
        # that hangs inside a transaction lets go of its table after half a minute
        conn.execute(f"SET lock_timeout = '{LOCK_WAIT_S}s'")
        conn.execute(f"SET idle_in_transaction_session_timeout = '{HUNG_AFTER_S}s'")
        if not write:
            conn.execute("SET default_transaction_read_only = on")
    except psycopg.ProgrammingError as err:  # libpq could not read the URL
        text = _without_secrets(str(err).strip().splitlines()[0], conninfo)
        raise LocationError(said("table_url", url=label, reason=text)) from None
    except psycopg.Error as err:
        raise db_error(label, err) from None
    return conn, table_id, label


def _without_secrets(text: str, url: str) -> str:
    """A driver's message with the URL's password taken out (libpq may quote a part of the
    URL it cannot read, which may be the password)."""
    parts = urlsplit(url)
    secrets = [parts.password or ""]
    secrets += [v for k, v in parse_qsl(parts.query, keep_blank_values=True) if k == "password"]
    for secret in filter(None, secrets):
        text = text.replace(secret, HIDDEN)
    return redacted(text)


def _version(conn: psycopg.Connection[Any], label: str) -> int:
    """The schema version of a database: 0 when it has no callbets schema yet.

    :raises TableError: tables of another application with our names.
    """
    known = conn.execute("SELECT to_regclass('callbets_schema') IS NOT NULL").fetchone()
    if not known or not known[0]:
        if conn.execute("SELECT to_regclass('audit') IS NOT NULL").fetchone() == (True,):
            raise TableError(f"{label}: this database holds other tables named like callbets'")
        return 0
    row = conn.execute("SELECT max(version) FROM callbets_schema").fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def _checked(url: str, write: bool, kept: bool = False) -> PostgresStore:
    conn, table_id, label = connect(url, write)
    if not table_id:
        conn.close()
        raise TableError(f"{label}: name the table in the URL (…?table=T12)")
    try:
        version = _version(conn, label)
    except _driver().Error as err:
        conn.close()
        raise db_error(label, err) from None
    if version != SCHEMA_VERSION:
        conn.close()
        if version > SCHEMA_VERSION:
            raise TableError(f"{label} was made by a newer callbets (schema {version}; "
                             f"this one knows {SCHEMA_VERSION}): upgrade callbets")  # fmt: skip
        raise TableError(f"{label}: the database's callbets schema is "
                         f"{'missing' if version == 0 else f'version {version}'}: "
                         "run 'callbets db upgrade URL' first")  # fmt: skip
    return PostgresStore(url, conn, write, kept)


_KEPT = threading.local()
"""Each thread's read-only connections kept open, by database (see :func:`open_postgres`)."""


class _Kept:
    """A thread's kept connections, closed when the thread ends (or at exit)."""

    def __init__(self) -> None:
        self.by_database: dict[str, psycopg.Connection[Any]] = {}
        weakref.finalize(self, _close_all, self.by_database)


def _close_all(connections: dict[str, psycopg.Connection[Any]]) -> None:
    for conn in connections.values():
        conn.close()


def _kept_connections() -> dict[str, psycopg.Connection[Any]]:
    if not hasattr(_KEPT, "kept"):
        _KEPT.kept = _Kept()
    kept: _Kept = _KEPT.kept
    return kept.by_database


def _left_open() -> None:
    """A kept connection outlives the stores that use it."""


def open_postgres(url: str, write: bool, kept: bool = False) -> PostgresStore:
    """Open a table in a PostgreSQL database.

    ``kept`` (read-only only): on a connection the calling thread keeps open for that
    database, made and checked the first time, made again once lost: a floor opens the
    same tables every few seconds, and each new connection costs the server a process.

    :raises TableError: unreachable, no schema or an old one, or no such table.
    """
    store = _kept_store(url) if kept and not write else _checked(url, write)
    if store.value("SELECT value FROM meta WHERE table_id = :t AND key = 'format'") is None:
        store.close()
        raise TableError(said("no_table_at", location=store.label))
    return store


def _kept_store(url: str) -> PostgresStore:
    """A read-only store on this thread's kept connection to the URL's database."""
    conninfo = split_url(url)[0]
    conns = _kept_connections()
    conn = conns.get(conninfo)
    if conn is not None and not conn.closed and not conn.broken:
        return PostgresStore(url, conn, False, kept=True)
    if conn is not None:  # lost (the server restarted): a new one
        conn.close()
    store = _checked(url, write=False, kept=True)
    conns[conninfo] = store.conn
    return store


def has_table(url: str) -> bool:
    """True when the database holds the table the URL names.

    :raises TableError: unreachable, or no schema (or an old one).
    """
    store = _checked(url, False)
    try:
        return store.value("SELECT 1 FROM meta WHERE table_id = :t LIMIT 1") is not None
    finally:
        store.close()


def create_postgres(url: str) -> PostgresStore:
    """The store of a new table in a PostgreSQL database whose schema is up to date.

    :raises TableError: the table exists, or as :func:`open_postgres`.
    """
    store = _checked(url, True)
    if store.value("SELECT 1 FROM meta WHERE table_id = :t LIMIT 1") is not None:
        store.close()
        raise TableError(f"{store.label} already exists: open it, or choose another name")
    return store


def upgrade_postgres(url: str) -> tuple[int, int]:
    """Create or migrate the callbets schema of a database, in one transaction, under a
    lock that keeps two upgrades from running at once; (version before, after).

    :raises TableError: unreachable, foreign tables, or a newer schema.
    """
    psycopg = _driver()
    conn, _, label = connect(url, True)
    try:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(hashtextextended('callbets:schema', 0))")
            before = _version(conn, label)
            if before > SCHEMA_VERSION:
                raise TableError(f"{label} was made by a newer callbets (schema {before})")
            for version in sorted(v for v in MIGRATIONS if v > before):
                for statement in MIGRATIONS[version]:
                    conn.execute(statement)
            if before < SCHEMA_VERSION:
                conn.execute("DELETE FROM callbets_schema")
                conn.execute("INSERT INTO callbets_schema VALUES (%s)", (SCHEMA_VERSION,))
    except psycopg.Error as err:
        raise db_error(label, err) from None
    finally:
        conn.close()
    return before, SCHEMA_VERSION


def table_ids(url: str) -> list[str]:
    """Every table in a PostgreSQL database, by name (for the floor view).

    :raises TableError: as :func:`open_postgres`.
    """
    conn, _, label = connect(url, False)
    try:
        if _version(conn, label) != SCHEMA_VERSION:
            raise TableError(f"{label}: run 'callbets db upgrade URL' first")
        rows = conn.execute(
            "SELECT table_id FROM meta WHERE key = 'format' ORDER BY table_id"
        ).fetchall()
    except _driver().Error as err:
        raise db_error(label, err) from None
    finally:
        conn.close()
    return [str(r[0]) for r in rows]
