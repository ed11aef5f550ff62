"""What every part of the table shares: its store, its house and language, who acts,
the audit log, one transaction at a time, the round, and the players.  The concerns
built on it (:mod:`.betting`, :mod:`.spins`, :mod:`.replays`) and :class:`~callbets.table.Table`
itself are each one subclass."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any, Self

from ..errors import CallbetsError, TableError
from ..language.grammar import LANGUAGES
from ..messages import said
from ..roulette.house import House, house_from_dict
from .chain import genesis, row_hash, table_key
from .store import Store, is_url


def data_folder() -> Path:
    """``$XDG_DATA_HOME/callbets`` (``~/.local/share/callbets``)."""
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "callbets"


def make_data_folder() -> Path:
    """Make :func:`data_folder` (readable by its owner only) if it is not there yet.

    :raises TableError: it cannot be made.
    """
    folder = data_folder()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as err:
        raise TableError(f"cannot create {folder}: {err.strerror or err}") from None
    return folder


def default_path() -> str | Path:
    """``$CALLBETS_TABLE`` (a file or a PostgreSQL URL), else the file ``table.sqlite`` in
    :func:`data_folder`."""
    found = os.environ.get("CALLBETS_TABLE")
    if found:
        return found if is_url(found) else Path(found)
    return data_folder() / "table.sqlite"


def terminal() -> str:
    """Which terminal acts: the host and the tty (or the process, without one)."""
    try:
        tty = os.ttyname(0)
    except OSError:
        tty = f"pid {os.getpid()}"
    return f"{socket.gethostname()} {tty}"


def timestamp() -> str:
    """Now, in UTC, to the millisecond (ISO 8601)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def money(value: Fraction | int) -> int | float:
    """A stake-unit amount for JSON: an integer when whole."""
    if isinstance(value, int):
        return value
    return int(value) if value.denominator == 1 else float(value)


log = logging.getLogger(__name__)


@lru_cache(maxsize=64)
def house_of(profile: str, name: str) -> House:
    """A table's house from the profile its header holds (JSON), built once per profile:
    a floor opens the same tables several times a second, and building a house costs more
    than reading the table's round.

    :raises ValueError, HouseError: the profile is not JSON, or not a house.
    """
    return house_from_dict(json.loads(profile), name)


MAX_NAME = 40
"""The longest player name (a colour, a seat, a name)."""


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


NEXT_ANNOUNCEMENT = "(SELECT coalesce(max(id), 0) + 1 FROM announcements WHERE table_id = :t)"
NEXT_BET = "(SELECT coalesce(max(id), 0) + 1 FROM bets WHERE table_id = :t)"
"""Each table numbers its own announcements and bets (under the transaction's lock)."""


