"""Settle a spin: a pure function of the bets on the layout, the number and the house.

Every bet is paid at its own odds (rules.md 2); a called bet is the sum of its positions
(rules.md 3).  Zero is special only for the simple chances, by house (rules.md 5):

* ``en_prison`` (Venice French): the bet goes to prison, one level per zero up to the
  house's maximum; at each zero the player may take half back or move it to another
  simple chance; a bet imprisoned k times must win k times to be freed (no winnings);
  a zero past the last level splits it.
* ``partage_odd_chip_prison`` (Venice Fair): halved and shared at once; an odd chip stays
  in prison, freed if it wins next and lost if it loses.
* ``player_choice`` (French regulation): half back or prison, as the player says; a zero
  on the last spin forces ½, ¼, … back.
* ``partage`` (English roulette): half back, no prison.

Money is exact (:class:`fractions.Fraction`): a half of an odd stake is rounded only as
the house says (``zero.odd_chip``), never by accident.
This module trusts its input (bets already checked when placed) and does no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property

from ..errors import CallbetsError
from ..messages import said
from .announcement import Announcement
from .house import House
from .layout import SIMPLE_CHANCES, BetKind, Position, simple_chance
from .limits import counted, room


class SettlementError(CallbetsError, ValueError):
    """A spin that cannot be settled: a number off the wheel, a choice the house refuses."""


@dataclass(frozen=True)
class Bet:
    """Chips of one player on one position, as the table holds them."""

    id: str
    """Unique among the bets settled together."""
    player: str
    """Who owns it (a colour or a name)."""
    position: Position
    """Where the chips are."""
    amount: int
    """The stake, in stake units."""
    call: str = ""
    """The called bet it belongs to (``voisins``…), or the plain bet's kind."""
    group: str = ""
    """Identity of the announced call it belongs to: its chips settle together."""
    prison: int = 0
    """Prison level of a simple-chance bet (0: free)."""


@dataclass(frozen=True)
class Outcome:
    """What one bet did on this spin."""

    bet: Bet
    """The bet as it stood before the spin."""
    result: str
    """``won``, ``lost``, ``prison`` or ``shared`` (à partager)."""
    paid: Fraction
    """Winnings: odds × the stake in play (capped at the maximum)."""
    returned: Fraction
    """Handed to the player now: winnings, the stake kept, half back, a freed or excess stake."""
    kept: Bet | None = None
    """What stays in prison for the next spin."""
    excess: int = 0
    """Stake above the table maximum, handed back (included in ``returned``)."""


@dataclass(frozen=True)
class Settlement:
    """The result of one spin for every bet on the layout."""

    number: int
    """The winning number."""
    outcomes: tuple[Outcome, ...]
    """One per bet, in payout order."""

    @cached_property
    def _totals(self) -> dict[str | None, tuple[Fraction, Fraction, Fraction]]:
        """(staked, returned, in prison) per player, and for the table under None."""
        sums: dict[str | None, list[Fraction]] = {None: [Fraction(0)] * 3}
        for o in self.outcomes:
            row = sums.setdefault(o.bet.player, [Fraction(0)] * 3)
            kept = o.kept.amount if o.kept else 0
            for target in (row, sums[None]):
                target[0] += o.bet.amount
                target[1] += o.returned
                target[2] += kept
        return {k: (v[0], v[1], v[2]) for k, v in sums.items()}

    def _total(self, player: str | None, i: int) -> Fraction:
        found = self._totals.get(player)
        return found[i] if found else Fraction(0)

    def players(self) -> list[str]:
        """Players with bets on this spin, in order of appearance."""
        return list(dict.fromkeys(o.bet.player for o in self.outcomes))

    def staked(self, player: str | None = None) -> Fraction:
        """Stakes on the layout for this spin (prison stakes included)."""
        return self._total(player, 0)

    def returned(self, player: str | None = None) -> Fraction:
        """Handed back on this spin."""
        return self._total(player, 1)

    def in_prison(self, player: str | None = None) -> Fraction:
        """Stakes left in prison after this spin."""
        return self._total(player, 2)

    def net(self, player: str | None = None) -> Fraction:
        """Returned minus staked; stakes still in prison count as not returned yet."""
        return self.returned(player) - self.staked(player)

    def prison_bets(self) -> list[Bet]:
        """The bets that carry over to the next spin in prison."""
        return [o.kept for o in self.outcomes if o.kept is not None]


def _capped(bet: Bet, house: House, room: int | None = None) -> tuple[int, int]:
    """(stake in play, excess handed back) under the house's maximum; ``room`` is what
    the maximum leaves for this bet once the position's earlier bets are counted."""
    limit = house.limits.for_kind(bet.position.kind.value)
    if limit is None or house.limits.over_max != "cap_and_refund":
        return bet.amount, 0
    allowed = limit[1] if room is None else min(room, limit[1])
    return (bet.amount, 0) if bet.amount <= allowed else (allowed, bet.amount - allowed)


