"""What a table page shows, read from the table opened read-only, in the floor's language.

The layout picture with the round's chips (:func:`callbets.pictures.svg.svg`, the wheel
with the covered numbers beside it); the round's bets, player by player, as the croupier
read them back (:func:`callbets.language.readback.readback`) and the announcements
waiting; the last spins with their settlements as the console says them; the audit's
state; the evening's report once a spin has been played.  Words only: the page puts them
in as text.
"""

from __future__ import annotations

from typing import Any

from ..console.report import bet_name, plain, spin
from ..console.report import evening as said_evening
from ..language.readback import readback
from ..messages import message_in, say_in
from ..pictures.svg import svg
from ..table.evening import evening
from ..table.table import Table
from .snapshot import colour

SHOWN_SPINS = 5
"""How many of the last spins a table page shows with their settlements."""


def table_details(
    table: Table, key: str, lang: str, previous: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Everything a table page shows (``/api/table/KEY``); ``svg`` is the picture's
    document, served on its own (``/table/KEY/picture.svg``).  The audit's proof and the
    evening's report (which replay the whole evening) are made afresh, or taken from
    ``previous`` details when they were made a moment ago."""
    bets = table.open_bets()
    by_player: dict[str, list[str]] = {p: [] for p in table.players()}
    read: set[int] = set()
    for b in bets:
        lines = by_player.setdefault(b.player, [])
        if b.prison:
            lines.append(say_in(lang, "web_in_prison", bet=bet_name(b, lang), level=b.prison))
            continue
        aid = int(b.group.split(".")[0])
        if aid not in read:
            read.add(aid)
            _, announcement = table.announcement(aid)
            lines.append(f"#{aid} " + readback(announcement, lang, table.house))
    pending = [
        say_in(lang, "web_waiting", id=aid, player=player, text=text)
        for aid, player, text in table.pending()
    ]
    recent = table.recent_spins(SHOWN_SPINS)
    spins = [
        {"round": r.round, "number": r.settlement.number,
         "colour": colour(r.settlement.number),
         "lines": plain(spin(r, table.house, lang)).splitlines()}
        for r in recent
    ]  # fmt: skip
    if previous is not None:  # proved a moment ago: the same proof until the next
        audit, report = previous["audit"], previous["report"]
    else:
        audit, report = _proof(table, lang, bool(recent))
    chips = [(b.position, b.amount) for b in bets]
    return {
        "key": key,
        "table": table.name,
        "house": table.house.name,
        "bets": [{"player": p, "lines": "\n".join(ls).splitlines()} for p, ls in by_player.items()],
        "pending": pending,
        "chips": [
            {"kind": p.kind.value, "numbers": list(p.numbers), "amount": a} for p, a in chips
        ],
        "spins": spins,
        "audit": audit,
        "report": report,
        "svg": svg(chips, table.name),
    }


def _proof(table: Table, lang: str, played: bool) -> tuple[dict[str, Any], list[str] | None]:
    """The audit's state (the table proved from its audit, as ``table verify`` does) and
    the evening's report as lines (None before the first spin)."""
    data = evening(table) if played else None
    found = table.verify() if data is None or not data["audit"]["verifies"] else None
    audit: dict[str, Any] = dict(data["audit"]) if data is not None else {}
    if found is not None:
        audit.setdefault("verifies", found.ok)
        audit.setdefault("rows", found.chain.rows)
        audit.setdefault("head", str(table.head()))
        if not found.ok:
            audit["problems"] = [message_in(p, lang) for p in [*found.problems, *found.replayed]]
    audit["said"] = (
        say_in(lang, "web_audit_ok", rows=audit["rows"], head=audit["head"])
        if audit["verifies"]
        else say_in(lang, "web_audit_bad", head=audit["head"])
    )
    return audit, plain(said_evening(data, lang)).splitlines() if data else None
