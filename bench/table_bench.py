"""Table benchmark: a busy evening on SQLite and on PostgreSQL, 1 table and many at once.

An evening at a table (issue 14): 8 players seated, 100 rounds; in every round each
player makes 20 announcements (160 a spin, the busy table of bench/settle_bench.py and
bench/console_bench.py), each announced and confirmed (``Table.bet``), drawn with a
seeded generator from a list of real called bets; then "rien ne va plus" and the spin
(``Table.close`` + ``Table.spin``, a number drawn from 0 to 36, so zeros and prison
happen).  16,000 confirmed announcements and 100 spins a table.

The evening is played on 1 table, then on 8 tables at once: one process a table, each
opening its own table, started together.  SQLite tables are files in a temporary
folder; PostgreSQL tables are ``?table=`` tables of one database, on a throwaway server
started here (``tests/postgres_server.py``, fsync off) unless ``--postgres URL`` names
a database that has the callbets schema (``callbets db upgrade URL``; the bench's
tables, ``bench-RUN-N``, are left in it).

For each backend and number of tables it reports:

* bets/s: confirmed announcements per second of betting (the time inside ``bet``), per
  table (the mean), and in total (summed over the tables, which play side by side);
* the latency of a spin, close + spin with its settlement (p50 and p95 over every spin
  of every table, in ms);
* the evening's wall time (the slowest table, from the common start);

and the ratios PostgreSQL / SQLite and N tables / 1 table.  It never passes or fails.

    python bench/table_bench.py [--players 8] [--announcements 20] [--spins 100]
        [--tables 1 8] [--backends sqlite postgresql] [--postgres URL] [--seed 1]
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from pathlib import Path

from callbets.errors import CallbetsError
from callbets.table import Table

ROOT = Path(__file__).resolve().parent.parent
HOUSE, LANG = "venice-french", "fr"
ANNOUNCEMENTS = [
    "voisins du zéro à 5", "tiers à 2", "orphelins à 3", "jeu zéro", "17 et les voisins à 2",
    "finale 8/9", "le 17 complet", "rouge à 10", "pair à 5", "colonne 34 à 3",
    "douzaine du milieu à 2", "cheval 5/8", "carré 25/29 à 2", "1, 9 et 14 et les voisins",
]  # fmt: skip
"""Real calls, those of bench/settle_bench.py (1 to 40 chips each)."""


@dataclass
class Workload:
    players: int
    announcements: int
    """Announcements each player makes in each round."""
    spins: int
    seed: int


@dataclass
class Evening:
    """What one table measured."""

    bets: int
    refused: int
    betting_s: float
    spins_s: list[float]
    start: float
    end: float
    error: str = ""
    index: int = 0
    """Which of the locations it was played on."""
    spun: list[tuple[int, float]] = field(default_factory=list)
    """After each spin: the round the table is then at, and the wall-clock time."""


@dataclass
class Row:
    backend: str
    tables: int
    total_rate: float
    table_rate: float
    p50_ms: float
    p95_ms: float
    wall_s: float


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[round(share * (len(ordered) - 1))]


def seat(location: str, players: int) -> None:
    """Make a table with its players seated (not timed)."""
    table = Table.create(location, HOUSE, LANG)
    for p in range(players):
        table.add_player(f"p{p}")
    table.close_file()


def play(location: str, work: Workload, index: int) -> Evening:
    """One table's evening; its own seed, so every table has its own announcements."""
    rng = random.Random(work.seed * 1000 + index)
    table = Table.open(location)
    start = time.time()
    bets, refused, betting, spins, spun = 0, 0, 0.0, [], []
    for _ in range(work.spins):
        began = time.perf_counter()
        for _ in range(work.announcements):
            for p in range(work.players):
                try:
                    table.bet(f"p{p}", rng.choice(ANNOUNCEMENTS))
                    bets += 1
                except CallbetsError:  # counted and reported, not a bet
                    refused += 1
        betting += time.perf_counter() - began
        began = time.perf_counter()
        table.close()
        report = table.spin(rng.randrange(37))
        spins.append(time.perf_counter() - began)
        spun.append((report.round + 1, time.time()))
    end = time.time()
    table.close_file()
    return Evening(bets, refused, betting, spins, start, end, spun=spun)


def child(location: str, work: Workload, index: int, start: Barrier, out: Queue[Evening]) -> None:
    """A process of one table: wait for the others, play, send back the figures."""
    try:
        start.wait()
        evening = play(location, work, index)
        evening.index = index
        out.put(evening)
    except Exception as err:  # the parent says which table failed and why
        out.put(Evening(0, 0, 0.0, [], 0.0, 0.0, f"{type(err).__name__}: {err}", index))


def run(
    backend: str,
    locations: list[str],
    work: Workload,
    keep: list[Evening] | None = None,
    seated: bool = False,
) -> Row:
    """Play an evening on every location at once, one process each (their evenings, in
    the order of ``locations``, are added to ``keep``; ``seated``: the tables are made)."""
    for location in locations if not seated else []:
        seat(location, work.players)
    ctx = multiprocessing.get_context("spawn")
    barrier, out = ctx.Barrier(len(locations)), ctx.Queue()
    procs = [
        ctx.Process(target=child, args=(loc, work, i, barrier, out))
        for i, loc in enumerate(locations)
    ]
    for proc in procs:
        proc.start()
    evenings: list[Evening] = [out.get() for _ in procs]
    if keep is not None:
        keep += sorted(evenings, key=lambda e: e.index)
    for proc in procs:
        proc.join()
    errors = [e.error for e in evenings if e.error]
    if errors:
        raise SystemExit(f"{backend}, {len(locations)} tables: {errors[0]}")
    refused = sum(e.refused for e in evenings)
    if refused:
        print(f"  {refused} announcements refused (not counted as bets)")
    rates = [e.bets / e.betting_s for e in evenings]
    spins = [s for e in evenings for s in e.spins_s]
    return Row(
        backend,
        len(locations),
        sum(rates),
        statistics.mean(rates),
        percentile(spins, 0.5) * 1000,
        percentile(spins, 0.95) * 1000,
        max(e.end for e in evenings) - min(e.start for e in evenings),
    )


