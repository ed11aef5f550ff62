"""What the floor remembers between two looks at the tables: the last head of each
table's audit it saw (kept in an anchor file, :mod:`.anchor`, so a restarted floor
remembers too), and the last proof it made of each (:func:`~callbets.table.books.verify`:
the chain, the books, the state replayed from the audit).

A table whose audit no longer holds the head the floor saw was cut or rewritten behind
callbets' back: flagged, and that head is kept (the flag stays until someone looks).
Proving a table replays its whole evening (about 2 s for 300 spins), so a table is
proved again only when its head has moved, and at most every :data:`PROVE_EVERY`
seconds; in between, its chain is checked at every look.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import AuditKeyError, CallbetsError
from ..messages import Said, said
from .anchor import kept_heads, kept_lines, place, record_head
from .books import table_chain
from .chain import Head
from .table import Table

PROVE_EVERY = 60.0
"""Least seconds between two proofs of the same table (its chain is checked each time)."""
SHOWN_DIFFERENCES = 3
"""Differences of a proof shown as flags (the rest counted; ``table verify`` lists all)."""


@dataclass
class Proof:
    """The last proof of a table: at which head, when, and what it found."""

    head: Head
    at: float
    flags: list[str]


@dataclass
class Watch:
    """The floor's memory of every table (see the module docstring)."""

    anchor: Path | None = None
    """Where the heads seen are kept (None: in memory only)."""
    prove_every: float = PROVE_EVERY
    proving: bool = True
    """Whether a look proves a table that is due (False: proofs are made apart, by
    :meth:`prove`, and a look only uses the last one and checks the chain)."""
    seen: dict[str, Head] = field(default_factory=dict)
    checked: dict[str, Head] = field(default_factory=dict)
    """How far each table's chain was found good (full hash): a look checks the rows
    after it only (a proof checks the whole chain again)."""
    proofs: dict[str, Proof] = field(default_factory=dict)
    places: dict[str, str] = field(default_factory=dict)
    """Which table (its uid) was first seen at each location, and seen there since."""

    def flags(self, table: Table) -> list[str]:
        """What a pit boss must know about a table's audit now (and that another table
        now lives where one was seen before)."""
        return self._replaced(table) + self._audit_flags(table)

    def _replaced(self, table: Table) -> list[str]:
        where = str(table.location)
        if where not in self.places and self.anchor is not None:  # a restarted floor
            with contextlib.suppress(CallbetsError):  # an anchor it cannot read: the audit says
                here = [k.uid for k in kept_lines(self.anchor) if k.location == place(where)]
                if here:
                    self.places[where] = here[-1]
        first = self.places.setdefault(where, table.uid)
        if first == table.uid:
            return []
        return [said("floor_table_replaced", old=first[:8], new=table.uid[:8])]

    def gone(self, folder: str | Path, now: list[str | Path]) -> list[str]:
        """The tables of ``folder`` seen at an earlier look and not found in it now."""
        inside = str(Path(folder)) + "/"
        here = {str(w) for w in now}
        return [w for w in self.places if w.startswith(inside) and w not in here]

    def _audit_flags(self, table: Table) -> list[str]:
        try:
            head = table.head()
            cut = self._cut(table)
            found = cut + self._proof(table, head)
        except AuditKeyError as err:
            return [said("floor_keyed", reason=_reason(err))]
        except CallbetsError as err:
            return [said("floor_unchecked", reason=_reason(err))]
        if not cut and head != self.seen.get(table.uid):
            self._keep(table, head)
        return found

    def _cut(self, table: Table) -> list[str]:
        seen = self.seen.get(table.uid) or self._kept(table.uid)
        if seen is None:
            return []
        self.seen[table.uid] = seen
        verdict = table.check_head(seen)
        if not verdict:
            return []
        now = table.head().rows
        return [said(f"floor_audit_{verdict}", head=seen, rows=now)]

    def due(self, table: Table, head: Head | None = None) -> bool:
        """Whether the table is to be proved again: never proved, or its head (``head``,
        read now when not given) has moved and the last proof is :attr:`prove_every`
        seconds old."""
        last = self.proofs.get(table.uid)
        return last is None or (
            last.head != (head or table.head()) and time.monotonic() - last.at >= self.prove_every
        )

    def _proof(self, table: Table, head: Head) -> list[str]:
        last = self.proofs.get(table.uid)
        if last is not None and last.head == head:
            return last.flags
        if not self.proving or (last is not None and not self.due(table, head)):
            return self._new_rows(table) + (last.flags if last is not None else [])
        return self.prove(table, head)

    def _new_rows(self, table: Table) -> list[str]:
        """The chain's rows since the last look checked (a cheap look until the next
        proof)."""
        check = table_chain(table.store, after=self.checked.get(table.uid))
        if not check.ok:
            return [_broken(check.first_bad, check.reason)]
        self.checked[table.uid] = Head(check.rows, check.head)
        return []

    def prove(self, table: Table, head: Head | None = None) -> list[str]:
        """Prove the table now (its chain, its books, its state replayed from its audit:
        :meth:`~callbets.table.table.Table.verify`) and keep what it found."""
        head = head or table.head()
        found = table.verify()
        flags: list[str] = []
        if not found.chain.ok:
            flags.append(_broken(found.chain.first_bad, found.chain.reason))
        flags += [said("floor_books", problem=p) for p in found.problems]
        differences = found.replayed
        flags += [said("floor_state", difference=d) for d in differences[:SHOWN_DIFFERENCES]]
        if len(differences) > SHOWN_DIFFERENCES:
            more = len(differences) - SHOWN_DIFFERENCES
            flags.append(said("floor_more", count=more))
        self.proofs[table.uid] = Proof(head, time.monotonic(), flags)
        return flags

    def _kept(self, uid: str) -> Head | None:
        if self.anchor is None:
            return None
        heads = kept_heads(self.anchor, uid)
        return heads[-1] if heads else None

    def _keep(self, table: Table, head: Head) -> None:
        self.seen[table.uid] = head
        try:
            Head.parse(str(head))
        except ValueError:  # a hash that is no hash (an edited row): nothing to keep
            return
        if self.anchor is not None and not self._replaced(table):
            record_head(self.anchor, table.uid, head, table.keyed, table.location)


def _broken(seq: int | None, reason: object) -> Said:
    return said("floor_chain_broken", seq=seq, reason=reason)


def _reason(err: CallbetsError) -> object:
    """An error's message, kept to be said in the floor's language."""
    found: object = getattr(err, "message", None) or (err.args[0] if err.args else err)
    return found
