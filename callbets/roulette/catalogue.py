"""The called bets as recipes: which positions, how many pieces on each.

Fixed recipes are data (rules.md 3.1-3.6, checked by tests against the wheel); the
parametrised ones (a number and its neighbours, finales, complete bets) are computed
from the layout.  Each recipe is a tuple of ``(Position, pieces)``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ..errors import IllegalBetError
from ..messages import said
from .house import House
from .layout import (
    INSIDE,
    Number,
    Position,
    from_pair,
    neighbours,
    positions_touching,
    straight,
)

Recipe = tuple[tuple[Position, int], ...]
"""Positions of a called bet with the pieces on each, in layout order."""


def _recipe(*items: tuple[tuple[Number, ...], int]) -> Recipe:
    return tuple((INSIDE[tuple(sorted(nums))], pieces) for nums, pieces in items)


TIERS_SPLITS = (
    ((5, 8), 1),
    ((10, 11), 1),
    ((13, 16), 1),
    ((23, 24), 1),
    ((27, 30), 1),
    ((33, 36), 1),
)

FIXED: dict[str, Recipe] = {  # keyed by CallName values
    "voisins": _recipe(
        ((0, 2, 3), 2), ((4, 7), 1), ((12, 15), 1), ((18, 21), 1), ((19, 22), 1),
        ((25, 26, 28, 29), 2), ((32, 35), 1),
    ),
    "tiers": _recipe(*TIERS_SPLITS),
    "tiers_5_8_10_11": _recipe(*TIERS_SPLITS, ((5,), 1), ((8,), 1), ((10,), 1), ((11,), 1)),
    "gioco_ferrari": _recipe(*TIERS_SPLITS, ((8,), 1), ((11,), 1), ((23,), 1), ((30,), 1)),
    "tiers_plein": _recipe(*(((n,), 1) for n in (5, 8, 10, 11, 13, 16, 23, 24, 27, 30, 33, 36))),
    "orphelins": _recipe(((1,), 1), ((6, 9), 1), ((14, 17), 1), ((17, 20), 1), ((31, 34), 1)),
    "orphelins_plein": _recipe(*(((n,), 1) for n in (1, 6, 9, 14, 17, 20, 31, 34))),
    "jeu_zero": _recipe(((0, 3), 1), ((12, 15), 1), ((26,), 1), ((32, 35), 1)),
    "nassa": _recipe(((0, 3), 1), ((12, 15), 1), ((19,), 1), ((26,), 1), ((32, 35), 1)),
}  # fmt: skip
"""The called bets whose chips never change (rules.md 3.11)."""


def stack(positions: Iterable[Position]) -> Recipe:
    """Count repeated positions into pieces: chips on the same spot stack."""
    counts = Counter(positions)
    return tuple(sorted(counts.items(), key=lambda item: item[0].numbers))


def neighbours_recipe(centres: Iterable[Number], each_side: int) -> Recipe:
    """Each centre and ``each_side`` pockets either side of it, straight up; chips stack."""
    return stack(straight(n) for c in centres for n in neighbours(c, each_side))


def finale_plein(digit: int, house: House) -> Recipe:
    """Every number ending in ``digit``, straight up (rules.md 3.8)."""
    if not 0 <= digit <= 9:
        raise IllegalBetError(said("no_finale_digit", digit=digit))
    nums = [n for n in range(digit, 37, 10) if n or house.finale_zero_includes_0]
    return stack(straight(n) for n in nums)


def finale_cheval(low: Number, high: Number, house: House) -> Recipe:
    """A finale à cheval named by its first pair, horizontal (8/9) or vertical (3/6).

    Horizontal pairs broken by the end of a row are played as two straight-ups
    (rules.md 3.9).  A number left with no partner is played straight up only where the
    house says so.
    """
    low, high = min(low, high), max(low, high)
    if low > 9 or high - low not in (1, 3):
        raise IllegalBetError(said("no_finale_cheval", low=low, high=high))
    if high - low == 1 and (low, high) not in house.horizontal_finales:
        raise IllegalBetError(said("finale_not_played", low=low, high=high))
    chips: list[Position] = []
    for base in range(low, 37, 10):
        partner = base + (high - low)
        if partner > 36:
            if house.vertical_orphan_plein:
                chips.append(straight(base))
            continue
        pair = from_pair(base, partner)
        if pair is not None and len(pair.numbers) == 2:
            chips.append(pair)
        else:
            chips.extend((straight(base), straight(partner)))
    return stack(chips)


def with_splits(n: Number) -> Recipe:
    """A number and its splits ("le 17 et ses chevaux", rules.md 3.10): the straight and
    every split that covers it, one piece each (17: 14/17, 16/17, 17/18, 17/20)."""
    splits = [p for p in positions_touching(n) if len(p.numbers) == 2]
    return ((straight(n), 1), *((p, 1) for p in splits))


def complete(n: Number, house: House) -> Recipe:
    """Every inside position touching n; progressive houses put 1/2/3/4/6 pieces by size."""
    progressive = house.complete_style == "progressive"
    positions = positions_touching(n, house.complete_includes_zero_combinations)
    return tuple((p, len(p.numbers) if progressive else 1) for p in positions)
