"""Who may see the floor, and who did: named tokens, and the access log.

* **Tokens.**  One token (``--token``, named ``token``), and/or a file of named tokens
  (``--tokens FILE``), one per line, ``NAME TOKEN``, ``#`` for comments: one per pit
  boss.  The file is read again whenever it changes, so a token is revoked by deleting
  its line, without restarting the floor.  A request carries its token as HTTP Bearer,
  or as the password of HTTP Basic (any user name); tokens are compared in constant time.
* **The access log.**  One line per request answered: when (UTC), who (the token's name,
  or ``-`` on a floor without tokens), the client's address, the method, the path and
  the status.  Appended to an owner-only file (or written to standard error).
"""

from __future__ import annotations

import base64
import binascii
import hmac
import os
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path

from ..errors import InputError


def presented(header: str) -> str | None:
    """The token an ``Authorization`` header carries: ``Bearer TOKEN``, or ``Basic`` with
    any user name and the token as password (None: neither)."""
    scheme, _, value = header.strip().partition(" ")
    given = value.strip()
    if scheme.lower() == "basic":
        try:
            return base64.b64decode(given, validate=True).decode("utf-8").partition(":")[2]
        except (binascii.Error, UnicodeDecodeError):
            return None
    return given if scheme.lower() == "bearer" else None


def read_tokens(path: Path) -> dict[str, str]:
    """A tokens file: {name: token}.

    :raises InputError: unreadable, or a line that is not ``NAME TOKEN``.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"{path}: {err}") from None
    tokens: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split()
        if len(fields) != 2:
            raise InputError(f"{path}, line {number}: write NAME TOKEN (two words)")
        tokens[fields[0]] = fields[1]
    return tokens


class Tokens:
    """The tokens a floor accepts, by name (none at all: a floor open to anyone who can
    reach it, as on 127.0.0.1 by default)."""

    def __init__(self, token: str = "", file: Path | None = None) -> None:
        """``token``: one unnamed token (named ``token``); ``file``: named tokens, read
        again whenever it changes.

        :raises InputError: the file cannot be read now.
        """
        self.single = {"token": token} if token else {}
        self.file = file
        self._seen: tuple[float, int] | None = None
        self._named: dict[str, str] = {}
        self._lock = threading.Lock()
        if file is not None:
            self._reload()

    def _reload(self) -> None:
        """Read the file again if it changed since it was read (a file that cannot be
        read now leaves no token valid: revoking by breaking it never widens access)."""
        assert self.file is not None
        try:
            stat = self.file.stat()
            seen = (stat.st_mtime, stat.st_size)
        except OSError:
            seen = None
        if seen is not None and seen == self._seen:
            return
        try:
            named = read_tokens(self.file) if seen is not None else {}
        except InputError:
            named = {}
        with self._lock:
            self._named, self._seen = named, seen

    @property
    def required(self) -> bool:
        """Whether a request must carry a token."""
        return bool(self.single) or self.file is not None

    def who(self, header: str) -> str | None:
        """The name of the token an ``Authorization`` header carries, or None."""
        given = presented(header)
        if given is None:
            return None
        if self.file is not None:
            self._reload()
        found = None
        for name, token in [*self.single.items(), *self._named.items()]:
            if hmac.compare_digest(given.encode("utf-8"), token.encode("utf-8")):
                found = name  # every token compared: the time says nothing of which
        return found


class AccessLog:
    """Appends one line per request answered (see the module docstring)."""

    def __init__(self, path: Path | None) -> None:
        """``path``: the log file (made owner-only), None for standard error.

        :raises InputError: the file cannot be opened for appending.
        """
        self.path = path
        self._lock = threading.Lock()
        if path is not None:
            flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
            try:
                os.close(os.open(path, flags, 0o600))
            except OSError as err:
                raise InputError(f"{path}: {err.strerror or err}") from None

    def write(self, who: str, client: str, method: str, path: str, status: int) -> None:
        """One request answered."""
        when = datetime.now(UTC).isoformat(timespec="milliseconds")
        shown = path.encode("unicode_escape").decode("ascii")[:300]
        line = f"{when} {who or '-'} {client or '-'} {method} {shown} {status}\n"
        with self._lock:
            if self.path is None:
                sys.stderr.write(line)
                return
            flags = os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
            try:
                fd = os.open(self.path, flags)
                with os.fdopen(fd, "a", encoding="utf-8") as f:
                    f.write(line)
            except OSError:
                sys.stderr.write(line)  # never lost: said where the floor was started
