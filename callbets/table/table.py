"""The table: players, bets, prison, spins and an append-only audit log, kept in a store
(an SQLite file, or a PostgreSQL database of many tables: :mod:`callbets.table.store`).

The only room that writes to the database.  Every change is one transaction that has the
table to itself, so a process killed at any moment leaves the table as it was before or
after the change, never in between.  A spin is settled exactly once: it needs the table
closed for betting, and the transaction that writes its outcomes also reopens the table
and moves to the next round, so entering it again (or again after a crash) cannot pay
twice.

The house profile is copied into the file when the table is opened, so the table keeps
its rules even if the shipped profiles change.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import tomllib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any, TextIO

from ..errors import AnnouncementError, CallbetsError, TableError
from ..language.grammar import LANGUAGES
from ..language.parse import parse
from ..messages import said
from ..roulette.announcement import Announcement, PlacedCall, parse_notation
from ..roulette.house import find_house, house_file_text, house_from_dict
from ..roulette.layout import Position
from ..roulette.limits import LimitError, check_limits, counted
from ..roulette.replay import Replay, replay
from ..roulette.settle import Bet, CallResult, Outcome, Settlement, call_results, settle
from .books import Verification, verify
from .chain import GENESIS, audit_key, row_hash
from .locations import create_store, open_store
from .rows import bet_from_row, settled_bets
from .sqlite import FORMAT
from .store import Store, is_url


def data_folder() -> Path:
    """``$XDG_DATA_HOME/callbets`` (``~/.local/share/callbets``)."""
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "callbets"


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


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def money(value: Fraction | int) -> int | float:
    """A stake-unit amount for JSON: an integer when whole."""
    if isinstance(value, int):
        return value
    return int(value) if value.denominator == 1 else float(value)


log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SpinReport:
    """A settled spin: the settlement, its calls, and the round it closed."""

    round: int
    """The round number (1, 2, …)."""
    settlement: Settlement
    """Every bet's outcome."""
    calls: tuple[CallResult, ...]
    """The same outcomes grouped by announced call."""

    def to_json(self) -> dict[str, Any]:
        """The settlement as stored and exported."""
        s = self.settlement
        return {
            "round": self.round,
            "spin": s.number,
            "players": {
                p: {
                    "staked": money(s.staked(p)),
                    "returned": money(s.returned(p)),
                    "net": money(s.net(p)),
                    "prison": money(s.in_prison(p)),
                }
                for p in s.players()
            },
            "outcomes": [self._outcome_json(o) for o in s.outcomes],
            "to_place": [
                {
                    "player": c.player,
                    "call": c.call,
                    "placements": [
                        {"bet": p.kind.value, "numbers": list(p.numbers), "amount": a}
                        for p, a in c.to_place
                    ],
                }
                for c in self.calls
                if c.to_place
            ],
            "staked": money(s.staked()),
            "returned": money(s.returned()),
            "net": money(s.net()),
            "prison": money(s.in_prison()),
        }

    @staticmethod
    def _outcome_json(o: Outcome) -> dict[str, Any]:
        return {
            "bet": o.bet.id,
            "player": o.bet.player,
            "call": o.bet.call,
            "bet_kind": o.bet.position.kind.value,
            "numbers": list(o.bet.position.numbers),
            "amount": o.bet.amount,
            "prison_level": o.bet.prison,
            "result": o.result,
            "paid": money(o.paid),
            "returned": money(o.returned),
            "kept_in_prison": o.kept.amount if o.kept else 0,
        }


