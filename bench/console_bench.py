"""Console benchmark: how long the croupier waits after each line, over a busy evening.

Drives :class:`callbets.console.session.Session` (what the terminal calls for every line)
on a real SQLite table file: 8 players, 20 announcements each a round, each read back
with its drawing and then confirmed; then "rien ne va plus" and the spin with its
settlement.  The status bar is redrawn at every keystroke: its first drawing after a line
reads the table, later ones reuse it.
Reports the median and 95th percentile per kind of line, and lines per
second.  Run: python bench/console_bench.py
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from settle_bench import ANNOUNCEMENTS, PER_PLAYER, PLAYERS

from callbets.console.session import Session
from callbets.table import Table

ROUNDS = 5


def evening(rng: random.Random, folder: Path) -> dict[str, list[float]]:
    """Seconds taken by each line, by kind of line."""
    times: dict[str, list[float]] = defaultdict(list)
    table = Table.create(folder / "bench.sqlite", "venice-french", "fr")
    session = Session(table)
    session.handle("/seat " + " ".join(f"p{i}" for i in range(PLAYERS)))

    def timed(kind: str, line: str) -> None:
        start = time.perf_counter()
        session.handle(line)
        times[kind].append(time.perf_counter() - start)

    for _ in range(ROUNDS):
        for p in range(PLAYERS):
            for _ in range(PER_PLAYER):
                timed("announcement + readback", f"p{p}: {rng.choice(ANNOUNCEMENTS)}")
                timed("confirm (Enter)", "")
                for kind in ("status bar after a line", "status bar, keystroke"):
                    start = time.perf_counter()
                    session.status()
                    times[kind].append(time.perf_counter() - start)
        timed("rien ne va plus", "rien ne va plus")
        timed("spin + settlement", str(rng.randrange(1, 37)))
    table.close_file()
    return times


def main() -> None:
    """Print the latency of each kind of line."""
    with tempfile.TemporaryDirectory() as folder:
        times = evening(random.Random(7), Path(folder))
    print(f"{'line':24} {'count':>6} {'median ms':>10} {'p95 ms':>8} {'lines/s':>8}")
    for kind, values in times.items():
        values.sort()
        median = statistics.median(values)
        p95 = values[int(0.95 * (len(values) - 1))]
        print(
            f"{kind:24} {len(values):6} {median * 1000:10.2f} {p95 * 1000:8.2f} {1 / median:8.0f}"
        )


if __name__ == "__main__":
    main()
