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
    previous: dict[str, Any] | None = None,
    read_back: dict[int, str] | None = None,
) -> dict[str, Any]:
    """Everything a table page shows (``/api/table/KEY``); ``svg`` is the picture's
    document, served on its own (``/table/KEY/picture.svg``).  ``proved``: the table's
    last proof and the evening's report made with it (the floor's
    :class:`~.prover.Prover` makes them; a page never replays an evening).  The last
    spins are kept from ``previous`` details while no spin has been played since, and
    announcements read back are kept in ``read_back``."""
    read_back = {} if read_back is None else read_back
    proof, report = proved
    return {
        "key": key,
        "table": table.name,
        "house": table.house.name,
        **_layout(table, lang, read_back),
        "spins": _spins(table, lang, previous),
        "audit": _audit(proof, lang),
        "report": plain(said_evening(report, lang)).splitlines() if report else None,
    }


def _layout(table: Table, lang: str, read_back: dict[int, str]) -> dict[str, Any]:
    """The round's bets by player as read back, the announcements waiting, the chips
    and the picture."""
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
            if aid not in read_back:
                _, announcement = table.announcement(aid)
                read_back[aid] = f"#{aid} " + readback(announcement, lang, table.house)
            lines.append(read_back[aid])
    pending = [
        say_in(lang, "web_waiting", id=aid, player=player, text=text)
        for aid, player, text in table.pending()
    ]
    chips = [(b.position, b.amount) for b in bets]
    return {
        "bets": [{"player": p, "lines": "\n".join(ls).splitlines()} for p, ls in by_player.items()],
        "pending": pending,
        "chips": [
            {"kind": p.kind.value, "numbers": list(p.numbers), "amount": a} for p, a in chips
        ],
        "svg": svg(chips, table.name),
    }


def _spins(table: Table, lang: str, previous: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The last spins with their settlements: a spin shown before is kept as it was (a
    settled round never changes), only a new one is settled again to be shown."""
    shown = {s["round"]: s for s in previous["spins"]} if previous is not None else {}
    out = []
    for round_no in table.recent_rounds(SHOWN_SPINS):
        if round_no not in shown and (r := table.spin_report(round_no)) is not None:
            shown[round_no] = {
                "round": r.round, "number": r.settlement.number,
                "colour": colour(r.settlement.number),
                "lines": plain(spin(r, table.house, lang)).splitlines(),
            }  # fmt: skip
        if round_no in shown:
            out.append(shown[round_no])
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