class TableCore:
    """The table's store, rules, audit and transactions, its round and its players."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.location = store.label
        """Where the table is: its file, or its URL without the password."""
        self.writable = store.writable
        """False for a table opened read-only (``show``, ``audit``, ``verify``)."""
        self.who: dict[str, str] = {"terminal": terminal()}
        """Who acts, written into every audit row (see :meth:`as_croupier`)."""
        header = self._header()
        try:
            self.house = house_of(self._in(header, "house_profile"), self._in(header, "house"))
        except (ValueError, CallbetsError) as err:
            raise TableError(
                f"{self.location} is damaged: its house profile cannot be read ({err})"
            ) from None
        self.lang = self._in(header, "lang")
        self._uid = header.get("uid")
        if self.lang not in LANGUAGES:
            raise TableError(
                f"{self.location} is damaged: unknown language '{self.lang}' in its header"
            )

    @property
    def name(self) -> str:
        """A short name: the table's id in a database of many, else its file's name."""
        return self.store.table_id or Path(self.location).name

    def local_file(self, suffix: str) -> Path:
        """A file of this terminal that goes with the table (its console's log and
        history): beside an SQLite file, in :func:`data_folder` for a database's table."""
        if self.store.backend == "sqlite":
            return Path(f"{self.location}{suffix}")
        with contextlib.suppress(TableError):  # the caller says when it cannot write there
            make_data_folder()
        return data_folder() / f"{self.store.table_id}{suffix}"

    def close_file(self) -> None:
        """Close the database connection."""
        self.store.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close_file()

    def as_croupier(self, name: str | None) -> Self:
        """Name the croupier who acts from now on: every audit row records it with the
        terminal.  Houses with ``table.require_croupier`` refuse changes without one.

        :raises TableError: a name that is not short printable text.
        """
        if name is not None:
            name = name.strip()
            if not name or len(name) > MAX_NAME or not name.isprintable() or not _utf8(name):
                raise TableError(said("croupier_name", most=MAX_NAME))
            self.who["croupier"] = name
        return self

    def backup(self, target: Path) -> None:
        """Copy the live table, consistent, to a new file (SQLite's online backup: unlike
        a plain copy of the file, it includes what is still in the write-ahead log).

        :raises TableError: the target exists or cannot be written.
        """
        self.store.backup(target)
        log.info("%s backed up to %s", self.name, target)

    # ---- low level -------------------------------------------------------------
    def _meta(self, key: str) -> str:
        value = self.store.value("SELECT value FROM meta WHERE table_id = :t AND key = :key",
                                 key=key)  # fmt: skip
        if value is None:
            raise TableError(f"{self.location} is damaged: no '{key}' in its header")
        return str(value)

    def _header(self) -> dict[str, str]:
        """What never changes in the table's header, in one read: its house, language and
        identity (a floor opens each table every half second)."""
        rows = self.store.rows(
            "SELECT key, value FROM meta WHERE table_id = :t"
            " AND key IN ('house_profile', 'house', 'lang', 'uid')"
        )
        return {str(key): str(value) for key, value in rows if value is not None}

    def _in(self, header: dict[str, str], key: str) -> str:
        if key not in header:
            raise TableError(f"{self.location} is damaged: no '{key}' in its header")
        return header[key]

    def _meta_or_none(self, key: str) -> str | None:
        value = self.store.value("SELECT value FROM meta WHERE table_id = :t AND key = :key",
                                 key=key)  # fmt: skip
        return None if value is None else str(value)

    _keyed_by: tuple[str | None, str | None] | None = None
    _uid: str | None = None
    """The table's identity, once read (see :attr:`~.table.Table.uid`)."""

    def _keying(self) -> tuple[str | None, str | None] | None:
        """The table's identity and key check, read once (they never change), or None
        while the table is being made."""
        if self._keyed_by is None and self._meta_or_none("format") is not None:
            self._keyed_by = (self._meta_or_none("uid"), self._meta_or_none("key_check"))
        return self._keyed_by

    def _audit_key(self) -> bytes | None:
        """The key this table's audit rows are written with: ``$CALLBETS_AUDIT_KEY`` for a
        table opened with one (and it must be that key), none for a table opened without.

        :raises AuditKeyError: the key is missing, another one, or set for a table
            opened without a key.
        """
        return table_key(*(self._keying() or (None, None)))

    def _set_meta(self, key: str, value: str) -> None:
        self.store.rows("UPDATE meta SET value = :value WHERE table_id = :t AND key = :key",
                        key=key, value=value)  # fmt: skip

    def _audit(self, event: str, **payload: Any) -> None:
        """Append one row to the audit log, chained to the row before it (and say it in
        the ``callbets.table`` log)."""
        last = self.store.one(
            "SELECT id, hash FROM audit WHERE table_id = :t ORDER BY id DESC LIMIT 1"
        )
        if last and last[1] is None:  # never chain, and so sign, what callbets did not write
            raise TableError(said("audit_unhashed", seq=last[0]))
        if last:
            seq, previous = last[0] + 1, last[1]
        else:  # the first row chains to the table's identity
            seq, previous = 1, genesis((self._keying() or (None, None))[0])
        ts, body = timestamp(), json.dumps({**payload, "by": self.who}, ensure_ascii=False)
        self.store.rows(
            "INSERT INTO audit (table_id, id, ts, kind, payload, hash)"
            " VALUES (:t, :seq, :ts, :kind, :payload, :hash)",
            seq=seq, ts=ts, kind=event, payload=body,
            hash=row_hash(previous, seq, ts, event, body, self._audit_key()),
        )  # fmt: skip
        log.info("%s #%d %s %s", self.name, seq, event, body)

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        if not self.writable:
            raise TableError(f"{self.location} was opened read-only")
        house = getattr(self, "house", None)
        if house is not None and house.require_croupier and "croupier" not in self.who:
            raise TableError(said("croupier_required", house=house.name))
        with self.store.transaction():
            if self._keying() is not None:  # not while the table is made
                self._audit_key()
            yield
            self._before_commit()

    def _before_commit(self) -> None:
        """Called inside every transaction just before it commits (a seam for crash tests)."""

    @property
    def round(self) -> int:
        """The current round (the spin about to be played)."""
        value = self._meta("round")
        if not (value.isascii() and value.isdigit() and 0 < int(value) <= 2**31 - 1):
            raise TableError(
                f"{self.location} is damaged: its round '{value[:20]}' is not a number"
            )
        return int(value)

    @property
    def is_open(self) -> bool:
        """True while bets may be placed."""
        return self._meta("state") == "open"

    @property
    def ended(self) -> bool:
        """True once the evening's last spin has been played (``spin(last_spin=True)``):
        nothing more is bet or spun at this table."""
        return self._meta("state") == "ended"

    @property
    def betting(self) -> str:
        """``open`` while bets may be placed, ``closed`` between "rien ne va plus" and the
        spin, ``ended`` after the evening's last spin."""
        return "open" if self.is_open else "ended" if self.ended else "closed"

    def _need_open(self) -> None:
        if self.ended:
            raise TableError(said("evening_over"))
        if not self.is_open:
            raise TableError(said("betting_closed"))

    def _need_player(self, player: str) -> None:
        if not self._seated(player):
            raise TableError(said("unknown_player", player=player))

    # ---- players and bets -------------------------------------------------------
    def add_player(self, name: str) -> None:
        """Seat a player, known by a colour or a name.

        :raises TableError: the name is empty, too long, not printable text, or taken.
        """
        name = name.strip()
        if not name:
            raise TableError(said("player_no_name"))
        if len(name) > MAX_NAME or not name.isprintable() or not _utf8(name) or ":" in name:
            raise TableError(said("player_name", most=MAX_NAME))
        with self._transaction():
            if self._seated(name):
                raise TableError(said("player_seated", player=name))
            self.store.rows(
                "INSERT INTO players (table_id, name, created) VALUES (:t, :name, :now)",
                name=name, now=timestamp(),
            )  # fmt: skip
            self._audit("player", name=name)

    def players(self) -> list[str]:
        """Players at the table, in the order they sat down."""
        return [r[0] for r in self.store.rows(
            "SELECT name FROM players WHERE table_id = :t ORDER BY rowid")]  # fmt: skip

    def _seated(self, name: str) -> bool:
        return bool(self.store.one(
            "SELECT 1 FROM players WHERE table_id = :t AND name = :name", name=name))  # fmt: skip
