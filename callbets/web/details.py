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


def table_details(table: Table, key: str, lang: str) -> dict[str, Any]:
    """Everything a table page shows (``/api/table/KEY``); ``svg`` is the picture's
    document, served on its own (``/table/KEY/picture.svg``)."""
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
    reports = table.spins()
    spins = [
        {"round": r.round, "number": r.settlement.number,
         "colour": colour(r.settlement.number),
         "lines": plain(spin(r, table.house, lang)).splitlines()}
        for r in reversed(reports[-SHOWN_SPINS:])
    ]  # fmt: skip
    report = evening(table) if reports else None
    if report is not None:
        audit = report["audit"]
    else:
        found = table.verify()
        audit = {"verifies": found.ok, "rows": found.chain.rows, "head": str(table.head())}
        if not found.ok:
            problems = [*found.problems, *found.replayed]
            audit["problems"] = [message_in(p, lang) for p in problems]
    audit["said"] = (
        say_in(lang, "web_audit_ok", rows=audit["rows"], head=audit["head"])
        if audit["verifies"]
        else say_in(lang, "web_audit_bad", head=audit["head"])
    )
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
        "report": plain(said_evening(report, lang)).splitlines() if report else None,
        "svg": svg(chips, table.name),
    }
