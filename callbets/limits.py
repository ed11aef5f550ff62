"""Table limits checked when a bet is placed (rules.md 6.1).

Below the minimum is refused with the reason.  Above the maximum is refused where the
house says so; at Venice it is accepted and settled on the maximum, the excess handed
back (see :mod:`callbets.settle`), and the croupier is warned.
"""

from __future__ import annotations

from .announcement import Announcement
from .errors import CallbetsError
from .house import House
from .layout import INSIDE


class LimitError(CallbetsError, ValueError):
    """A bet outside the table's limits."""


def check_limits(announcement: Announcement, house: House) -> list[str]:
    """Refuse what the table's limits forbid; return warnings for what they tolerate.

    :raises LimitError: a stake below the minimum, above a strict maximum, or too few
        pieces where the house counts them (Venice Fair).
    """
    limits = house.limits
    warnings = []
    inside_pieces = 0
    for call in announcement.calls:
        for p in call.placements:
            kind = p.position.kind.value
            bounds = limits.for_kind(kind)
            if p.position.numbers in INSIDE:
                inside_pieces += p.amount // house.piece_value
            elif p.amount // house.piece_value < limits.min_outside_pieces:
                raise LimitError(
                    f"{p.position} at {p.amount}: at least {limits.min_outside_pieces} pieces "
                    "on a simple chance, column or dozen"
                )
            if bounds is None:
                continue
            low, high = bounds
            if p.amount < low:
                raise LimitError(f"{p.position} at {p.amount}: the table minimum is {low}")
            if p.amount > high:
                if limits.over_max == "refuse":
                    raise LimitError(f"{p.position} at {p.amount}: the table maximum is {high}")
                warnings.append(
                    f"{p.position} at {p.amount} is over the maximum of {high}: only {high} "
                    f"plays, {p.amount - high} will be handed back"
                )
    if 0 < inside_pieces < limits.min_inside_pieces:
        raise LimitError(
            f"{inside_pieces} pieces on numbers: at least {limits.min_inside_pieces} "
            "in total are needed"
        )
    return warnings
