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

:class:`Table` is one class built of one module per concern, each a subclass of the one
before: :mod:`.core` (store, audit, transactions, players), :mod:`.betting`
(announcements and bets), :mod:`.spins` (settlement), :mod:`.replays`; this module opens
and creates tables and reads their state, audit and books.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import TableError
from ..messages import said
from ..roulette.house import find_house, house_profile
from .books import Verification, verify
from .chain import Head, audit_key, check_head, head_of, key_check
from .core import data_folder, default_path, make_data_folder, money, terminal, timestamp
from .locations import create_store, open_store
from .replays import Replaying
from .spins import SpinReport
from .sqlite import FORMAT

if TYPE_CHECKING:
    from _typeshed import SupportsWrite


class Table(Replaying):
    """A persistent roulette table.  Open one with :meth:`create` or :meth:`open`, at a
    path (an SQLite file) or a URL (``postgresql://…/casino?table=T12``).

    Every method turns a database error (a locked, read-only, damaged or unreachable
    database) into a :class:`TableError` with the reason in a croupier's words.
    """

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
        profile = house_profile(house_name)  # what it extends written in
        if isinstance(location, Path) and location.parent == data_folder():
            make_data_folder()  # callbets' own folder is made on first use (owner-only)
        store = create_store(location)
        table = cls.__new__(cls)
        table.store, table.location, table.writable = store, store.label, True
        table.who = {"terminal": terminal()}
        table.as_croupier(croupier)
        uid, key = uuid.uuid4().hex, audit_key()
        with table._transaction():
            meta = {
                "format": FORMAT,
                "house": house.name,
                "house_profile": json.dumps(profile),
                "lang": lang,
                "state": "open",
                "round": "1",
                "created": timestamp(),
                "uid": uid,
            }
            if key is not None:
                meta["key_check"] = key_check(key, uid)
            store.many(
                "INSERT INTO meta (table_id, key, value) VALUES (:t, :key, :value)",
                [{"key": k, "value": v} for k, v in meta.items()],
            )
            table._audit("open", house=house.name, lang=lang, file=store.label, uid=uid,
                         keyed=key is not None)  # fmt: skip
        return cls(store).as_croupier(croupier)

    @classmethod
    def open(
        cls, location: str | Path, write: bool = True, checked: bool = True, kept: bool = False
    ) -> Table:
        """Open an existing table (a file or a URL); ``write=False`` opens it read-only;
        ``checked=False`` skips SQLite's quick check of the whole file (a floor looking
        every 2 s at a table it proves apart); ``kept=True`` (read-only) reads a
        PostgreSQL table on a connection the calling thread keeps open for its database
        (a floor opening the same tables every few seconds).

        Nothing is written to a database before it is known to hold a callbets table.

        :raises TableError: no such table, not a callbets table, damaged, locked, or
            unreachable.
        """
        return cls(open_store(location, write, checked, kept))

    # ---- reading -------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """Everything a status line or a script needs to know."""
        bets = self.open_bets()
        by_player: dict[str, Any] = {
            p: {"staked": 0, "prison": 0, "bets": []} for p in self.players()
        }
        for b in bets:
            # a bet whose player is not seated (a row edited by hand) is still counted
            entry = by_player.setdefault(b.player, {"staked": 0, "prison": 0, "bets": []})
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
            "betting": self.betting,
            "round": self.round,
            "spins": [{"round": r, "number": n} for r, n in spins],
            "players": by_player,
            "staked": sum(b.amount for b in bets if not b.prison),
            "prison": sum(b.amount for b in bets if b.prison),
        }

    def export_audit(self, out: SupportsWrite[str]) -> int:
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
        """Recompute the audit chain and the books, and prove the state from the audit
        (read-only).

        :raises AuditKeyError: the table is keyed and its key is not set.
        """
        return verify(self.store, self.house)

    @property
    def uid(self) -> str:
        """The table's identity (its location, for a table made before tables had one)."""
        if self._uid is None:  # read once it is there (never changed once written)
            self._uid = self._meta_or_none("uid")
        return self._uid or self.location

    @property
    def keyed(self) -> bool:
        """True for a table whose audit is keyed (an HMAC chain)."""
        return self._meta_or_none("key_check") is not None

    def head(self) -> Head:
        """Where the audit chain stands now (to keep outside the table)."""
        return head_of(self.store.rows(
            "SELECT id, ts, kind, payload, hash FROM audit WHERE table_id = :t"
            " ORDER BY id DESC LIMIT 1"))  # fmt: skip

    def check_head(self, kept: Head) -> str:
        """Whether the audit still holds a head kept earlier: "" when it does, else
        ``cut`` or ``rewritten`` (:func:`~callbets.table.chain.check_head`)."""
        return check_head(self.store.rows(  # that row alone, not the whole log
            "SELECT id, ts, kind, payload, hash FROM audit WHERE table_id = :t AND id = :seq",
            seq=kept.rows), kept)  # fmt: skip


__all__ = ["SpinReport", "Table", "data_folder", "default_path", "money", "terminal"]