@contextlib.contextmanager
def sqlite_places() -> Iterator[Callable[[str], str]]:
    with tempfile.TemporaryDirectory(prefix="callbets-bench-") as folder:
        yield lambda name: str(Path(folder) / f"{name}.sqlite")


@contextlib.contextmanager
def postgres_places(url: str | None) -> Iterator[Callable[[str], str]]:
    """Tables of the database at ``url``, or of a throwaway server's database ``bench``."""

    def joiner(base: str) -> Callable[[str], str]:
        return lambda name: f"{base}{'&' if '?' in base else '?'}table={name}"

    if url:
        yield joiner(url)
        return
    sys.path.insert(0, str(ROOT))
    import psycopg

    from callbets.table.locations import upgrade
    from tests.postgres_server import throwaway_server

    with throwaway_server() as admin:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute("CREATE DATABASE bench")
        base = admin.rsplit("/", 1)[0] + "/bench"
        upgrade(base)
        yield joiner(base)


def postgres_available(url: str | None) -> str:
    """Why PostgreSQL cannot be benchmarked here, or ''."""
    if url:
        return ""
    sys.path.insert(0, str(ROOT))
    from tests.postgres_server import server_bin

    if server_bin() is None:
        return ("no PostgreSQL server binaries (Debian's postgresql package) and no "
                "--postgres URL")  # fmt: skip
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install 'callbets[postgresql]')"
    return ""


def report(rows: list[Row], work: Workload) -> None:
    per_table = work.players * work.announcements * work.spins
    print(f"\n{work.players} players × {work.announcements} announcements a round, "
          f"{work.spins} spins: {per_table} bets a table; {os.cpu_count()} CPUs")  # fmt: skip
    print(f"{'backend':10} {'tables':>6} {'bets/s':>8} {'per table':>9} "
          f"{'spin p50 ms':>11} {'p95 ms':>8} {'evening s':>9}")  # fmt: skip
    for r in rows:
        print(f"{r.backend:10} {r.tables:6} {r.total_rate:8.0f} {r.table_rate:9.0f} "
              f"{r.p50_ms:11.1f} {r.p95_ms:8.1f} {r.wall_s:9.1f}")  # fmt: skip
    by = {(r.backend, r.tables): r for r in rows}
    lines = []
    for (backend, n), r in by.items():
        s = by.get(("sqlite", n))
        if backend == "postgresql" and s is not None:
            rate, p50, p95 = r.total_rate / s.total_rate, r.p50_ms / s.p50_ms, r.p95_ms / s.p95_ms
            lines.append(f"postgresql / sqlite, {n} table(s): bets/s {rate:.2f}, "
                         f"spin p50 {p50:.2f}, p95 {p95:.2f}")  # fmt: skip
    for (backend, n), r in by.items():
        one = by.get((backend, 1))
        if n > 1 and one is not None:
            total, each = r.total_rate / one.total_rate, r.table_rate / one.table_rate
            lines.append(f"{n} tables / 1, {backend}: bets/s total {total:.2f}, per table "
                         f"{each:.2f}, spin p50 {r.p50_ms / one.p50_ms:.2f}")  # fmt: skip
    if lines:
        print("\nratios")
        for line in lines:
            print(line)


def main() -> None:
    """Play the evenings and print rates, latencies and ratios."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--announcements", type=int, default=20,
                    help="announcements each player makes in each round")  # fmt: skip
    ap.add_argument("--spins", type=int, default=100, help="rounds of the evening")
    ap.add_argument("--tables", type=int, nargs="+", default=[1, 8],
                    help="numbers of tables played at once")  # fmt: skip
    ap.add_argument("--backends", nargs="+", choices=["sqlite", "postgresql"],
                    default=["sqlite", "postgresql"])  # fmt: skip
    ap.add_argument("--postgres", metavar="URL",
                    help="a database with the callbets schema (default: a throwaway "
                    "server)")  # fmt: skip
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    work = Workload(args.players, args.announcements, args.spins, args.seed)
    backends: list[str] = args.backends
    if "postgresql" in backends:
        why = postgres_available(args.postgres)
        if why:
            print(f"PostgreSQL skipped: {why}; SQLite only")
            backends = [b for b in backends if b != "postgresql"]
    rows: list[Row] = []
    run_id = uuid.uuid4().hex[:6]
    for backend in backends:
        places = sqlite_places() if backend == "sqlite" else postgres_places(args.postgres)
        with places as where:
            for n in args.tables:
                print(f"{backend}: {n} table(s) …", flush=True)
                locations = [where(f"bench-{run_id}-{n}-{i}") for i in range(n)]
                rows.append(run(backend, locations, work))
    report(rows, work)


if __name__ == "__main__":
    main()
