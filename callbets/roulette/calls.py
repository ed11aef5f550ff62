"""The called bets, one entry each: what a called bet is, written once.

Each :class:`CalledBet` gives its name (:class:`~.call_names.CallName`), how its chips
are worked out (its recipe, from :mod:`.catalogue`), and, for a call named by one word
and nothing else ("voisins", "jeu zéro"), the grammar terminal of that word.  The names
the JSON contract knows, the calls a house may offer and the calls the parser reads
from one word are all derived from :data:`CALLED_BETS`.

A new called bet is an entry here, its words in every ``grammar/<lang>.lark`` and its
name in every language's ``grammar/readback.toml`` (and, for a house that plays it, a
line in that house's ``calls.offered``); ``tests/test_catalogue.py`` names whatever of
these is missing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ..errors import IllegalBetError
from ..messages import said
from . import catalogue
from .call_names import CallName
from .house import House
from .layout import Number

RecipeOf = Callable[[tuple[Number, ...], int | None, House], catalogue.Recipe]
"""A recipe from the call's numbers, its neighbours each side (``neighbours`` only) and
the house."""


@dataclass(frozen=True)
class CalledBet:
    """One called bet."""

    name: CallName
    recipe: RecipeOf
    """Its positions and pieces at a house."""
    word: str | None = None
    """The grammar terminal that names it alone, with no number (``VOISINS``), if any;
    the others are read from several words by :mod:`callbets.language.assemble`."""


def _fixed(name: CallName) -> RecipeOf:
    chips = catalogue.FIXED[name]
    return lambda _numbers, _side, _house: chips


def _neighbours(numbers: tuple[Number, ...], side: int | None, house: House) -> catalogue.Recipe:
    each = side if side is not None else house.neighbours_default
    if not 1 <= each <= house.neighbours_max:
        raise IllegalBetError(said("neighbours_max", count=each, most=house.neighbours_max))
    return catalogue.neighbours_recipe(numbers, each)


_ENTRIES = (
    CalledBet(CallName.VOISINS, _fixed(CallName.VOISINS), word="VOISINS"),
    CalledBet(CallName.TIERS, _fixed(CallName.TIERS)),
    CalledBet(CallName.TIERS_5_8_10_11, _fixed(CallName.TIERS_5_8_10_11)),
    CalledBet(CallName.GIOCO_FERRARI, _fixed(CallName.GIOCO_FERRARI), word="FERRARI"),
    CalledBet(CallName.TIERS_PLEIN, _fixed(CallName.TIERS_PLEIN)),
    CalledBet(CallName.ORPHELINS, _fixed(CallName.ORPHELINS)),
    CalledBet(CallName.ORPHELINS_PLEIN, _fixed(CallName.ORPHELINS_PLEIN)),
    CalledBet(CallName.JEU_ZERO, _fixed(CallName.JEU_ZERO), word="JEU_ZERO"),
    CalledBet(CallName.NASSA, _fixed(CallName.NASSA), word="NASSA"),
    CalledBet(CallName.NEIGHBOURS, _neighbours),
    CalledBet(CallName.FINALE_PLEIN, lambda n, _side, house: catalogue.finale_plein(n[0], house)),
    CalledBet(
        CallName.FINALE_CHEVAL,
        lambda n, _side, house: catalogue.finale_cheval(n[0], n[1], house),
    ),
    CalledBet(CallName.COMPLETE, lambda n, _side, house: catalogue.complete(n[0], house)),
    CalledBet(CallName.WITH_SPLITS, lambda n, _side, _house: catalogue.with_splits(n[0])),
)

CALLED_BETS: Mapping[CallName, CalledBet] = MappingProxyType({c.name: c for c in _ENTRIES})
"""Every called bet, by name."""

ONE_WORD_CALLS: Mapping[str, CallName] = MappingProxyType(
    {c.word.lower(): c.name for c in _ENTRIES if c.word is not None}
)
"""The calls one word names alone, by that word's concept (its terminal, lowercased)."""
