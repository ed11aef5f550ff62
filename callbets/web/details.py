"""What a table page shows, read from the table opened read-only, in the floor's language.

The layout picture with the round's chips (:func:`callbets.pictures.svg.svg`, the wheel
with the covered numbers beside it); the round's bets, player by player, as the croupier
read them back (:func:`callbets.language.readback.readback`) and the announcements
waiting; the last spins with each player's settlement as the table stored it; the audit's
state; the evening's report once a spin has been played.  Words only: the page puts them
in as text.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..console.report import bet_name, plain, spin_summary
from ..console.report import evening as said_evening
from ..errors import TableError
from ..language.readback import readback
from ..messages import message_in, said, say_in
from ..pictures.svg import svg
from ..roulette.layout import Position
from ..table.table import Table
from ..table.watch import Proof
from .snapshot import Snapshot, colour

SHOWN_SPINS = 5
"""How many of the last spins a table page shows with their settlements."""


def table_details(
    table: Table,
    key: str,
    lang: str,
    proved: tuple[Proof | None, dict[str, Any] | None] = (None, None),
    read_back: dict[int, tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """Everything a table page shows (``/api/table/KEY``); ``svg`` is the picture's
    document, served on its own (``/table/KEY/picture.svg``).  ``proved``: the table's
    last proof and the evening's report made with it (the floor's
    :class:`~.prover.Prover` makes them; a page never replays an evening); the last
    spins as the table stored them (never settled again); announcements read back are
    kept in ``read_back``."""
    read_back = {} if read_back is None else read_back
    proof, report = proved
    return {
        "key": key,
        "table": table.name,
        "house": table.house.name,
        **_layout(table, lang, read_back),
        "spins": _spins(table, lang),
        "audit": _audit(proof, lang),
        "report": plain(said_evening(report, lang)).splitlines() if report else None,
    }


def _layout(table: Table, lang: str, read_back: dict[int, tuple[str, str]]) -> dict[str, Any]:
    """The round's bets by player as read back, the announcements waiting, the chips
    and the picture.  The layout is read summed by position, and the round's
    announcements one row each: a busy round's hundreds of bets are not read one by
    one for a screen."""
    placed = table.placed()
    new = set(placed) - set(read_back)
    found = table.announcements(new)  # one read for all the round's new announcements
    for aid in sorted(new):
        if aid not in found:
            raise TableError(said("no_announcement", id=aid))
        player, announcement = found[aid]
        read_back[aid] = player, f"#{aid} " + readback(announcement, lang, table.house)
    by_player: dict[str, list[str]] = {p: [] for p in table.players()}
    for b in table.open_bets(prison_only=True):  # from earlier rounds: placed first
        line = say_in(lang, "web_in_prison", bet=bet_name(b, lang), level=b.prison)
        by_player.setdefault(b.player, []).append(line)
    for aid in placed:
        player, line = read_back[aid]
        by_player.setdefault(player, []).append(line)
    pending = [
        say_in(lang, "web_waiting", id=aid, player=player, text=text)
        for aid, player, text in table.pending()
    ]
    chips: dict[Position, int] = {}
    for position, stake, _ in table.open_stakes():  # prison levels together, as drawn
        chips[position] = chips.get(position, 0) + stake
    return {
        "bets": [{"player": p, "lines": "\n".join(ls).splitlines()} for p, ls in by_player.items()],
        "pending": pending,
        "chips": [
            {"kind": p.kind.value, "numbers": list(p.numbers), "amount": a}
            for p, a in sorted(chips.items())
        ],
        "svg": svg(chips.items(), table.name),
    }


def _spins(table: Table, lang: str) -> list[dict[str, Any]]:
    """The last spins with each player's settlement, as the table stored them when it
    settled them (a round is not settled again for a screen)."""
    out = []
    for round_no, stored in table.recent_settlements(SHOWN_SPINS):
        try:
            data = json.loads(stored)
            number, lines = int(data["spin"]), plain(spin_summary(data, lang)).splitlines()
        except (ValueError, TypeError, KeyError, AttributeError, ArithmeticError):
            out.append({"round": round_no, "number": None, "colour": "",
                        "lines": [message_in(said("floor_settlement_unreadable",
                                                  round=round_no), lang)]})  # fmt: skip
            continue
        out.append({"round": round_no, "number": number, "colour": colour(number),
                    "lines": lines})  # fmt: skip
    return out


def _audit(proof: Proof | None, lang: str) -> dict[str, Any]:
    """The audit's state as the table's last proof found it."""
    if proof is None:
        return {"verifies": None, "said": say_in(lang, "web_audit_pending")}
    audit: dict[str, Any] = {"verifies": not proof.flags, "rows": proof.head.rows,
                             "head": str(proof.head)}  # fmt: skip
    if proof.flags:
        audit["problems"] = [message_in(f, lang) for f in proof.flags]
        audit["said"] = say_in(lang, "web_audit_bad", head=audit["head"])
    else:
        audit["said"] = say_in(lang, "web_audit_ok", rows=audit["rows"], head=audit["head"])
    return audit


@dataclass
class _Cached:
    version: int
    head: str
    details: dict[str, Any]


@dataclass
class Details:
    """A table page's details, read at most once per table and snapshot version, and
    computed again only when the table's audit head has moved (the proof and the report
    in them are the :class:`~.prover.Prover`'s, never made here)."""

    compute: Callable[[Table, str, dict[int, tuple[str, str]]], dict[str, Any]]
    """What a table page shows, from the table open read-only, its key and its
    announcements read back so far, by id (they never change: read back once)."""
    stamp: Callable[[Table], str] = lambda table: str(table.head())
    """What, when it moves, makes the details be read again (the audit's head, and the
    time of the table's last proof)."""
    _cache: dict[str, _Cached] = field(default_factory=dict)
    _readbacks: dict[str, dict[int, tuple[str, str]]] = field(default_factory=dict)
    _locks: dict[str, threading.Lock] = field(default_factory=dict)
    _guard: threading.Lock = field(default_factory=threading.Lock)

    def of(self, snapshot: Snapshot, key: str) -> dict[str, Any] | None:
        """The details of table ``key`` (None: no such readable table on the floor)."""
        location = snapshot.locations.get(key)
        if location is None:
            return None
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:  # twenty pages asking at once: one reads, the others wait for it
            cached = self._cache.get(key)
            if cached is not None and cached.version == snapshot.version:
                return {**cached.details, "version": snapshot.version}
            with Table.open(location, write=False, checked=False, kept=True) as table:
                head = self.stamp(table)
                if cached is None or cached.head != head:
                    read = self._readbacks.setdefault(key, {})
                    cached = _Cached(snapshot.version, head,
                                     self.compute(table, key, read))  # fmt: skip
                cached.version = snapshot.version
            self._cache[key] = cached
            return {**cached.details, "version": snapshot.version}
