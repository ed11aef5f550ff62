"""Where a chip sits on the tableau: one geometry for the text drawing and the SVG.

Inside positions are spots on a half-cell lattice of the number grid.  ``along`` runs
down the layout, from the zero to row 12: odd values are the middles of rows (row 1 is
1), even values the lines between rows (0 is the line between the zero and row 1, -1 the
middle of the zero).  ``across`` runs over the three columns, from the outer edge beside
column 34 (value 0) to the edge beside column 36 (value 6): odd values are the middles of
columns, even values the lines between them.  So a croupier's placing rules (rules.md
1.3) read straight off the numbers:

* a straight sits in the middle of its number; the zero in the middle of the zero;
* a split on the line between its two numbers (0/1, 0/2, 0/3 on the zero's line);
* a street on the outer edge of its row, a six-line on the outer edge on the line
  between its two rows;
* a corner on the crossing of its four numbers; the zero trios on the crossing of the
  zero's line with the line between their two numbers; the first four (0/1/2/3) on the
  crossing of the outer edge with the zero's line.

>>> from callbets.roulette.layout import from_pair, straight
>>> spot(straight(17)), spot(from_pair(17, 20)), spot(from_pair(16, 18))
(Spot(along=11, across=3), Spot(along=12, across=3), Spot(along=11, across=0))

Outside positions sit in boxes: dozens and columns in a strip of three boxes, the simple
chances in a strip of six (manque, pair, rouge, noir, impair, passe, as on the cloth).
A bet on two dozens or two columns sits on the line between its two boxes, so its slot
is the sum of the two box indexes.
"""

from __future__ import annotations

from dataclasses import dataclass

from .layout import BetKind, Position, column, row

CHANCE_ORDER: tuple[BetKind, ...] = (
    BetKind.LOW, BetKind.EVEN, BetKind.RED, BetKind.BLACK, BetKind.ODD, BetKind.HIGH,
)  # fmt: skip
"""The simple chances in the order of their boxes on the cloth."""


@dataclass(frozen=True, order=True)
class Spot:
    """A chip's place on the number grid, in half cells (see the module docstring)."""

    along: int
    across: int


@dataclass(frozen=True)
class Slot:
    """A chip's place in a strip of outside boxes.

    ``strip`` is ``dozen``, ``column`` or ``chance``; ``half`` is twice the box index
    (0, 2, 4 …) for a box and the odd number between two boxes for a bet on both.
    """

    strip: str
    half: int


def _centre(n: int) -> Spot:
    if n == 0:
        return Spot(-1, 3)
    return Spot(2 * row(n) - 1, 2 * column(n) - 1)


def spot(p: Position) -> Spot | None:
    """Where an inside position's chip sits; None for an outside position."""
    nums = p.numbers
    centres = [_centre(n) for n in nums]
    if p.kind is BetKind.STRAIGHT:
        return centres[0]
    if p.kind is BetKind.SPLIT:
        if nums[0] == 0:
            return Spot(0, centres[1].across)
        return Spot(
            (centres[0].along + centres[1].along) // 2,
            (centres[0].across + centres[1].across) // 2,
        )
    if p.kind is BetKind.STREET:
        if nums[0] == 0:  # the zero trios 0/1/2 and 0/2/3
            return Spot(0, 2 * column(nums[1]))
        return Spot(centres[0].along, 0)
    if p.kind is BetKind.CORNER:
        if nums[0] == 0:  # the first four
            return Spot(0, 0)
        return Spot(centres[0].along + 1, centres[0].across + 1)
    if p.kind is BetKind.SIXLINE:
        return Spot(centres[0].along + 1, 0)
    return None


def slot(p: Position) -> Slot | None:
    """Where an outside position's chip sits; None for an inside position."""
    if p.kind in (BetKind.DOZEN, BetKind.TWO_DOZENS):
        return Slot("dozen", (p.numbers[0] - 1) // 12 * 2 + (p.kind is BetKind.TWO_DOZENS))
    if p.kind in (BetKind.COLUMN, BetKind.TWO_COLUMNS):
        return Slot("column", (column(p.numbers[0]) - 1) * 2 + (p.kind is BetKind.TWO_COLUMNS))
    if p.kind in CHANCE_ORDER:
        return Slot("chance", CHANCE_ORDER.index(p.kind) * 2)
    return None


def covered(positions: list[Position] | tuple[Position, ...]) -> frozenset[int]:
    """Every number on which at least one of the positions wins."""
    return frozenset(n for p in positions for n in p.numbers)
