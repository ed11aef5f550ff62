"""The names of the called bets, as the JSON contract, the house files and the readback
write them.  What each one places is in :mod:`callbets.roulette.calls`."""

from __future__ import annotations

from enum import StrEnum


class CallName(StrEnum):
    """A called bet (rules.md 3): each is a key of :data:`callbets.roulette.calls.CALLED_BETS`,
    a name in every language's ``grammar/readback.toml``, and may be offered by a house
    (``calls.offered``)."""

    VOISINS = "voisins"
    TIERS = "tiers"
    TIERS_5_8_10_11 = "tiers_5_8_10_11"
    GIOCO_FERRARI = "gioco_ferrari"
    TIERS_PLEIN = "tiers_plein"
    ORPHELINS = "orphelins"
    ORPHELINS_PLEIN = "orphelins_plein"
    JEU_ZERO = "jeu_zero"
    NASSA = "nassa"
    NEIGHBOURS = "neighbours"
    FINALE_PLEIN = "finale_plein"
    FINALE_CHEVAL = "finale_cheval"
    COMPLETE = "complete"
    WITH_SPLITS = "with_splits"
