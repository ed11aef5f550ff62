"""The single-zero French layout and wheel: numbers, colours, positions, neighbours.

Pure data, computed once at import (rules.md sections 1 and 2). Nothing here knows about
languages, houses or stakes.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from ..messages import Name

Number = int
"""A pocket of the wheel, 0 to 36."""

NUMBERS: tuple[Number, ...] = tuple(range(37))

RED: frozenset[Number] = frozenset(
    {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}
)
BLACK: frozenset[Number] = frozenset(range(1, 37)) - RED

WHEEL: tuple[Number, ...] = (
    0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10,
    5, 24, 16, 33, 1, 20, 14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26,
)  # fmt: skip
"""Pockets clockwise from zero (rules.md 1.5)."""


class BetKind(enum.StrEnum):
    """Every kind of position on the layout, by its name in the JSON contract."""

    STRAIGHT = "straight"
    SPLIT = "split"
    STREET = "street"
    CORNER = "corner"
    SIXLINE = "sixline"
    DOZEN = "dozen"
    COLUMN = "column"
    TWO_DOZENS = "two_dozens"
    TWO_COLUMNS = "two_columns"
    RED = "red"
    BLACK = "black"
    EVEN = "even"
    ODD = "odd"
    LOW = "low"
    HIGH = "high"


ODDS: dict[BetKind, Fraction] = {
    BetKind.STRAIGHT: Fraction(35),
    BetKind.SPLIT: Fraction(17),
    BetKind.STREET: Fraction(11),
    BetKind.CORNER: Fraction(8),
    BetKind.SIXLINE: Fraction(5),
    BetKind.DOZEN: Fraction(2),
    BetKind.COLUMN: Fraction(2),
    BetKind.TWO_DOZENS: Fraction(1, 2),
    BetKind.TWO_COLUMNS: Fraction(1, 2),
    BetKind.RED: Fraction(1),
    BetKind.BLACK: Fraction(1),
    BetKind.EVEN: Fraction(1),
    BetKind.ODD: Fraction(1),
    BetKind.LOW: Fraction(1),
    BetKind.HIGH: Fraction(1),
}
"""Payout "N to 1" of each kind (rules.md section 2); the stake is kept on a win."""

SIMPLE_CHANCES: frozenset[BetKind] = frozenset(
    {BetKind.RED, BetKind.BLACK, BetKind.EVEN, BetKind.ODD, BetKind.LOW, BetKind.HIGH}
)
OUTSIDE_12: frozenset[BetKind] = frozenset({BetKind.DOZEN, BetKind.COLUMN})
TWENTY_FOUR: frozenset[BetKind] = frozenset({BetKind.TWO_DOZENS, BetKind.TWO_COLUMNS})


def row(n: Number) -> int:
    """Row 1..12 of a number 1..36 (rules.md 1.1)."""
    return (n + 2) // 3


def column(n: Number) -> int:
    """Column 1..3 of a number 1..36 (column 1 is "colonne 34")."""
    return (n - 1) % 3 + 1


@dataclass(frozen=True, order=True)
class Position:
    """One betting position: a kind and the numbers it covers (sorted)."""

    kind: BetKind
    """What sort of position it is."""
    numbers: tuple[Number, ...]
    """The numbers it wins on, ascending."""

    def __str__(self) -> str:
        if self.kind in SIMPLE_CHANCES:
            return self.kind.value
        if self.kind in (BetKind.DOZEN, BetKind.COLUMN) or self.kind in TWENTY_FOUR:
            return f"{self.kind.value} {describe_outside(self)}"
        return f"{self.kind.value} {'/'.join(map(str, self.numbers))}"

    @property
    def odds(self) -> Fraction:
        """What one unit on this position pays (N to 1)."""
        return ODDS[self.kind]

    def named(self) -> Name:
        """Its name without words (a message field, a readback line): the kind and the
        numbers that name it (``8/9``; a dozen or column by its index)."""
        if self.kind in (BetKind.DOZEN, BetKind.COLUMN) or self.kind in TWENTY_FOUR:
            return Name(self.kind.value, describe_outside(self))
        return Name(self.kind.value, "/".join(map(str, self.numbers)))


def _pos(kind: BetKind, numbers: set[int] | range | tuple[int, ...]) -> Position:
    return Position(kind, tuple(sorted(numbers)))


def dozen(i: int) -> Position:
    """Dozen 1 (1-12), 2 (13-24) or 3 (25-36)."""
    return _pos(BetKind.DOZEN, range(12 * i - 11, 12 * i + 1))


def column_bet(i: int) -> Position:
    """Column 1 (col 34), 2 (col 35) or 3 (col 36)."""
    return _pos(BetKind.COLUMN, range(i, 37, 3))


def two_dozens(first: int) -> Position:
    """Dozens first and first+1 à cheval (24 numbers)."""
    return _pos(BetKind.TWO_DOZENS, range(12 * first - 11, 12 * first + 13))


def two_columns(first: int) -> Position:
    """Columns first and first+1 à cheval (24 numbers)."""
    return _pos(BetKind.TWO_COLUMNS, {n for n in range(1, 37) if column(n) in (first, first + 1)})


SIMPLE_CHANCE_NUMBERS: dict[BetKind, frozenset[Number]] = {
    BetKind.RED: RED,
    BetKind.BLACK: BLACK,
    BetKind.EVEN: frozenset(range(2, 37, 2)),
    BetKind.ODD: frozenset(range(1, 37, 2)),
    BetKind.LOW: frozenset(range(1, 19)),
    BetKind.HIGH: frozenset(range(19, 37)),
}


def simple_chance(kind: BetKind) -> Position:
    """The position of one of the six simple chances."""
    return _pos(kind, set(SIMPLE_CHANCE_NUMBERS[kind]))


def describe_outside(p: Position) -> str:
    """Name a dozen or column by its index, e.g. "1" for 1-12 and "34" for col 34."""
    if p.kind is BetKind.DOZEN:
        return str((p.numbers[0] - 1) // 12 + 1)
    if p.kind is BetKind.COLUMN:
        return str(33 + column(p.numbers[0]))
    if p.kind is BetKind.TWO_DOZENS:
        return "1-2" if p.numbers[0] == 1 and p.numbers[-1] == 24 else "2-3"
    return "34-35" if column(p.numbers[0]) == 1 else "35-36"


def _inside_positions() -> dict[tuple[Number, ...], Position]:
    """Every legal inside position (145 of them), keyed by its numbers."""
    found: dict[tuple[Number, ...], Position] = {}

    def add(kind: BetKind, nums: set[int]) -> None:
        p = _pos(kind, nums)
        found[p.numbers] = p

    for n in NUMBERS:
        add(BetKind.STRAIGHT, {n})
    for n in range(1, 37):
        if column(n) != 3:
            add(BetKind.SPLIT, {n, n + 1})
        if n <= 33:
            add(BetKind.SPLIT, {n, n + 3})
        if column(n) == 1:
            add(BetKind.STREET, {n, n + 1, n + 2})
            if n <= 31:
                add(BetKind.SIXLINE, set(range(n, n + 6)))
        if column(n) != 3 and n <= 32:
            add(BetKind.CORNER, {n, n + 1, n + 3, n + 4})
    for n in (1, 2, 3):
        add(BetKind.SPLIT, {0, n})
    add(BetKind.STREET, {0, 1, 2})
    add(BetKind.STREET, {0, 2, 3})
    add(BetKind.CORNER, {0, 1, 2, 3})
    return found


INSIDE: dict[tuple[Number, ...], Position] = _inside_positions()
"""Every inside position, keyed by its sorted numbers."""


def inside(numbers: tuple[Number, ...] | list[Number] | set[Number]) -> Position | None:
    """The inside position covering exactly these numbers, or None."""
    return INSIDE.get(tuple(sorted(set(numbers))))


def straight(n: Number) -> Position:
    """The straight-up position on n."""
    return INSIDE[(n,)]


def from_pair(low: Number, high: Number) -> Position | None:
    """The position Venice names by two numbers, lowest first (rules.md 1.2).

    ``25/29`` is the corner 25-26-28-29, ``16/18`` the street, ``13/18`` the six-line,
    ``5/8`` the split; anything else is None.  The rule never gives two answers.
    """
    low, high = min(low, high), max(low, high)
    d = high - low
    if low == 0:
        return INSIDE.get((0, high)) if high in (1, 2, 3) else None
    if high > 36:
        return None
    if (d == 1 and column(low) != 3) or d == 3:
        return INSIDE[(low, high)]
    if d == 2 and column(low) == 1:
        return INSIDE[(low, low + 1, high)]
    if d == 4 and column(low) != 3:
        return INSIDE[(low, low + 1, low + 3, high)]
    if d == 5 and column(low) == 1:
        return INSIDE[tuple(range(low, high + 1))]
    return None


@cache
def neighbours(n: Number, each_side: int) -> tuple[Number, ...]:
    """The run of the wheel from ``each_side`` pockets before n to as many after it."""
    i = WHEEL.index(n)
    return tuple(WHEEL[(i + k) % 37] for k in range(-each_side, each_side + 1))


def wheel_run(first: Number, last: Number) -> tuple[Number, ...]:
    """The pockets met going clockwise from ``first`` to ``last`` inclusive."""
    i, j = WHEEL.index(first), WHEEL.index(last)
    return tuple(WHEEL[(i + k) % 37] for k in range((j - i) % 37 + 1))


def positions_touching(n: Number, include_zero_combinations: bool = True) -> list[Position]:
    """Every inside position that covers n (the "complete" bet, rules.md 3.10)."""
    found = [p for p in INSIDE.values() if n in p.numbers]
    if not include_zero_combinations and n != 0:
        found = [p for p in found if not (0 in p.numbers and len(p.numbers) >= 3)]
    return sorted(found, key=lambda p: (len(p.numbers), p.numbers))
