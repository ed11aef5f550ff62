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

import time
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import AuditKeyError, CallbetsError
from ..messages import message_in
from .anchor import kept_heads, record_head
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
    seen: dict[str, Head] = field(default_factory=dict)
    proofs: dict[str, Proof] = field(default_factory=dict)

    def flags(self, table: Table) -> list[str]:
        """What a pit boss must know about a table's audit now."""
        try:
            head = table.head()
            cut = self._cut(table)
            found = cut + self._proof(table, head)
        except AuditKeyError as err:
            return [message_in(err, "en")]
        except CallbetsError as err:
            return [f"the audit cannot be checked: {message_in(err, 'en')}"]
        if not cut and head != self.seen.get(table.uid):
            self._keep(table.uid, head)
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
        return [f"AUDIT {verdict.upper()}: the floor saw head {seen}, the audit has {now} rows"]

    def _proof(self, table: Table, head: Head) -> list[str]:
        last = self.proofs.get(table.uid)
        if last is not None and (
            last.head == head or time.monotonic() - last.at < self.prove_every
        ):
            if last.head == head:
                return last.flags
            check = table_chain(table.store)  # a cheap look until the next proof
            broken = [] if check.ok else [_broken(check.first_bad, check.reason)]
            return broken + last.flags
        found = table.verify()
        flags = [] if found.chain.ok else [_broken(found.chain.first_bad, found.chain.reason)]
        flags += [f"books: {message_in(p, 'en')}" for p in found.problems]
        differences = [message_in(d, "en") for d in found.replayed]
        flags += [f"STATE NOT FROM ITS AUDIT: {d}" for d in differences[:SHOWN_DIFFERENCES]]
        if len(differences) > SHOWN_DIFFERENCES:
            more = len(differences) - SHOWN_DIFFERENCES
            flags.append(f"… {more} more differences (callbets table verify)")
        self.proofs[table.uid] = Proof(head, time.monotonic(), flags)
        return flags

    def _kept(self, uid: str) -> Head | None:
        if self.anchor is None:
            return None
        heads = kept_heads(self.anchor, uid)
        return heads[-1] if heads else None

    def _keep(self, uid: str, head: Head) -> None:
        self.seen[uid] = head
        if self.anchor is not None:
            record_head(self.anchor, uid, head)


def _broken(seq: int | None, reason: object) -> str:
    return f"AUDIT CHAIN BROKEN at row {seq}: {message_in(reason, 'en')}"
