"""Table limits checked when a bet is placed (rules.md 6.1).

A maximum binds the total on one position at the table, whoever placed it ("cannot be
exceeded, not even through third parties"): what is already on the layout counts, and
so does a position named twice in one announcement.  Below the minimum is refused with
the reason.  Above the maximum is refused where the house says so; at Venice it is
accepted and settled on the maximum, the excess handed back (see :mod:`callbets.roulette.settle`),
and the croupier is warned; a position already at its maximum takes nothing more (of
such a bet nothing would play), and is refused with the reason.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from ..errors import CallbetsError
from ..messages import said
from .announcement import Announcement
from .house import House
from .layout import INSIDE, Position


class LimitError(CallbetsError, ValueError):
    """A bet outside the table's limits."""


OnLayout = Iterable[tuple[Position, Fraction | int]]
"""What is already on the layout: (position, stake counted towards its maximum)."""


def counted(amount: int, prison: int, house: House) -> Fraction | None:
    """What a bet counts towards its position's maximum: all of a free stake; the value
    still in play of one in prison (½, ¼…) where the house counts prison, else nothing."""
    if not prison:
        return Fraction(amount)
    return Fraction(amount, 2**prison) if house.limits.prison_counts else None


def counted_stakes(
    stakes: Iterable[tuple[Position, int, int]], house: House
) -> list[tuple[Position, Fraction]]:
    """Stakes on the layout, (position, amount, prison level), as they count towards each
    position's maximum (:func:`counted`); those that do not count are left out."""
    out = []
    for position, amount, prison in stakes:
        value = counted(amount, prison, house)
        if value is not None:
            out.append((position, value))
    return out


def totals(placements: OnLayout) -> dict[Position, Fraction]:
    """The stake on each position, summed."""
    out: dict[Position, Fraction] = {}
    for position, amount in placements:
        out[position] = out.get(position, Fraction(0)) + amount
    return out


def room(position: Position, house: House, already: Fraction | int = 0) -> Fraction | None:
    """How much more the maximum lets onto a position (None: no maximum)."""
    bounds = house.limits.for_kind(position.kind.value)
    if bounds is None:
        return None
    return max(Fraction(0), bounds[1] - Fraction(already))


def check_limits(announcement: Announcement, house: House, on_layout: OnLayout = ()) -> list[str]:
    """Refuse what the table's limits forbid; return warnings for what they tolerate.

    :param on_layout: the stakes already on the table (every player's), counted with
        the announcement's own against each position's maximum.
    :raises LimitError: a stake below the minimum, a position over a strict maximum, or
        too few pieces where the house counts them (Venice Fair).
    """
    limits = house.limits
    inside_pieces = 0
    for call in announcement.calls:
        for p in call.placements:
            bounds = limits.for_kind(p.position.kind.value)
            if p.position.numbers in INSIDE:
                inside_pieces += p.amount // house.piece_value
            elif p.amount // house.piece_value < limits.min_outside_pieces:
                least = limits.min_outside_pieces
                raise LimitError(
                    said("outside_min_pieces", position=p.position, amount=p.amount, least=least)
                )
            if bounds is not None and p.amount < bounds[0]:
                raise LimitError(
                    said("below_minimum", position=p.position, amount=p.amount, low=bounds[0])
                )
    if 0 < inside_pieces < limits.min_inside_pieces:
        raise LimitError(
            said("inside_min_pieces", pieces=inside_pieces, least=limits.min_inside_pieces)
        )
    return _check_maxima(announcement, house, totals(on_layout))


def _check_maxima(
    announcement: Announcement, house: House, before: dict[Position, Fraction]
) -> list[str]:
    warnings: list[str] = []
    mine = totals((p.position, p.amount) for c in announcement.calls for p in c.placements)
    for position, amount in mine.items():
        bounds = house.limits.for_kind(position.kind.value)
        there = before.get(position, Fraction(0))
        if bounds is None or there + amount <= bounds[1]:
            continue
        high = bounds[1]
        fields = {"position": position, "amount": amount, "high": high, "there": there}
        if house.limits.over_max == "refuse":
            raise LimitError(said("over_maximum_with" if there else "over_maximum", **fields))
        plays = max(Fraction(0), high - there)
        if not plays:  # a chip of which nothing would play is not a bet: never placed
            raise LimitError(said("at_maximum", **fields))
        key = "capped_with" if there else "capped"
        warnings.append(said(key, plays=plays, back=amount - plays, **fields))
    return warnings
