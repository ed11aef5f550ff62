"""The books of a table checked again from its rows: what ``callbets table verify`` runs
besides the audit chain.  Read-only."""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..roulette.house import House
from ..roulette.settle import settle
from .chain import ChainCheck, audit_key, check_chain
from .rows import settled_bets
from .store import Store


@dataclass(frozen=True)
class Verification:
    """What ``callbets table verify`` found."""

    chain: ChainCheck
    """The audit log's hash chain."""
    problems: tuple[str, ...]
    """Every inconsistency in the books, first one first (empty when they balance)."""
    spins: int
    """Spins checked."""

    @property
    def ok(self) -> bool:
        """True when the chain verifies and the books balance."""
        return self.chain.ok and not self.problems


def verify(store: Store, house: House) -> Verification:
    """Recompute the audit chain and the books of a table, from its rows."""
    chain = check_chain(store.audit_rows(), audit_key())
    problems = [*_announcements(store), *_settlements(store, house)]
    spins = store.value("SELECT count(*) FROM spins WHERE table_id = :t")
    return Verification(chain, tuple(problems), int(spins))


def _announcements(store: Store) -> list[str]:
    """Each confirmed announcement's bets add up to its total."""
    out = []
    rows = store.rows(
        "SELECT a.id, a.total, coalesce(sum(b.amount), 0) FROM announcements a"
        " LEFT JOIN bets b ON b.table_id = a.table_id AND b.announcement = a.id"
        " AND b.prison = 0"
        " WHERE a.table_id = :t AND a.status IN ('confirmed', 'undone', 'cleared')"
        " GROUP BY a.id, a.total ORDER BY a.id"
    )
    for aid, total, placed in rows:
        if total != placed:
            out.append(f"announcement {aid}: its bets add up to {placed}, not {total}")
    return out


def _settlements(store: Store, house: House) -> list[str]:
    """Each spin settled once, its stored totals those of its bets settled again."""
    out = []
    settled_twice = store.rows(
        "SELECT bet, count(*) FROM outcomes WHERE table_id = :t GROUP BY bet HAVING count(*) > 1"
    )
    out += [f"bet {bet} was settled {n} times" for bet, n in settled_twice]
    for round_no, number, report in store.rows(
        "SELECT round, number, report FROM spins WHERE table_id = :t ORDER BY round"
    ):
        try:
            stored = json.loads(report)
            bets = settled_bets(store, round_no)
            again = settle(bets, number, house, stored.get("choices", {}),
                           stored.get("last_spin", False))  # fmt: skip
        except (ValueError, KeyError, TypeError) as err:
            out.append(f"spin of round {round_no}: its report cannot be read ({err})")
            continue
        for what, value in (("staked", again.staked()), ("returned", again.returned())):
            if stored.get(what) != (int(value) if value.denominator == 1 else float(value)):
                out.append(
                    f"spin of round {round_no}: {what} {stored.get(what)} in the books, "
                    f"{value} from its bets"
                )
    return out
