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
from ..roulette.announcement import parse_notation
from ..roulette.layout import Position
from ..table.table import Table
from ..table.watch import Proof
from .snapshot import Snapshot, colour

SHOWN_SPINS = 5
"""How many of the last spins a table page shows with their settlements."""
NOTATIONS_KEPT = 2048
"""Read-backs kept by notation, a table (a table hears the same few dozen bets all
evening)."""


@dataclass
class ReadBack:
    """What a table page has read back so far, kept between two reads of its table (an
    announcement, a notation and a stored settlement never change once written)."""

    by_id: dict[int, tuple[str, str]] = field(default_factory=dict)
    """(player, lines read back) of the announcements on the layout."""
    by_notation: dict[str, str] = field(default_factory=dict)
    """The lines read back for a notation (the same bet announced again)."""
    spins: dict[int, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    """A settled round shown: the settlement as stored, and what the page shows of it."""


def table_details(
    table: Table,
    key: str,
    lang: str,
    proved: tuple[Proof | None, dict[str, Any] | None] = (None, None),
    read_back: ReadBack | None = None,
) -> dict[str, Any]:
    """Everything a table page shows (``/api/table/KEY``); ``svg`` is the picture's
    document, served on its own (``/table/KEY/picture.svg``).  ``proved``: the table's
    last proof and the evening's report made with it (the floor's
    :class:`~.prover.Prover` makes them; a page never replays an evening); the last
    spins as the table stored them (never settled again); announcements read back are
    kept in ``read_back``."""
    read_back = ReadBack() if read_back is None else read_back
    proof, report = proved
    return {
        "key": key,
        "table": table.name,
        "house": table.house.name,
        **_layout(table, lang, read_back),
        "spins": _spins(table, lang, read_back.spins),
        "audit": _audit(proof, lang),
        "report": plain(said_evening(report, lang)).splitlines() if report else None,
    }


def _layout(table: Table, lang: str, read_back: ReadBack) -> dict[str, Any]:
    """The round's bets by player as read back, the announcements waiting, the chips
    and the picture.  The layout is read summed by position, and the round's
    announcements one row each: a busy round's hundreds of bets are not read one by
    one for a screen."""
    placed = table.placed()
    _read_back(table, lang, read_back, placed)
    by_player: dict[str, list[str]] = {p: [] for p in table.players()}
    for b in table.open_bets(prison_only=True):  # from earlier rounds: placed first
        line = say_in(lang, "web_in_prison", bet=bet_name(b, lang), level=b.prison)
        by_player.setdefault(b.player, []).append(line)
    for aid in placed:
        player, line = read_back.by_id[aid]
        by_player.setdefault(player, []).append(f"#{aid} {line}")
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
        "svg": svg(chips.items(), table.name, lang),
    }


def _read_back(table: Table, lang: str, read_back: ReadBack, placed: list[int]) -> None:
    """Read back the announcements placed that have not been yet (one read for them all;
    a notation read back before is not read again); forget those no longer placed."""
    new = set(placed) - set(read_back.by_id)
    found = {aid: (player, notation) for aid, player, _, notation
             in table.announcement_rows(new)}  # fmt: skip
    for aid in sorted(new):
        if aid not in found:
            raise TableError(said("no_announcement", id=aid))
        player, notation = found[aid]
        line = read_back.by_notation.get(notation)
        if line is None:
            line = readback(parse_notation(notation, table.house), lang, table.house)
            if len(read_back.by_notation) >= NOTATIONS_KEPT:
                read_back.by_notation.clear()
            read_back.by_notation[notation] = line
        read_back.by_id[aid] = player, line
    for gone in set(read_back.by_id) - set(placed):
        del read_back.by_id[gone]


def _spins(
    table: Table, lang: str, shown: dict[int, tuple[str, dict[str, Any]]]
) -> list[dict[str, Any]]:
    """The last spins with each player's settlement, as the table stored them when it
    settled them (a round is not settled again for a screen; one already shown, as
    ``shown`` keeps it, is not written again)."""
    recent = table.recent_settlements(SHOWN_SPINS)
    for gone in set(shown) - {round_no for round_no, _ in recent}:
        del shown[gone]
    out = []
    for round_no, stored in recent:
        kept = shown.get(round_no)
        if kept is None or kept[0] != stored:
            kept = stored, _spin(round_no, stored, lang)
            shown[round_no] = kept
        out.append(kept[1])
    return out


def _spin(round_no: int, stored: str, lang: str) -> dict[str, Any]:
    """A settled round as the page shows it, from the settlement stored."""
    try:
        data = json.loads(stored)
        number, lines = int(data["spin"]), plain(spin_summary(data, lang)).splitlines()
    except (ValueError, TypeError, KeyError, AttributeError, ArithmeticError):
        unreadable = message_in(said("floor_settlement_unreadable", round=round_no), lang)
        return {"round": round_no, "number": None, "colour": "", "lines": [unreadable]}
    return {"round": round_no, "number": number, "colour": colour(number), "lines": lines}


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

    compute: Callable[[Table, str, ReadBack], dict[str, Any]]
    """What a table page shows, from the table open read-only, its key and what its
    page has read back so far (:class:`ReadBack`)."""
    stamp: Callable[[Table], str] = lambda table: str(table.head())
    """What, when it moves, makes the details be read again (the audit's head, and the
    time of the table's last proof)."""
    _cache: dict[str, _Cached] = field(default_factory=dict)
    _readbacks: dict[str, ReadBack] = field(default_factory=dict)
    _locks: dict[str, threading.Lock] = field(default_factory=dict)
    _guard: threading.Lock = field(default_factory=threading.Lock)

    def kept(self, snapshot: Snapshot, key: str) -> dict[str, Any] | None:
        """The details of table ``key`` when they have been read at this version already
        (None: they have not); without waiting, so an event loop may ask."""
        cached = self._cache.get(key)
        if cached is None or cached.version != snapshot.version:
            return None
        return {**cached.details, "version": snapshot.version}

    def of(self, snapshot: Snapshot, key: str) -> dict[str, Any] | None:
        """The details of table ``key`` (None: no such readable table on the floor)."""
        location = snapshot.locations.get(key)
        if location is None:
            return None
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:  # twenty pages asking at once: one reads, the others wait for it
            found = self.kept(snapshot, key)
            if found is not None:
                return found
            cached = self._cache.get(key)
            with Table.open(location, write=False, checked=False, kept=True) as table:
                head = self.stamp(table)
                if cached is None or cached.head != head:
                    read = self._readbacks.setdefault(key, ReadBack())
                    cached = _Cached(snapshot.version, head,
                                     self.compute(table, key, read))  # fmt: skip
                cached.version = snapshot.version
            self._cache[key] = cached
            return {**cached.details, "version": snapshot.version}
