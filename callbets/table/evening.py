"""The evening's report: what a pit boss signs at the end of a shift.

Spins played; staked (each stake once, when placed: not again while it waits in prison),
returned and net per player and for the table; what went to prison
and what became of it (freed, lost, handed back, still there; once the evening has ended,
what is still there comes to what the house says, ``zero.prison_at_close``, and is
counted so: handed back to its player, or kept by the bank); stakes over the maximum
handed back; replays; the croupiers who acted; and whether the audit verifies, with its
head to keep.  Every figure is read from the table's settled rounds (each settled again
by the settlement code, as ``verify`` does) and its audit log; nothing is written.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from fractions import Fraction
from typing import Any

from ..roulette.settle import Outcome, at_close
from .core import money
from .table import Table


def evening(table: Table, audit: dict[str, Any] | None = None) -> dict[str, Any]:
    """The report of a table's evening so far (complete once its last spin is played),
    as data (``callbets table report --json``); ``audit``: the audit's state as proved
    already (``verifies``, ``rows``, ``head``), else the table is proved now."""
    players: dict[str, dict[str, Fraction]] = defaultdict(
        lambda: {"staked": Fraction(0), "returned": Fraction(0)}
    )
    prison: Counter[str] = Counter()
    handed: dict[str, Fraction] = defaultdict(Fraction)
    rounds = table.spins()
    for spin in rounds:
        for outcome in spin.settlement.outcomes:
            player = players[outcome.bet.player]
            if not outcome.bet.prison:  # a stake in prison was staked once, when placed
                player["staked"] += outcome.bet.amount
            player["returned"] += outcome.returned
            _prison(outcome, prison)
            if outcome.excess:
                handed[outcome.bet.player] += outcome.excess
    still = sum(b.amount for b in table.open_bets() if b.prison)
    closing = _at_close(table, players) if table.ended else None
    if closing is not None:
        still = 0
    if audit is None:
        verified = table.verify()
        audit = {"verifies": verified.ok, "rows": verified.chain.rows, "head": str(table.head())}
    return {
        "table": table.name,
        "house": table.house.name,
        "lang": table.lang,
        "spins": len(rounds),
        "ended": table.ended,
        "players": {
            name: {
                "staked": money(p["staked"]),
                "returned": money(p["returned"]),
                "net": money(p["returned"] - p["staked"]),
            }
            for name, p in sorted(players.items())
        },
        "staked": money(sum((p["staked"] for p in players.values()), Fraction(0))),
        "returned": money(sum((p["returned"] for p in players.values()), Fraction(0))),
        "net": money(sum((p["returned"] - p["staked"] for p in players.values()), Fraction(0))),
        "prison": {
            **{k: money(v) for k, v in sorted(prison.items())},
            "still": still,
            **({"at_close": closing} if closing is not None else {}),
        },
        "handed_back": {name: money(v) for name, v in sorted(handed.items())},
        "replays": dict(sorted(_replays(table).items())),
        "croupiers": _croupiers(table),
        "audit": audit,
    }


def _at_close(table: Table, players: dict[str, dict[str, Fraction]]) -> dict[str, Any] | None:
    """The stakes still in prison at the end of the evening, come to what the house says:
    each player's share added to what was returned; what the bank keeps (None: there were
    none)."""
    imprisoned = [bet for bet in table.open_bets() if bet.prison]
    if not imprisoned:
        return None
    back = Fraction(0)
    for bet in imprisoned:
        outcome = at_close(bet, table.house)
        players[bet.player]["returned"] += outcome.returned
        back += outcome.returned
    kept = sum((Fraction(bet.amount) for bet in imprisoned), Fraction(0)) - back
    return {"rule": table.house.zero.prison_at_close, "handed_back": money(back),
            "bank": money(kept)}  # fmt: skip


def _money(amounts: dict[str, Fraction]) -> dict[str, int | float]:
    """A player's staked, returned and net (a stake still in prison is not returned)."""
    staked, returned = amounts["staked"], amounts["returned"]
    return {"staked": money(staked), "returned": money(returned), "net": money(returned - staked)}


def _prison(outcome: Outcome, prison: Counter[str]) -> None:
    """Count what prison did this spin: stakes sent there, and stakes that left it
    (freed, lost, handed back half or at the last spin)."""
    amount = outcome.bet.amount
    if not outcome.bet.prison:
        if outcome.result == "prison":
            prison["imprisoned"] += amount
        return
    if outcome.kept is not None:
        return  # still there (deeper, or waiting)
    if outcome.result == "won":
        prison["freed"] += amount
    elif outcome.returned:
        prison["handed_back"] += amount
    else:
        prison["lost"] += amount


def _replays(table: Table) -> Counter[str]:
    """Replays played, by kind (refaire, completer, tout), from the audit: one dropped at
    its readback or undone is not counted."""
    rows = table.store.rows("SELECT payload FROM audit WHERE table_id = :t AND kind = 'replay'")
    played = {int(aid) for (aid,) in table.store.rows(
        "SELECT id FROM announcements WHERE table_id = :t AND status = 'confirmed'"
        " AND origin LIKE :replays", replays="replay:%")}  # fmt: skip
    events = [_payload(p) for (p,) in rows]
    kept = [e for e in events if e.get("new_announcement", -1) in played]
    return Counter(str(e.get("replay", "?")) for e in kept)


def _croupiers(table: Table) -> list[str]:
    """Who acted, in the order they first did (from every audit row)."""
    seen: dict[str, None] = {}
    for _seq, _ts, _kind, payload, _hash in table.store.audit_rows():
        by = _payload(payload).get("by")
        name = by.get("croupier") if isinstance(by, dict) else None
        if isinstance(name, str):
            seen.setdefault(name, None)
    return list(seen)


def _payload(text: object) -> dict[str, Any]:
    try:
        found = json.loads(str(text))
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}