def rooms(bets: Iterable[Bet], house: House) -> dict[str, int]:
    """What the maximum leaves for each free bet: the position's total at the table counts
    ("not even through third parties"), in the order the bets were placed, after what sits
    in prison where the house counts it (:func:`callbets.roulette.limits.counted`)."""
    bets = list(bets)
    used: dict[Position, Fraction] = {}
    for b in bets:
        value = counted(b.amount, b.prison, house) if b.prison else None
        if value is not None:
            used[b.position] = used.get(b.position, Fraction(0)) + value
    out: dict[str, int] = {}
    for b in bets:
        there = used.get(b.position, Fraction(0))
        left = None if b.prison else room(b.position, house, there)
        if left is not None:
            out[b.id] = int(left)
            used[b.position] = there + min(b.amount, out[b.id])
    return out


def _plain(bet: Bet, number: int, house: House, room: int | None = None) -> Outcome:
    in_play, excess = _capped(bet, house, room)
    if number in bet.position.numbers:
        paid = bet.position.odds * in_play
        return Outcome(bet, "won", paid, paid + in_play + excess, excess=excess)
    return Outcome(bet, "lost", Fraction(0), Fraction(excess), excess=excess)


def _in_prison(bet: Bet, number: int) -> Outcome:
    """A bet already in prison, on a number other than zero."""
    if number not in bet.position.numbers:
        return Outcome(bet, "lost", Fraction(0), Fraction(0))
    if bet.prison == 1:
        return Outcome(bet, "won", Fraction(0), Fraction(bet.amount))
    return Outcome(
        bet, "prison", Fraction(0), Fraction(0), kept=replace(bet, prison=bet.prison - 1)
    )


def _half(bet: Bet, level: int, house: House) -> Outcome:
    """Half of the value still in play handed back; the rest goes to the bank.  Where
    that is not a whole number of pieces, the house says who has the odd part
    (``zero.odd_chip``): handed back as it is (``fraction``), kept by the bank
    (``bank``), or given to the player (``player``)."""
    value = Fraction(bet.amount, 2**level)
    pieces = value / house.piece_value
    if house.zero.odd_chip == "bank":
        value = Fraction(math.floor(pieces) * house.piece_value)
    elif house.zero.odd_chip == "player":
        value = Fraction(math.ceil(pieces) * house.piece_value)
    return Outcome(bet, "shared", Fraction(0), value)


def at_close(bet: Bet, house: House) -> Outcome:
    """What a stake still in prison when the evening ends comes to, as the house says
    (``zero.prison_at_close``): the value still in play handed back (``half``: ½, ¼, …
    of the stake, the odd part as ``zero.odd_chip`` says), or kept by the bank."""
    if house.zero.prison_at_close == "half":
        return _half(bet, bet.prison, house)
    return Outcome(bet, "lost", Fraction(0), Fraction(0))


def _on_zero(bet: Bet, house: House, choice: str, last_spin: bool, room: int | None) -> Outcome:
    """A simple chance caught by a zero; a free stake over the maximum (Venice) is capped
    first and its excess handed back: only the capped stake is halved or imprisoned."""
    in_play, excess = _capped(bet, house, room) if not bet.prison else (bet.amount, 0)
    if not excess:
        return _zero_rule(bet, house, choice, last_spin)
    o = _zero_rule(replace(bet, amount=in_play), house, choice, last_spin)
    return replace(o, bet=bet, returned=o.returned + excess, excess=excess)