_NEXT_ANNOUNCEMENT = "(SELECT coalesce(max(id), 0) + 1 FROM announcements WHERE table_id = :t)"
_NEXT_BET = "(SELECT coalesce(max(id), 0) + 1 FROM bets WHERE table_id = :t)"
"""Each table numbers its own announcements and bets (under the transaction's lock)."""
NOTATION_ORIGINS = frozenset({"replay", "reading"})
"""Announcements recorded as notation: replays, and readings picked among several."""
MAX_NAME = 40
"""The longest player name (a colour, a seat, a name)."""


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class Table:
    """A persistent roulette table.  Open one with :meth:`create` or :meth:`open`, at a
    path (an SQLite file) or a URL (``postgresql://…/casino?table=T12``).

    Every method turns a database error (a locked, read-only, damaged or unreachable
    database) into a :class:`TableError` with the reason in a croupier's words.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self.location = store.label
        """Where the table is: its file, or its URL without the password."""
        self.writable = store.writable
        """False for a table opened read-only (``show``, ``audit``, ``verify``)."""
        self.who: dict[str, str] = {"terminal": terminal()}
        """Who acts, written into every audit row (see :meth:`as_croupier`)."""
        try:
            profile = json.loads(self._meta("house_profile"))
            self.house = house_from_dict(profile, self._meta("house"))
        except (ValueError, CallbetsError) as err:
            raise TableError(
                f"{self.location} is damaged: its house profile cannot be read ({err})"
            ) from None
        self.lang = self._meta("lang")
        if self.lang not in LANGUAGES:
            raise TableError(
                f"{self.location} is damaged: unknown language '{self.lang}' in its header"
            )

    # ---- opening -------------------------------------------------------------
    @classmethod
    def create(
        cls, location: str | Path, house_name: str, lang: str, croupier: str | None = None
    ) -> Table:
        """Make a new table with a house and a language: a file (readable by its owner
        only), or a table in a PostgreSQL database (``…?table=T12``).

        :raises TableError: the table exists, its folder does not, or it cannot be written.
        :raises HouseError: no such house.
        """
        house = find_house(house_name)
        if house.require_croupier and not (croupier or "").strip():
            raise TableError(said("croupier_required", house=house.name))
        profile = tomllib.loads(house_file_text(house_name))
        store = create_store(location)
        table = cls.__new__(cls)
        table.store, table.location, table.writable = store, store.label, True
        table.who = {"terminal": terminal()}
        table.as_croupier(croupier)
        with table._transaction():
            meta = {
                "format": FORMAT,
                "house": house.name,
                "house_profile": json.dumps(profile),
                "lang": lang,
                "state": "open",
                "round": "1",
                "created": _now(),
            }
            store.many(
                "INSERT INTO meta (table_id, key, value) VALUES (:t, :key, :value)",
                [{"key": k, "value": v} for k, v in meta.items()],
            )
            table._audit("open", house=house.name, lang=lang, file=store.label)
        return cls(store).as_croupier(croupier)

    @classmethod
    def open(cls, location: str | Path, write: bool = True) -> Table:
        """Open an existing table (a file or a URL); ``write=False`` opens it read-only.

        Nothing is written to a database before it is known to hold a callbets table.

        :raises TableError: no such table, not a callbets table, damaged, locked, or
            unreachable.
        """
        return cls(open_store(location, write))

    @property
    def name(self) -> str:
        """A short name: the table's id in a database of many, else its file's name."""
        return self.store.table_id or Path(self.location).name

    def local_file(self, suffix: str) -> Path:
        """A file of this terminal that goes with the table (its console's log and
        history): beside an SQLite file, in :func:`data_folder` for a database's table."""
        if self.store.backend == "sqlite":
            return Path(f"{self.location}{suffix}")
        folder = data_folder()
        with contextlib.suppress(OSError):  # the caller says when it cannot write there
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        return folder / f"{self.store.table_id}{suffix}"

    def close_file(self) -> None:
        """Close the database connection."""
        self.store.close()

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close_file()

    def as_croupier(self, name: str | None) -> Table:
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

    def _set_meta(self, key: str, value: str) -> None:
        self.store.rows("UPDATE meta SET value = :value WHERE table_id = :t AND key = :key",
                        key=key, value=value)  # fmt: skip

    def _audit(self, event: str, **payload: Any) -> None:
        """Append one row to the audit log, chained to the row before it (and say it in
        the ``callbets.table`` log)."""
        last = self.store.one(
            "SELECT id, hash FROM audit WHERE table_id = :t ORDER BY id DESC LIMIT 1"
        )
        seq, previous = (last[0] + 1, last[1] or GENESIS) if last else (1, GENESIS)
        ts, body = _now(), json.dumps({**payload, "by": self.who}, ensure_ascii=False)
        self.store.rows(
            "INSERT INTO audit (table_id, id, ts, kind, payload, hash)"
            " VALUES (:t, :seq, :ts, :kind, :payload, :hash)",
            seq=seq, ts=ts, kind=event, payload=body,
            hash=row_hash(previous, seq, ts, event, body, audit_key()),
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
            yield
            self._before_commit()

    def _before_commit(self) -> None:
        """Called inside every transaction just before it commits (a seam for crash tests)."""

    @property
    def round(self) -> int:
        """The current round (the spin about to be played)."""
        return int(self._meta("round"))

    @property
    def is_open(self) -> bool:
        """True while bets may be placed."""
        return self._meta("state") == "open"

    def _need_open(self) -> None:
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
                name=name, now=_now(),
            )  # fmt: skip
            self._audit("player", name=name)

    def players(self) -> list[str]:
        """Players at the table, in the order they sat down."""
        return [r[0] for r in self.store.rows(
            "SELECT name FROM players WHERE table_id = :t ORDER BY rowid")]  # fmt: skip

    def _seated(self, name: str) -> bool:
        return bool(self.store.one(
            "SELECT 1 FROM players WHERE table_id = :t AND name = :name", name=name))  # fmt: skip

    def _parse(self, text: str, lang: str | None) -> tuple[Announcement, list[str]]:
        announcement = parse(text, lang or self.lang, self.house)
        return announcement, check_limits(announcement, self.house, self.on_layout())

    def on_layout(self) -> list[tuple[Position, Fraction]]:
        """Every player's stakes on the layout now, as they count towards each position's
        maximum (prison at the value still in play, where the house counts it)."""
        out = []
        for b in self.open_bets():
            value = counted(b.amount, b.prison, self.house)
            if value is not None:
                out.append((b.position, value))
        return out

    def announce(
        self, player: str, text: str, lang: str | None = None, key: str | None = None
    ) -> tuple[int, Announcement]:
        """Record an announcement as heard, waiting for confirmation.

        A refused announcement is recorded in the audit log too, then re-raised.  With a
        ``key``, an announcement already recorded under it is returned instead (a retry
        after a crash places nothing twice).

        :raises TableError: betting is closed or the player is unknown.
        :raises AnnouncementError: the parser refuses it.
        :raises LimitError: outside the table's limits.
        """
        if key is not None and (known := self._keyed(key, player, text)) is not None:
            return known[0], self.announcement(known[0])[1]
        refused: AnnouncementError | LimitError | None = None
        try:
            announcement, warnings = self._parse(text, lang)
        except (AnnouncementError, LimitError) as err:
            refused = err
        with self._transaction():
            # another terminal may have recorded the same key since the look above
            if key is not None and (known := self._keyed(key, player, text)) is not None:
                return known[0], self._read_stored(known[0])
            self._need_open()
            self._need_player(player)
            if refused is not None:
                self._audit("refused", player=player, text=text, reason=str(refused))
            else:
                aid = self._insert_announcement(
                    player, text, lang, announcement, "pending", key=key
                )
                self._audit_announce(aid, player, text, announcement, warnings)
        if refused is not None:
            raise refused
        return aid, announcement

    def _keyed(self, key: str, player: str, text: str) -> tuple[int, str] | None:
        """(id, status) of the announcement recorded under an idempotency key, if any.

        :raises TableError: the key was used for another announcement.
        """
        row = self.store.one(
            "SELECT id, status, player, text FROM announcements WHERE table_id = :t"
            " AND idem = :key", key=key,
        )  # fmt: skip
        if row is None:
            return None
        if (row[2], row[3]) != (player, text):
            raise TableError(said("key_used", key=key))
        return int(row[0]), str(row[1])

    def _insert_announcement(
        self, player: str, text: str, lang: str | None, a: Announcement, status: str,
        origin: str | None = None, key: str | None = None,
    ) -> int:  # fmt: skip
        aid = int(self.store.value(
            "INSERT INTO announcements (table_id, id, player, text, lang, notation, total,"
            f" round, status, origin, idem, created) VALUES (:t, {_NEXT_ANNOUNCEMENT}, :player,"
            " :text, :lang, :notation, :total, :round, :status, :origin, :key, :now)"
            " RETURNING id",
            player=player, text=text, lang=lang or self.lang, notation=a.notation(),
            total=a.total, round=self.round, status=status, origin=origin, key=key, now=_now(),
        ))  # fmt: skip
        if status == "confirmed":
            self._insert_bets(aid, a.calls)
        return aid

    def _insert_bets(self, aid: int, calls: tuple[PlacedCall, ...]) -> None:
        round_no = self.round
        self.store.many(
            "INSERT INTO bets (table_id, id, announcement, call_index, call, kind, numbers,"
            f" amount, round, status) VALUES (:t, {_NEXT_BET}, :aid, :i, :call, :kind, :numbers,"
            " :amount, :round, 'open')",
            [{"aid": aid, "i": i, "call": call.name, "kind": p.position.kind.value,
              "numbers": json.dumps(p.position.numbers), "amount": p.amount, "round": round_no}
             for i, call in enumerate(calls) for p in call.placements],
        )  # fmt: skip

    def confirm(self, aid: int) -> Announcement:
        """Confirm a pending announcement: its chips go on the layout.  Confirming one
        already confirmed changes nothing and returns it (a retry after a crash).

        :raises TableError: no such pending announcement, or betting is closed.
        """
        with self._transaction():
            if self._status(aid) == "confirmed":
                return self.announcement(aid)[1]
            self._need_open()
            player = self._pending(aid)
            announcement = self._read_stored(aid)
            # the layout may have changed since it was announced (another player, a replay)
            check_limits(announcement, self.house, self.on_layout())
            self._set_status(aid, "confirmed")
            self._insert_bets(aid, announcement.calls)
            self._audit(
                "confirm", announcement=aid, player=player, notation=announcement.notation()
            )
        return announcement

    def cancel(self, aid: int) -> None:
        """Drop a pending announcement (annule / annulla / cancel)."""
        with self._transaction():
            player = self._pending(aid)
            self._set_status(aid, "cancelled")
            self._audit("cancel", announcement=aid, player=player)

    def _status(self, aid: int) -> str | None:
        found = self.store.value(
            "SELECT status FROM announcements WHERE table_id = :t AND id = :aid", aid=aid
        )
        return None if found is None else str(found)

    def _set_status(self, aid: int, status: str) -> None:
        self.store.rows(
            "UPDATE announcements SET status = :status WHERE table_id = :t AND id = :aid",
            aid=aid, status=status,
        )  # fmt: skip

    def _pending(self, aid: int) -> str:
        """The player of an announcement waiting for confirmation."""
        row = self.store.one(
            "SELECT player FROM announcements WHERE table_id = :t AND id = :aid"
            " AND status = 'pending'", aid=aid,
        )  # fmt: skip
        if row is None:
            raise TableError(said("no_pending", id=aid))
        return str(row[0])

    def _read_stored(self, aid: int) -> Announcement:
        """An announcement as recorded: its text in its language, or its notation for a
        replay or a reading picked among several (``origin`` says which)."""
        row = self.store.one(
            "SELECT text, lang, origin FROM announcements WHERE table_id = :t AND id = :aid",
            aid=aid,
        )  # fmt: skip
        if row is None:
            raise TableError(said("no_announcement", id=aid))
        text, lang, origin = row
        if origin and str(origin).split(":")[0] in NOTATION_ORIGINS:
            return parse_notation(str(text), self.house)
        return parse(str(text), str(lang), self.house)

    def announce_reading(self, player: str, notation: str, said: str) -> tuple[int, Announcement]:
        """Record one of the readings of an ambiguous announcement, picked by the croupier,
        waiting for confirmation as :meth:`announce` does (the words said are kept).

        :raises TableError, AnnouncementError, LimitError: as :meth:`announce`.
        """
        announcement = parse_notation(notation, self.house)
        warnings = check_limits(announcement, self.house, self.on_layout())
        with self._transaction():
            self._need_open()
            self._need_player(player)
            aid = self._insert_announcement(
                player, announcement.notation(), None, announcement, "pending",
                origin=f"reading:{said[:200]}",
            )  # fmt: skip
            self._audit_announce(aid, player, said, announcement, warnings, picked=True)
        return aid, announcement

    def _audit_announce(
        self, aid: int, player: str, text: str, a: Announcement, warnings: list[str],
        **more: Any,
    ) -> None:  # fmt: skip
        self._audit(
            "announce", announcement=aid, player=player, text=text, notation=a.notation(),
            total=a.total, warnings=warnings, **more,
        )  # fmt: skip

    def bet(
        self, player: str, text: str, lang: str | None = None, key: str | None = None
    ) -> tuple[int, Announcement]:
        """Announce and confirm at once (what a typed table does).

        With a ``key`` (an idempotency key), a retry of the same bet returns the one
        stored: killed after its commit, a bet retried is still placed once.

        :raises TableError, AnnouncementError, LimitError: as :meth:`announce`.
        """
        aid, _ = self.announce(player, text, lang, key)
        return aid, self.confirm(aid)

    def undo(self) -> int:
        """Take back the last confirmed announcement of this round, as one unit.

        :raises TableError: betting is closed, or nothing to undo.
        """
        with self._transaction():
            self._need_open()
            row = self.store.one(
                "SELECT id, player FROM announcements WHERE table_id = :t"
                " AND status = 'confirmed' AND round = :round ORDER BY id DESC LIMIT 1",
                round=self.round,
            )  # fmt: skip
            if row is None:
                raise TableError(said("nothing_to_undo"))
            self._set_status(row[0], "undone")
            self.store.rows(
                "UPDATE bets SET status = 'removed' WHERE table_id = :t AND announcement = :aid"
                " AND status = 'open' AND prison = 0", aid=row[0],
            )  # fmt: skip
            self._audit("undo", announcement=row[0], player=row[1])
            return int(row[0])

    def clear(self, player: str) -> int:
        """Remove a player's bets of this round (not those in prison); returns how many."""
        with self._transaction():
            self._need_open()
            self._need_player(player)
            removed = len(self.store.rows(
                "UPDATE bets SET status = 'removed' WHERE table_id = :t AND status = 'open'"
                " AND prison = 0 AND round = :round AND announcement IN (SELECT id FROM"
                " announcements WHERE table_id = :t AND player = :player) RETURNING id",
                round=self.round, player=player,
            ))  # fmt: skip
            self.store.rows(
                "UPDATE announcements SET status = 'cleared' WHERE table_id = :t"
                " AND player = :player AND round = :round AND status = 'confirmed'",
                round=self.round, player=player,
            )  # fmt: skip
            self._audit("clear", player=player, bets=removed)
            return removed

    # ---- the spin -----------------------------------------------------------------
    def close(self) -> list[tuple[int, str, str]]:
        """Rien ne va plus: no more bets until the spin is entered.  Announcements still
        waiting for confirmation are cancelled (they were never on the layout); returns
        them as (id, player, text).

        :raises TableError: already closed.
        """
        with self._transaction():
            self._need_open()
            dropped = self.pending()
            pending = len(dropped)
            self.store.rows(
                "UPDATE announcements SET status = 'cancelled' WHERE table_id = :t"
                " AND status = 'pending'"
            )
            self._set_meta("state", "closed")
            self._audit("close", round=self.round, pending_dropped=pending)
        return dropped

    def open_bets(self) -> list[Bet]:
        """The bets on the layout now (prison included)."""
        # the player by the announcement's key, bet by bet: a join would let PostgreSQL
        # hash the whole evening's announcements each time the layout is read
        rows = self.store.rows(
            "SELECT b.id, (SELECT a.player FROM announcements a WHERE a.table_id = b.table_id"
            " AND a.id = b.announcement), b.kind, b.numbers, b.amount, b.call, b.announcement,"
            " b.call_index, b.prison FROM bets b WHERE b.table_id = :t AND b.status = 'open'"
            " ORDER BY b.id"
        )
        return [bet_from_row(r) for r in rows]

    def spin(
        self,
        number: int,
        round_no: int | None = None,
        choices: Mapping[str, str] | None = None,
        last_spin: bool = False,
    ) -> SpinReport:
        """Enter the winning number and settle every bet on the layout, exactly once.

        Entering a spin for a round already settled with the same number gives back the
        stored settlement and changes nothing.

        :raises TableError: betting is still open, a different number for a settled
            round, or a number off the wheel.
        :raises SettlementError: a zero choice the house does not offer.
        """
        if not (isinstance(number, int) and 0 <= number <= 36):
            raise TableError(said("not_on_wheel", number=number))
        with self._transaction():
            if round_no is not None and round_no < self.round:
                return self._stored_spin(round_no, number)
            if round_no is not None and round_no != self.round:
                raise TableError(said("round_not_started", round=round_no, now=self.round))
            if self.is_open:
                raise TableError(said("betting_open"))
            report = self._settle(number, choices or {}, last_spin)
        return report

    def _stored_spin(self, round_no: int, number: int) -> SpinReport:
        row = self._spin_row(round_no)
        if row is None:
            raise TableError(said("round_no_spin", round=round_no))
        if row[0] != number:
            raise TableError(said("round_settled_on", round=round_no, number=row[0], other=number))
        return self._report_from_json(json.loads(row[1]))

    def _report_from_json(self, data: dict[str, Any]) -> SpinReport:
        bets = self.settled_bets(data["round"])
        settlement = settle(
            bets, data["spin"], self.house, data.get("choices", {}), data.get("last_spin", False)
        )
        return SpinReport(data["round"], settlement, tuple(call_results(settlement, self.house)))

    def settled_bets(self, round_no: int) -> list[Bet]:
        """The bets as they stood when a round was settled."""
        return settled_bets(self.store, round_no)

    def _settle(self, number: int, choices: Mapping[str, str], last_spin: bool) -> SpinReport:
        round_no = self.round
        bets = self.open_bets()
        settlement = settle(bets, number, self.house, choices, last_spin)
        report = SpinReport(round_no, settlement, tuple(call_results(settlement, self.house)))
        data = report.to_json()
        data["choices"] = dict(choices)
        data["last_spin"] = last_spin
        summary = {k: v for k, v in data.items() if k not in ("outcomes", "to_place")}
        self.store.rows(
            "INSERT INTO spins (table_id, round, number, created, report)"
            " VALUES (:t, :round, :number, :now, :report)",
            round=round_no, number=number, now=_now(), report=json.dumps(summary),
        )  # fmt: skip
        self.store.many(
            "INSERT INTO outcomes (table_id, round, bet, result, paid, returned)"
            " VALUES (:t, :round, :bet, :result, :paid, :returned)",
            [{"round": round_no, "bet": int(o.bet.id), "result": o.result,
              "paid": str(o.paid), "returned": str(o.returned)} for o in settlement.outcomes],
        )  # fmt: skip
        self.store.many(
            "UPDATE bets SET status = 'settled' WHERE table_id = :t AND id = :bet",
            [{"bet": int(o.bet.id)} for o in settlement.outcomes],
        )
        self.store.many(
            "INSERT INTO bets (table_id, id, announcement, call_index, call, kind, numbers,"
            f" amount, prison, round, status) SELECT table_id, {_NEXT_BET}, announcement,"
            " call_index, call, :kind, :numbers, :amount, :prison, :round, 'open' FROM bets"
            " WHERE table_id = :t AND id = :bet",
            [{"kind": o.kept.position.kind.value, "numbers": json.dumps(o.kept.position.numbers),
              "amount": o.kept.amount, "prison": o.kept.prison, "round": round_no + 1,
              "bet": int(o.bet.id)}
             for o in settlement.outcomes if o.kept is not None],
        )  # fmt: skip
        self._set_meta("round", str(round_no + 1))
        self._set_meta("state", "open")
        self._audit("spin", round=round_no, number=number)
        self._audit("settlement", **data)
        return report

    # ---- replays -------------------------------------------------------------------
    def replay(self, aid: int, kind: str, call_index: int = 0) -> Replay:
        """Replay a called bet that won on the last spin (à refaire, à compléter, pour le tout).

        :raises TableError: betting is closed, no such call, or it was already replayed.
        :raises ReplayError: the bet did not win, or the replay is not allowed.
        """
        with self._transaction():
            self._need_open()
            last = self.round - 1
            origin = f"replay:{aid}.{call_index}:{kind}"
            player, announcement = self.announcement(aid)
            if self.store.one(
                "SELECT 1 FROM announcements WHERE table_id = :t AND origin LIKE :origin",
                origin=f"replay:{aid}.{call_index}:%",
            ):  # fmt: skip
                raise TableError(said("replayed_already", id=aid))
            calls = announcement.calls
            if not 0 <= call_index < len(calls):
                raise TableError(said("no_call", id=aid, call=call_index))
            result = self._call_result(last, aid, call_index)
            done = replay(kind, calls[call_index], result, self.house, self.on_layout())
            new = Announcement(done.placed.notation(), (done.placed,))
            warnings = check_limits(new, self.house, self.on_layout())
            new_id = self._insert_announcement(
                player, new.notation(), None, new, "confirmed", origin
            )
            self._audit(
                "replay", announcement=aid, call=call_index, replay=kind, new_announcement=new_id,
                placed=done.placed.notation(), left_in_place=done.left_in_place,
                from_win=money(done.from_win), handed=money(done.handed), warnings=warnings,
            )  # fmt: skip
        return done

    def _call_result(self, round_no: int, aid: int, call_index: int) -> CallResult:
        row = self._spin_row(round_no)
        if row is None:
            raise TableError(said("no_spin_yet"))
        report = self._report_from_json(json.loads(row[1]))
        group = f"{aid}.{call_index}"
        for c in report.calls:
            if c.group == group:
                return c
        raise TableError(said("call_not_on_spin", id=aid, call=call_index))

    # ---- reading -------------------------------------------------------------------
    def last_spin(self) -> SpinReport | None:
        """The settlement of the last spin, or None before the first spin."""
        found = self._spin_row(self.round - 1)
        return self._report_from_json(json.loads(found[1])) if found else None

    def _spin_row(self, round_no: int) -> tuple[int, str] | None:
        """(number, stored report) of a settled round."""
        row = self.store.one(
            "SELECT number, report FROM spins WHERE table_id = :t AND round = :round",
            round=round_no,
        )  # fmt: skip
        return None if row is None else (int(row[0]), str(row[1]))

    def announcement(self, aid: int) -> tuple[str, Announcement]:
        """(player, announcement as placed) of a recorded announcement.

        :raises TableError: no such announcement.
        """
        player = self.store.value(
            "SELECT player FROM announcements WHERE table_id = :t AND id = :aid", aid=aid
        )
        if player is None:
            raise TableError(said("no_announcement", id=aid))
        return str(player), self._read_stored(aid)

    def pending(self) -> list[tuple[int, str, str]]:
        """Announcements waiting for confirmation: (id, player, text), oldest first."""
        rows = self.store.rows(
            "SELECT id, player, text FROM announcements WHERE table_id = :t"
            " AND status = 'pending' ORDER BY id"
        )
        return [(int(i), str(p), str(t)) for i, p, t in rows]

    def state(self) -> dict[str, Any]:
        """Everything a status line or a script needs to know."""
        bets = self.open_bets()
        by_player: dict[str, Any] = {
            p: {"staked": 0, "prison": 0, "bets": []} for p in self.players()
        }
        for b in bets:
            entry = by_player[b.player]
            entry["prison" if b.prison else "staked"] += b.amount
            entry["bets"].append(
                {"id": int(b.id), "call": b.call, "bet": b.position.kind.value,
                 "numbers": list(b.position.numbers), "amount": b.amount, "prison": b.prison}
            )  # fmt: skip
        spins = self.store.rows(
            "SELECT round, number FROM spins WHERE table_id = :t ORDER BY round"
        )
        return {
            "file": self.location,
            "table": self.name,
            "house": self.house.name,
            "lang": self.lang,
            "betting": "open" if self.is_open else "closed",
            "round": self.round,
            "spins": [{"round": r, "number": n} for r, n in spins],
            "players": by_player,
            "staked": sum(b.amount for b in bets if not b.prison),
            "prison": sum(b.amount for b in bets if b.prison),
        }

    def export_audit(self, out: TextIO) -> int:
        """Write the audit log as JSON lines, each with its chain hash; returns how many.

        A row whose payload is not a JSON object (a damaged or edited row) is written with
        the payload as text; ``verify`` says what is wrong with it.
        """
        count = 0
        for aid, ts, kind, payload, digest in self.store.audit_rows():
            try:
                body = json.loads(payload)
            except ValueError:
                body = None
            fields = body if isinstance(body, dict) else {"payload": str(payload)}
            record = {"seq": aid, "ts": ts, "event": kind, **fields, "hash": digest}
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            count += 1
        return count

    def verify(self) -> Verification:
        """Recompute the audit chain and the books (read-only)."""
        return verify(self.store, self.house)
