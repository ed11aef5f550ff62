"""One console per table file: a second one is refused with who holds the table.

Two consoles on one table would each show a status bar and readbacks read before the
other's changes; rather than a table that looks different on two screens, the second
console is refused.  The lock is an advisory ``flock`` on ``FILE.console``: the system
releases it when the console ends, however it ends (even killed), so a crash never
leaves a table locked.  Scripts (``callbets table``) are not locked out: every one of
their actions is its own transaction.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import socket
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING

from ..errors import TableError

if TYPE_CHECKING:
    from ..table.postgres import PostgresStore


class ConsoleLock:
    """Hold the console lock of a table file for as long as the console runs."""

    def __init__(self, table: Path) -> None:
        self.path = Path(f"{table}.console")
        self._file: IO[str] | None = None

    def acquire(self) -> ConsoleLock:
        """Take the lock.

        :raises TableError: another console holds it (says which) or it cannot be made.
        """
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as err:
            raise TableError(f"cannot lock {self.path}: {err.strerror}") from None
        f = os.fdopen(fd, "r+", encoding="utf-8")
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = f.read().strip() or "another process"
            f.close()
            raise TableError(
                f"this table is already open in a console ({holder}); close that one "
                "first (two consoles on one table would show different tables)"
            ) from None
        f.seek(0)
        f.truncate()
        since = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        f.write(f"pid {os.getpid()} on {socket.gethostname()} since {since}")
        f.flush()
        self._file = f
        return self

    def release(self) -> None:
        """Let the lock go (the system does it too when the process ends)."""
        if self._file is not None:
            self._file.close()
            self._file = None


class DatabaseConsoleLock:
    """The console lock of a table in a PostgreSQL database: the server holds it for the
    console's connection, across every terminal of the casino, and drops it with the
    connection."""

    def __init__(self, store: PostgresStore) -> None:
        self.store = store

    def acquire(self) -> DatabaseConsoleLock:
        """Take the lock.

        :raises TableError: another console, on any terminal, holds it.
        """
        if not self.store.hold_console(True):
            raise TableError(
                f"{self.store.label} is already open in a console on another terminal; "
                "close that one first (two consoles on one table would show different tables)"
            )
        return self

    def release(self) -> None:
        """Let the lock go (the server does it too when the connection ends, so a
        connection already lost or closed has nothing left to let go)."""
        if self.store.conn.closed or self.store.conn.broken:
            return
        with contextlib.suppress(TableError):
            self.store.hold_console(False)
