"""One console per table file: a second one is refused with who holds the table.

Two consoles on one table would each show a status bar and readbacks read before the
other's changes; rather than a table that looks different on two screens, the second
console is refused.  The lock is an advisory ``flock`` on ``FILE.console``: the system
releases it when the console ends, however it ends (even killed), so a crash never
leaves a table locked.  Scripts (``callbets table``) are not locked out: every one of
their actions is its own transaction.
"""

from __future__ import annotations

import fcntl
import os
import socket
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from ..errors import TableError


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
