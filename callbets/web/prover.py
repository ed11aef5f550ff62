"""The floor's proofs, made apart from its looks: one table at a time, within a share of
the time.

Proving a table replays its whole evening (:meth:`~callbets.table.table.Table.verify`):
a busy table's 30 spins take tens of seconds.  Made inside a look, a proof would hold
every page's refresh for that long; made back to back, proofs would take a core from the
tables.  So a :class:`Prover` thread proves the table whose proof is the oldest among
those due (:meth:`~callbets.table.watch.Watch.due`: its head has moved and its last proof
is a minute old), makes its evening's report with it, and then rests so that proving
takes at most :data:`PROVE_SHARE` of the time.  The looks use the last proof of each
table and check its chain at every look (:attr:`~callbets.table.watch.Watch.proving`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..table.evening import evening
from ..table.table import Table
from ..table.watch import Proof, Watch

log = logging.getLogger(__name__)

PROVE_SHARE = 0.1
"""The most of the time the floor spends proving tables (one thread's time)."""


@dataclass
class Prover:
    """Proves the floor's tables in turn (see the module docstring)."""

    locations: Callable[[], Mapping[str, str | Path]]
    """The tables to prove, by key (the floor's last snapshot)."""
    watch: Watch
    closing: threading.Event
    every: float = 2.0
    """How long to wait when no table is due."""
    share: float = PROVE_SHARE
    proved: dict[str, tuple[Proof, dict[str, Any] | None]] = field(default_factory=dict)
    """Each table's last proof and the evening's report made with it (None before its
    first spin), by the table's uid: kept together, in one assignment, so that a look
    never reads a proof without its report (:attr:`Watch.proofs` holds the proof while
    the report is being made)."""
    made: int = 0
    """Proofs made so far (the floor's version moves with it, so pages read them)."""
    _proved_at: dict[str, float] = field(default_factory=dict)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        """Prove in a daemon thread until :attr:`closing` is set."""
        self._thread = threading.Thread(target=self._run, name="floor-prover", daemon=True)
        self._thread.start()

    def join(self, timeout: float) -> None:
        """Wait for the thread (it ends after the proof it is making)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def prove_one(self) -> float:
        """Prove the table due whose last proof is the oldest; the seconds it took (0:
        none was due)."""
        found = self.locations()
        for key in sorted(found, key=lambda k: self._proved_at.get(k, float("-inf"))):
            if self.closing.is_set():
                return 0.0
            try:
                with Table.open(found[key], write=False, kept=True) as table:
                    if not self.watch.due(table):
                        continue
                    began = time.perf_counter()
                    self._prove(table)
                    self._proved_at[key] = time.monotonic()
                    return time.perf_counter() - began
            except Exception:  # the look says what is wrong with the table; go on
                log.warning("%s cannot be proved", key, exc_info=True)
                self._proved_at[key] = time.monotonic()
        return 0.0

    def _prove(self, table: Table) -> None:
        flags = self.watch.prove(table)
        proof = self.watch.proofs[table.uid]
        audit = {"verifies": not flags, "rows": proof.head.rows, "head": str(proof.head)}
        played = table.round > 1 or table.ended
        self.proved[table.uid] = proof, evening(table, audit) if played else None
        self.made += 1

    def proved_of(self, table: Table) -> tuple[Proof | None, dict[str, Any] | None]:
        """A table's last proof and the report made with it ((None, None) before its
        first proof is done)."""
        return self.proved.get(table.uid, (None, None))

    def _run(self) -> None:
        while not self.closing.is_set():
            spent = self.prove_one()
            rest = spent * (1 / self.share - 1) if spent else self.every
            if self.closing.wait(rest):
                return
