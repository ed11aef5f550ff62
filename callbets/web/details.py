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
from .snapshot import colour

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
