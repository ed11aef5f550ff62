"""Replays of a winning called bet (rules.md 4.3): à refaire, à compléter, pour le tout.

* **à refaire**: the same bet again at the same stake, paid out of what the win returns;
* **à compléter**: the winning stake stays where it is and only the missing pieces come
  out of the win, so the bet is exactly rebuilt;
* **pour le tout** (only the calls the house lists, tiers and voisins at Venice): all
  the win plus the stake goes back into the same series at the largest multiple of the
  stake that fits ("the series triples, the voisins double"); what cannot be placed is
  handed to the player.

Pure: it takes the call as placed and its outcomes, and says what goes on the layout and
what is handed over.  Example (tiers by 1 won on 27): paid 17; à compléter leaves the
stake on 27/30, places 5 pieces from the win and hands 12 to the player.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..errors import CallbetsError
from ..messages import said
from .announcement import Call, PlacedCall, call_names
from .house import House
from .limits import OnLayout, room, totals
from .settle import CallResult

KINDS = ("refaire", "completer", "tout")
"""Replay names: à refaire, à compléter, pour le tout."""


class ReplayError(CallbetsError, ValueError):
    """A replay that cannot be done: the bet did not win, the win does not cover it…"""


@dataclass(frozen=True)
class Replay:
    """What a replay puts on the layout and what it hands to the player."""

    kind: str
    """``refaire``, ``completer`` or ``tout``."""
    placed: PlacedCall
    """The bet on the layout for the next spin."""
    left_in_place: int
    """Stake of the winning positions left on the layout as part of it (à compléter)."""
    from_win: Fraction
    """Taken out of what the win returned to build it."""
    handed: Fraction
    """Handed to the player."""


def _most_times(call: PlacedCall, house: House, on_layout: OnLayout) -> int | None:
    """The largest multiple of the call's stake its positions' maxima let on the layout
    (None: no maximum binds)."""
    there = totals(on_layout)
    pieces = totals((p.position, p.pieces) for p in call.placements)
    fits = []
    for position, k in pieces.items():
        left = room(position, house, there.get(position, 0))
        if left is not None:
            fits.append(int(left // (call.unit * k)))
    return min(fits) if fits else None


def _not_for_tout(call: PlacedCall, house: House) -> str:
    """Why pour le tout is refused on a call the house does not list for it."""
    if not house.pour_le_tout:
        return said("tout_not_played")
    listed = (Call(name) for name in sorted(house.pour_le_tout))
    allowed = call_names(house, *listed, separator=", ")
    return said("tout_only_for", allowed=allowed, call=call_names(house, call))


def replay(
    kind: str, call: PlacedCall, result: CallResult, house: House, on_layout: OnLayout = ()
) -> Replay:
    """Replay a called bet that has just won.

    Pour le tout checks the table's maxima as a new bet does (``on_layout``: what is on the
    table already): where the house caps, it places the largest multiple that fits and
    hands the rest; where it refuses, a multiple over the maximum is refused.  (À refaire
    and à compléter place the stake that was already accepted: the table checks them.)

    :raises ReplayError: unknown kind, a bet that did not win, a replay the house does
        not allow, a win that does not cover the bet, or pour le tout over a strict maximum.
    """
    if kind not in KINDS:
        raise ReplayError(said("unknown_replay", kind=kind, kinds=", ".join(KINDS)))
    if not result.won:
        raise ReplayError(said("replay_not_won", call=call_names(house, call)))
    back = result.returned
    cost = call.total
    if kind == "tout":
        if call.name not in house.pour_le_tout:
            raise ReplayError(_not_for_tout(call, house))
        times = int(back // cost)
        most = _most_times(call, house, on_layout)
        if most is not None and times > most:
            if house.limits.over_max == "refuse":
                raise ReplayError(
                    said(
                        "tout_over_maximum",
                        call=call_names(house, call),
                        amount=call.unit * times,
                        most=call.unit * most,
                    )
                )
            times = most
        if times < 1:
            raise ReplayError(said("tout_no_room"))
        placed = PlacedCall.from_recipe(
            call.call, call.unit * times, tuple((p.position, p.pieces) for p in call.placements)
        )
        return Replay(kind, placed, 0, Fraction(placed.total), back - placed.total)
    if back < cost:
        raise ReplayError(said("win_short", back=back, cost=cost))
    staying = sum(o.bet.amount for o in result.outcomes if o.result == "won")
    left = staying if kind == "completer" else 0
    from_win = Fraction(cost) - left if kind == "completer" else Fraction(cost)
    handed = back - left - from_win
    return Replay(kind, call, left, from_win, handed)