def _zero_rule(bet: Bet, house: House, choice: str, last_spin: bool) -> Outcome:
    rule = house.zero
    if rule.simple_chances == "partage":
        return _half(bet, 1, house)
    if rule.simple_chances == "partage_odd_chip_prison" and bet.prison == 0:
        odd = bet.amount % 2
        kept = replace(bet, amount=1, prison=1) if odd else None
        return Outcome(bet, "shared", Fraction(0), Fraction(bet.amount // 2), kept=kept)
    level = bet.prison + 1
    if rule.prison_max_levels and level > rule.prison_max_levels:
        return (  # the value still in play (stake / 2^k) is split
            _half(bet, level, house)
            if rule.past_max == "split"
            else Outcome(bet, "lost", Fraction(0), Fraction(0))
        )
    if last_spin and rule.last_spin_forced_refund:
        return _half(bet, level, house)
    if choice == "half":
        return _half(bet, level, house)
    moved = bet
    if choice.startswith("move:"):
        moved = replace(bet, position=simple_chance(BetKind(choice.removeprefix("move:"))))
        if moved.position == bet.position:  # "moved" where it is: not a move at all
            raise SettlementError(said("zero_move_same", bet=bet.id, target=bet.position))
    return Outcome(bet, "prison", Fraction(0), Fraction(0), kept=replace(moved, prison=level))


def _check_choice(bet: Bet, choice: str, house: House) -> None:
    kind = choice.partition(":")[0]
    if kind not in house.zero.choices:
        allowed = ", ".join(sorted(house.zero.choices))
        raise SettlementError(
            said("zero_choice_not_offered", bet=bet.id, kind=kind, allowed=allowed)
        )
    if kind == "move":
        target = choice.partition(":")[2]
        if target not in {k.value for k in SIMPLE_CHANCES}:
            raise SettlementError(said("zero_move_not_chance", bet=bet.id, target=target))


def settle_bet(
    bet: Bet, number: int, house: House, choice: str | None = None, last_spin: bool = False,
    room: int | None = None,
) -> Outcome:  # fmt: skip
    """What one bet does when ``number`` comes up.

    :param room: what the position's maximum leaves for this bet once the table's other
        bets on it are counted (:func:`rooms`); the maximum itself when not given.
    """
    if bet.position.kind not in SIMPLE_CHANCES:
        return _plain(bet, number, house, room)
    if number == 0:
        choice = choice or house.zero.default_choice
        _check_choice(bet, choice, house)
        return _on_zero(bet, house, choice, last_spin, room)
    outcome = _in_prison(bet, number) if bet.prison else _plain(bet, number, house, room)
    if last_spin and outcome.kept is not None and house.zero.last_spin_forced_refund:
        return _half(bet, outcome.kept.prison, house)
    return outcome


def payout_rank(house: House) -> dict[str, int]:
    """Bet kind → its place in the house's payout order."""
    return {kind: i for i, kind in enumerate(house.payout_order)}


def settle(
    bets: Iterable[Bet],
    number: int,
    house: House,
    choices: Mapping[str, str] | None = None,
    last_spin: bool = False,
) -> Settlement:
    """Settle every bet on the layout for one winning number.

    :param choices: bet id → ``prison``, ``half`` or ``move:<chance>`` for simple chances
        caught by a zero (the house default otherwise).
    :param last_spin: the session's last spin (French regulation forces refunds).
    :raises SettlementError: a number off the wheel or a choice the house does not offer.
    """
    if not (isinstance(number, int) and 0 <= number <= 36):
        raise SettlementError(said("not_on_wheel", number=number))
    choices = choices or {}
    bets = list(bets)
    by_id = {b.id: b for b in bets}
    for bet_id, choice in choices.items():
        if bet_id not in by_id:
            raise SettlementError(said("zero_choice_no_bet", bet=bet_id))
        _check_choice(by_id[bet_id], choice, house)
    room = rooms(bets, house)
    outcomes = [
        settle_bet(b, number, house, choices.get(b.id), last_spin, room.get(b.id)) for b in bets
    ]
    rank = payout_rank(house)
    outcomes.sort(key=lambda o: rank.get(o.bet.position.kind.value, len(rank)))
    return Settlement(number, tuple(outcomes))


def bets_for(announcement: Announcement, player: str, prefix: str = "") -> list[Bet]:
    """The bets an announcement puts on the layout, one per placement.

    Bet ids are ``<prefix>c<call>.p<placement>``; the call's group is ``<prefix>c<call>``.
    """
    out = []
    for i, call in enumerate(announcement.calls):
        group = f"{prefix}c{i}"
        for j, p in enumerate(call.placements):
            out.append(Bet(f"{group}.p{j}", player, p.position, p.amount, call.name, group))
    return out


@dataclass(frozen=True)
class CallResult:
    """A called bet keeps its identity through settlement."""

    player: str
    """Whose call."""
    group: str
    """The call's identity (shared by its bets)."""
    call: str
    """``voisins``, ``neighbours``… or a plain kind."""
    outcomes: tuple[Outcome, ...]
    """Its positions' outcomes."""
    to_place: tuple[tuple[Position, int], ...]
    """For calls paid to place: the winning positions and their stakes, to lay down."""

    @property
    def won(self) -> bool:
        """True when any of its positions won."""
        return any(o.result == "won" and o.paid > 0 for o in self.outcomes)

    @property
    def staked(self) -> int:
        """Its stake on this spin."""
        return sum(o.bet.amount for o in self.outcomes)

    @property
    def paid(self) -> Fraction:
        """Its winnings."""
        return Fraction(sum(o.paid for o in self.outcomes))

    @property
    def returned(self) -> Fraction:
        """What comes back for it."""
        return Fraction(sum(o.returned for o in self.outcomes))


def call_results(settlement: Settlement, house: House) -> list[CallResult]:
    """Group a settlement's outcomes by announced call, in the order they were placed."""
    groups: dict[tuple[str, str], list[Outcome]] = {}
    for o in settlement.outcomes:
        groups.setdefault((o.bet.player, o.bet.group or o.bet.id), []).append(o)
    out = []
    for (player, group), outcomes in groups.items():
        call = outcomes[0].bet.call
        to_place: tuple[tuple[Position, int], ...] = ()
        if call in house.paid_to_place:
            to_place = tuple(
                (o.bet.position, o.bet.amount - o.excess) for o in outcomes if o.result == "won"
            )
        out.append(CallResult(player, group, call, tuple(outcomes), to_place))
    return out
