"""A croupier's evening run in a child process, so tests can kill it with SIGKILL.

Usage: python -m tests.table_child TABLE MODE [SEED]
  MODE "hang-in-spin": seat two players, bet, close, then hang inside the spin's
        transaction (after its outcomes are written, before COMMIT) and say IN_SPIN.
  MODE "evening": play rounds forever from whatever state the file holds (resumable),
        printing "round N" after each settled spin.
"""

from __future__ import annotations

import random
import sys
import time

from callbets.table import Table, TableError, exists

ANNOUNCEMENTS = ["voisins à 2", "tiers à 1", "rouge à 10", "17 et les voisins", "pair à 4",
                 "finale 8/9 à 2", "orphelins", "colonne 34 à 3", "le 17 complet"]  # fmt: skip


def table(path: str) -> Table:
    if exists(path):
        return Table.open(path)
    t = Table.create(path, "venice-french", "fr")
    for name in ("rouge", "vert"):
        t.add_player(name)
    return t


def hang_in_spin(path: str) -> None:
    t = table(path)
    t.bet("rouge", "voisins du zéro à 5")
    t.bet("vert", "rouge à 10")
    t.close()

    def hang() -> None:
        print("IN_SPIN", flush=True)
        time.sleep(60)

    t._before_commit = hang  # type: ignore[method-assign]
    t.spin(26)


def evening(path: str, seed: int) -> None:
    rng = random.Random(seed)
    t = table(path)
    while True:
        if t.is_open:
            for player in ("rouge", "vert"):
                if rng.random() < 0.8:
                    t.bet(player, rng.choice(ANNOUNCEMENTS))
            t.close()
        number = rng.choice([0, 0, rng.randrange(37)])
        try:
            report = t.spin(number)
        except TableError:
            continue
        print(f"round {report.round}", flush=True)


if __name__ == "__main__":
    target, mode = sys.argv[1], sys.argv[2]
    if mode == "hang-in-spin":
        hang_in_spin(target)
    else:
        evening(target, int(sys.argv[3]))
