"""Announcements and their bets: said, read back, confirmed, cancelled, undone, cleared,
and the table closed for betting."""

from __future__ import annotations

import json
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from ..errors import AnnouncementError, InputError, TableError
from ..language.parse import parse
from ..messages import said
from ..roulette.announcement import Announcement, PlacedCall, parse_notation
from ..roulette.layout import Position
from ..roulette.limits import LimitError, check_limits, counted_stakes
from ..roulette.settle import Bet
from .core import NEXT_ANNOUNCEMENT, NEXT_BET, TableCore, timestamp
from .rows import bet_from_row, stake_from_row


class Betting(TableCore):
    """Announcements and bets (see the module docstring)."""

    def _parse(self, text: str, lang: str | None) -> tuple[Announcement, list[str]]:
        announcement = parse(text, lang or self.lang, self.house)
        return announcement, check_limits(announcement, self.house, self.on_layout())

    def open_stakes(self, leaving_out: int | None = None) -> list[tuple[Position, int, int]]:
        """What is on the layout now, summed by the database by position and prison level:
        (position, stake, prison level); with ``leaving_out``, without that
        announcement's.  A round's many bets are not read one by one.

        :raises TableError: a bet row that is not a bet of the game.
        """
        rows = self.store.rows(
            "SELECT kind, numbers, prison, SUM(amount) FROM bets WHERE table_id = :t"
            " AND status = 'open' AND announcement <> :aid GROUP BY kind, numbers, prison",
            aid=-1 if leaving_out is None else leaving_out,
        )
        return [stake_from_row(kind, numbers, amount, prison)
                for kind, numbers, prison, amount in rows]  # fmt: skip

    def on_layout(self, leaving_out: int | None = None) -> list[tuple[Position, Fraction]]:
        """Every player's stakes on the layout now, as they count towards each position's
        maximum (prison at the value still in play, where the house counts it); with
        ``leaving_out``, without that announcement's (see :meth:`open_stakes`).

        :raises TableError: a bet row that is not a bet of the game.
        """
        return counted_stakes(self.open_stakes(leaving_out), self.house)

    def limit_warnings(self, aid: int) -> list[str]:
        """What the house's limits say of a recorded announcement against the rest of the
        layout (a stake over the maximum, settled on the maximum and the excess handed
        back): every door says it when the bet is made."""
        _, announcement = self.announcement(aid)
        return check_limits(announcement, self.house, self.on_layout(leaving_out=aid))

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
        """(id, status) of the announcement recorded under an idempotency key, if any: a
        key answers with its own bet only while its round is not settled.

        :raises TableError: the key was used for another announcement.
        :raises InputError: the key was used in a round that is settled (a key is one
            bet's, not a shortcut to place the same bet again).
        """
        row = self.store.one(
            "SELECT id, status, player, text, round FROM announcements WHERE table_id = :t"
            " AND idem = :key", key=key,
        )  # fmt: skip
        if row is None:
            return None
        if (row[2], row[3]) != (player, text):
            raise TableError(said("key_used", key=key))
        if row[4] != self.round:
            raise InputError(said("key_settled", key=key, round=row[4]))
        return int(row[0]), str(row[1])

    def _insert_announcement(
        self, player: str, text: str, lang: str | None, a: Announcement, status: str,
        origin: str | None = None, key: str | None = None,
    ) -> int:  # fmt: skip
        aid = int(self.store.value(
            "INSERT INTO announcements (table_id, id, player, text, lang, notation, total,"
            f" round, status, origin, idem, created) VALUES (:t, {NEXT_ANNOUNCEMENT}, :player,"
            " :text, :lang, :notation, :total, :round, :status, :origin, :key, :now)"
            " RETURNING id",
            player=player, text=text, lang=lang or self.lang, notation=a.notation(),
            total=a.total, round=self.round, status=status, origin=origin, key=key, now=timestamp(),
        ))  # fmt: skip
        if status == "confirmed":
            self._insert_bets(aid, a.calls)
        return aid

    def _insert_bets(self, aid: int, calls: tuple[PlacedCall, ...]) -> None:
        round_no = self.round
        self.store.many(
            "INSERT INTO bets (table_id, id, announcement, call_index, call, kind, numbers,"
            f" amount, round, status) VALUES (:t, {NEXT_BET}, :aid, :i, :call, :kind, :numbers,"
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
        """An announcement as recorded (:meth:`announcements`).

        :raises TableError: no such announcement.
        """
        return self.announcement(aid)[1]

    def _stored(self, text: object, notation: object) -> Announcement:
        """An announcement from its stored row: the words said, and the calls as they
        were read back and placed (its notation: a later grammar cannot change a bet
        already made; and reading it costs a twentieth of parsing the words again)."""
        return Announcement(str(text), parse_notation(str(notation), self.house).calls)

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

    def open_bets(self, *, prison_only: bool = False) -> list[Bet]:
        """The bets on the layout now (prison included); ``prison_only``: only those in
        prison."""
        # the player by the announcement's key, bet by bet: a join would let PostgreSQL
        # hash the whole evening's announcements each time the layout is read
        rows = self.store.rows(
            "SELECT b.id, (SELECT a.player FROM announcements a WHERE a.table_id = b.table_id"
            " AND a.id = b.announcement), b.kind, b.numbers, b.amount, b.call, b.announcement,"
            " b.call_index, b.prison FROM bets b WHERE b.table_id = :t AND b.status = 'open'"
            + (" AND b.prison > 0" if prison_only else "")
            + " ORDER BY b.id"
        )
        return [bet_from_row(r) for r in rows]

    def placed(self) -> list[int]:
        """The announcements whose bets are on the layout this round (not in prison), in
        the order they were placed: one row an announcement, not one a bet (a screen
        showing a busy round would read hundreds of bets to list its announcements)."""
        rows = self.store.rows(
            "SELECT announcement FROM bets WHERE table_id = :t AND status = 'open'"
            " AND prison = 0 GROUP BY announcement ORDER BY MIN(id)"
        )
        return [int(aid) for (aid,) in rows]

    def announcement(self, aid: int) -> tuple[str, Announcement]:
        """(player, announcement as placed) of a recorded announcement.

        :raises TableError: no such announcement.
        """
        found = self.announcements([aid]).get(aid)
        if found is None:
            raise TableError(said("no_announcement", id=aid))
        return found

    def announcements(self, ids: Iterable[int]) -> dict[int, tuple[str, Announcement]]:
        """(player, announcement as placed) of several recorded announcements, by id, in
        one read (a screen reading a busy round's announcements one by one would make a
        round trip to the database for each); ids not recorded are left out."""
        return {aid: (player, self._stored(text, notation))
                for aid, player, text, notation in self.announcement_rows(ids)}  # fmt: skip

    def announcement_rows(self, ids: Iterable[int]) -> list[tuple[int, str, str, str]]:
        """(id, player, words said, notation as placed) of several recorded announcements,
        in one read, unparsed (a screen that has read a notation back before need not
        read it again); ids not recorded are left out."""
        wanted = set(ids)
        if not wanted:
            return []
        rows = self.store.rows(
            "SELECT id, player, text, notation FROM announcements WHERE table_id = :t"
            " AND id >= :low AND id <= :high",
            low=min(wanted), high=max(wanted),
        )  # fmt: skip
        return [(int(aid), str(player), str(text), str(notation))
                for aid, player, text, notation in rows if int(aid) in wanted]  # fmt: skip

    def pending(self) -> list[tuple[int, str, str]]:
        """Announcements waiting for confirmation: (id, player, text), oldest first."""
        rows = self.store.rows(
            "SELECT id, player, text FROM announcements WHERE table_id = :t"
            " AND status = 'pending' ORDER BY id"
        )
        return [(int(i), str(p), str(t)) for i, p, t in rows]
