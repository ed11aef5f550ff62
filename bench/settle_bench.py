"""Settlement benchmark: a busy table (8 players × 20 announcements) per spin.

Reports milliseconds per spin for the pure settlement and for a full spin on the SQLite
table (settle + write outcomes + audit, one transaction).  Run: python bench/settle_bench.py
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from callbets import find_house, parse
from callbets.roulette.settle import Bet, bets_for, settle
from callbets.table import Table

ANNOUNCEMENTS = [
    "voisins à 5", "tiers à 2", "orphelins à 3", "jeu zéro", "17 et les voisins à 2",
    "finale 8/9", "le 17 complet", "rouge à 10", "pair à 5", "colonne 34 à 3",
    "douzaine du milieu à 2", "cheval 5/8", "carré 25/29 à 2", "1 et 9 et 14 et les voisins",
]  # fmt: skip
PLAYERS, PER_PLAYER, SPINS = 8, 20, 200


def busy_table(rng: random.Random) -> list[Bet]:
    """The bets of 8 players with 20 announcements each."""
    house = find_house()
    bets: list[Bet] = []
    for p in range(PLAYERS):
        for k in range(PER_PLAYER):
            a = parse(rng.choice(ANNOUNCEMENTS), "fr", house)
            bets.extend(bets_for(a, f"player{p}", f"{p}.{k}."))
    return bets


def pure(bets: list[Bet], rng: random.Random) -> list[float]:
    house = find_house()
    times = []
    for _ in range(SPINS):
        start = time.perf_counter()
        settle(bets, rng.randrange(37), house)
        times.append(time.perf_counter() - start)
    return times


def with_table(rng: random.Random, rounds: int = 20) -> list[float]:
    times = []
    with tempfile.TemporaryDirectory() as folder:
        table = Table.create(Path(folder) / "bench.sqlite", "venice-french", "fr")
        for p in range(PLAYERS):
            table.add_player(f"player{p}")
        for _ in range(rounds):
            for p in range(PLAYERS):
                for _ in range(PER_PLAYER):
                    table.bet(f"player{p}", rng.choice(ANNOUNCEMENTS))
            table.close()
            start = time.perf_counter()
            table.spin(rng.randrange(1, 37))
            times.append(time.perf_counter() - start)
        table.close_file()
    return times


def main() -> None:
    """Print the median and 95th percentile per spin."""
    rng = random.Random(1)
    bets = busy_table(rng)
    for label, times in (
        ("settle() only", pure(bets, rng)),
        ("table spin (SQLite)", with_table(rng)),
    ):
        ms = sorted(t * 1000 for t in times)
        p95 = ms[int(len(ms) * 0.95) - 1]
        print(f"{label:20} {len(bets)} bets/spin: median {statistics.median(ms):6.2f} ms, "
              f"p95 {p95:6.2f} ms, {1000 / statistics.median(ms):7.0f} spins/s")  # fmt: skip


if __name__ == "__main__":
    main()
