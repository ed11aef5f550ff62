"""The books of a table checked again from its rows: what ``callbets table verify`` runs
besides the audit chain.  Read-only."""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..messages import Said, said
from ..roulette.house import House
from ..roulette.settle import settle
from .chain import ChainCheck, Head, check_chain, genesis, table_key
from .proof import prove
from .rows import settled_bets
from .store import Store


@dataclass(frozen=True)
class Verification:
    """What ``callbets table verify`` found."""

    chain: ChainCheck
    """The audit log's hash chain."""
    problems: tuple[Said, ...]
    """Every inconsistency in the books, first one first (empty when they balance)."""
    spins: int
    """Spins checked."""
    replayed: tuple[Said, ...] = ()
    """Where the state differs from the one its audit log gives when replayed
    (:mod:`.proof`), first one first (empty when it is that state)."""
    notes: tuple[Said, ...] = ()
    """What the chain proves less of, though it verifies: rows chained by an upgrade,
    not when they were written."""

    @property
    def ok(self) -> bool:
        """True when the chain verifies, the books balance and the state is the one the
        audit gives."""
        return self.chain.ok and not self.problems and not self.replayed


def verify(store: Store, house: House) -> Verification:
    """Recompute the audit chain and the books of a table, from its rows, and replay its
    audit to prove its state; every row read at one moment, whatever other terminals
    write meanwhile."""
    with store.reading():
        return _verify(store, house)


def _verify(store: Store, house: House) -> Verification:
    header = _header(store)
    chain = table_chain(store, header)
    problems = [*_announcements(store), *_settlements(store, house)]
    spins = store.value("SELECT count(*) FROM spins WHERE table_id = :t")
    return Verification(chain, tuple(problems), int(spins), prove(store, header),
                        tuple(_upgrades(store)))  # fmt: skip


def _upgrades(store: Store) -> list[Said]:
    """Each upgrade that chained rows written before the chain: those rows prove only
    that nothing changed since the upgrade."""
    out: list[Said] = []
    for seq, ts, payload in store.rows(
        "SELECT id, ts, payload FROM audit WHERE table_id = :t AND kind = 'upgrade' ORDER BY id"
    ):
        try:
            chained = int(json.loads(payload).get("chained", 0))
        except (ValueError, TypeError, AttributeError):
            continue  # the chain or the replay names a damaged row
        if chained:
            out.append(said("verify_upgraded", rows=chained, seq=seq, when=ts))
    return out


def _header(store: Store) -> dict[str, str]:
    return {
        str(k): str(v) for k, v in store.rows("SELECT key, value FROM meta WHERE table_id = :t")
    }


def table_chain(
    store: Store, header: dict[str, str] | None = None, after: Head | None = None
) -> ChainCheck:
    """Check a table's audit chain from its identity, with its key; ``after``: a head
    (its full hash) up to which the chain was checked already: only the rows after it
    are, when the row it names still holds that hash (else the whole chain is).

    :raises AuditKeyError: the table is keyed and its key is not set (or another is); a
        table opened without a key is checked without one, whatever the environment.
    """
    header = header if header is not None else _header(store)
    key = table_key(header.get("uid"), header.get("key_check"), writing=False)
    if after is not None and after.rows > 0:
        rows = store.rows(
            "SELECT id, ts, kind, payload, hash FROM audit WHERE table_id = :t AND id >= :seq "
            "ORDER BY id",
            seq=after.rows,
        )
        if rows and rows[0][0] == after.rows and rows[0][4] == after.hash:
            more = check_chain(rows[1:], key, after.hash, after.rows + 1)
            return ChainCheck(after.rows + more.rows, more.first_bad, more.reason, more.head)
    return check_chain(store.audit_rows(), key, genesis(header.get("uid")))


def _announcements(store: Store) -> list[Said]:
    """Each confirmed announcement's bets add up to its total."""
    out: list[Said] = []
    rows = store.rows(
        "SELECT a.id, a.total, coalesce(sum(b.amount), 0) FROM announcements a"
        " LEFT JOIN bets b ON b.table_id = a.table_id AND b.announcement = a.id"
        " AND b.prison = 0"
        " WHERE a.table_id = :t AND a.status IN ('confirmed', 'undone', 'cleared')"
        " GROUP BY a.id, a.total ORDER BY a.id"
    )
    for aid, total, placed in rows:
        if total != placed:
            out.append(said("books_total", id=aid, placed=placed, total=total))
    return out


def _settlements(store: Store, house: House) -> list[Said]:
    """Each spin settled once, its stored totals those of its bets settled again."""
    out: list[Said] = []
    settled_twice = store.rows(
        "SELECT bet, count(*) FROM outcomes WHERE table_id = :t GROUP BY bet HAVING count(*) > 1"
    )
    out += [said("books_settled_twice", bet=bet, times=n) for bet, n in settled_twice]
    for round_no, number, report in store.rows(
        "SELECT round, number, report FROM spins WHERE table_id = :t ORDER BY round"
    ):
        try:
            stored = json.loads(report)
            bets = settled_bets(store, round_no)
            again = settle(bets, number, house, stored.get("choices", {}),
                           stored.get("last_spin", False))  # fmt: skip
        except (ValueError, KeyError, TypeError) as err:
            out.append(said("books_report_unreadable", round=round_no, reason=err))
            continue
        for what, value in (("staked", again.staked()), ("returned", again.returned())):
            if stored.get(what) != (int(value) if value.denominator == 1 else float(value)):
                out.append(said("books_spin", round=round_no, field=said(f"field_{what}"),
                                books=stored.get(what), bets=value))  # fmt: skip
    return out
