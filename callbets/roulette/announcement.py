"""What an announcement means: calls, and the chips each call puts on the layout.

A :class:`Call` is what was asked ("the 17 and two neighbours each side"); a
:class:`PlacedCall` is that call with its stake resolved into :class:`Placement` s.  Both
print a canonical, language-neutral notation (``neighbours 17 n2 x10``) that
:func:`parse_notation` reads back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import AnnouncementError, IllegalBetError
from ..messages import Name, Names, said
from . import catalogue
from .call_names import CallName
from .calls import CALLED_BETS
from .house import House
from .layout import (
    SIMPLE_CHANCES,
    TWENTY_FOUR,
    BetKind,
    Number,
    Position,
    column_bet,
    describe_outside,
    dozen,
    inside,
    simple_chance,
    two_columns,
    two_dozens,
)

CALL_NAMES = frozenset(CALLED_BETS)
"""Names of the called bets in the JSON contract."""


@dataclass(frozen=True)
class Call:
    """One bet as asked, before its stake: a called bet or a plain position."""

    name: str
    """A called-bet name (``voisins``, ``neighbours``…) or a position kind (``split``…)."""
    numbers: tuple[Number, ...] = ()
    """Neighbour centres, finale digits, the complete's number, or the position's numbers."""
    each_side: int | None = None
    """Neighbours each side, for ``neighbours``."""

    @property
    def is_called_bet(self) -> bool:
        """True for announced bets, False for plain positions."""
        return self.name in CALL_NAMES

    def position(self) -> Position:
        """The position of a plain bet.

        :raises IllegalBetError: the numbers are not such a position.
        """
        kind = BetKind(self.name)
        if kind in SIMPLE_CHANCES:
            return simple_chance(kind)
        if kind is BetKind.DOZEN:
            return dozen(self.numbers[0])
        if kind is BetKind.COLUMN:
            return column_bet(self.numbers[0])
        if kind is BetKind.TWO_DOZENS:
            return two_dozens(self.numbers[0])
        if kind is BetKind.TWO_COLUMNS:
            return two_columns(self.numbers[0])
        found = inside(self.numbers)
        if found is None or found.kind is not kind:
            raise IllegalBetError(said("no_position", position=Position(kind, self.numbers)))
        return found

    def recipe(self, house: House) -> catalogue.Recipe:
        """The positions and pieces of this call at a house.

        :raises IllegalBetError: the house does not play it, or it is not a legal bet.
        """
        if not self.is_called_bet:
            position = self.position()
            if position.kind in TWENTY_FOUR and not house.allow_24_numbers:
                raise IllegalBetError(said("no_24"))
            return ((position, 1),)
        if not house.offers(self.name):
            raise IllegalBetError(said("not_played", call=call_names(house, self)))
        return CALLED_BETS[CallName(self.name)].recipe(self.numbers, self.each_side, house)

    def named(self, house: House) -> Name:
        """Its name without words: ``neighbours`` with its centres and its neighbours
        each side at ``house``, a dozen or column by its index, else its numbers."""
        if self.name in ("dozen", "column", "two_dozens", "two_columns"):
            return Name(self.name, describe_outside(self.position()))
        if self.name == "neighbours":
            side = self.each_side if self.each_side is not None else house.neighbours_default
            return Name(self.name, ", ".join(map(str, self.numbers)), side)
        return Name(self.name, "/".join(map(str, self.numbers)))

    def notation(self) -> str:
        """Canonical text without the stake, e.g. ``neighbours 1+9 n2``."""
        if self.name == "neighbours":
            side = "" if self.each_side is None else f" n{self.each_side}"
            return f"neighbours {'+'.join(map(str, self.numbers))}{side}"
        if self.name in ("finale_plein", "finale_cheval", "complete", "with_splits"):
            return f"{self.name} {'/'.join(map(str, self.numbers))}"
        if self.is_called_bet:
            return self.name
        kind = BetKind(self.name)
        if kind in SIMPLE_CHANCES:
            return kind.value
        if kind in (BetKind.DOZEN, BetKind.COLUMN, BetKind.TWO_DOZENS, BetKind.TWO_COLUMNS):
            return f"{kind.value} {describe_outside(self.position())}"
        return f"{kind.value} {'/'.join(map(str, self.numbers))}"


@dataclass(frozen=True)
class Placement:
    """Chips on one position."""

    position: Position
    """Where the chips go."""
    pieces: int
    """How many pieces of the call's unit."""
    amount: int
    """Pieces × unit, in stake units."""

    def to_json(self) -> dict[str, object]:
        """The placement object of the JSON contract."""
        return {
            "bet": self.position.kind.value,
            "numbers": list(self.position.numbers),
            "pieces": self.pieces,
            "amount": self.amount,
        }


@dataclass(frozen=True)
class PlacedCall:
    """A call with its stake per piece, and the chips that follow."""

    call: Call
    """What was asked."""
    unit: int
    """Stake per piece."""
    placements: tuple[Placement, ...]
    """The chips, one entry per position."""
    counted: int | None = field(default=None, compare=False)
    """Its stake was said as a count of pieces of this value ("3 pièces sur le 17": the
    house's; "3 pièces de 5 sur le 17": 5): it is read back so.  Not part of the bet: two
    calls with the same chips are equal, however their stake was said."""

    @classmethod
    def build(cls, call: Call, unit: int, house: House) -> PlacedCall:
        """Resolve a call at a stake per piece.

        :raises IllegalBetError: the call is not legal at this house.
        """
        return cls.from_recipe(call, unit, call.recipe(house))

    @classmethod
    def from_recipe(
        cls, call: Call, unit: int, recipe: catalogue.Recipe, counted: int | None = None
    ) -> PlacedCall:
        """A call at a stake per piece, from its recipe."""
        return cls(call, unit, tuple(Placement(p, k, k * unit) for p, k in recipe), counted)

    @property
    def pieces(self) -> int:
        """Pieces in the call."""
        return sum(p.pieces for p in self.placements)

    @property
    def total(self) -> int:
        """Stake of the whole call."""
        return self.pieces * self.unit

    @property
    def name(self) -> str:
        """The call's name in the JSON contract."""
        return self.call.name

    def notation(self) -> str:
        """Canonical text, e.g. ``voisins x5``."""
        return f"{self.call.notation()} x{self.unit}"

    def to_json(self) -> dict[str, object]:
        """The call object of the JSON contract."""
        return {
            "call": self.name,
            "pieces": self.pieces,
            "unit": self.unit,
            "total": self.total,
            "placements": [p.to_json() for p in self.placements],
        }


@dataclass(frozen=True)
class Announcement:
    """A whole announcement, parsed and placed."""

    text: str
    """The input as given."""
    calls: tuple[PlacedCall, ...]
    """Each call with its chips, in the order said."""

    @property
    def total(self) -> int:
        """Stake of the whole announcement."""
        return sum(c.total for c in self.calls)

    def notation(self) -> str:
        """Canonical text of every call, joined by ``" ; "``."""
        return " ; ".join(c.notation() for c in self.calls)

    def merged(self) -> dict[tuple[Number, ...], int]:
        """Amount per set of numbers over all calls (how the sample corpus compares)."""
        out: dict[tuple[Number, ...], int] = {}
        for call in self.calls:
            for p in call.placements:
                out[p.position.numbers] = out.get(p.position.numbers, 0) + p.amount
        return out

    def to_json(self) -> dict[str, object]:
        """The JSON contract of ``callbets parse`` for an accepted announcement."""
        return {
            "input": self.text,
            "ok": True,
            "total": self.total,
            "notation": self.notation(),
            "calls": [c.to_json() for c in self.calls],
        }


def _notation_call(text: str) -> tuple[Call, int]:
    parts = text.split()
    if len(parts) < 2 or not parts[-1].startswith("x") or not parts[-1][1:].isdigit():
        raise IllegalBetError(said("bad_notation_stake", text=text))
    name, args, unit = parts[0], parts[1:-1], int(parts[-1][1:])
    each_side = None
    if args and args[-1].startswith("n") and args[-1][1:].isdigit():
        each_side = int(args.pop()[1:])
    numbers: tuple[int, ...] = ()
    if args:
        raw = args[0].replace("+", "/").replace("-", "/").split("/")
        if not all(r.isdigit() for r in raw) or len(args) > 1:
            raise IllegalBetError(said("bad_notation", text=text))
        numbers = tuple(int(r) for r in raw)
    if name in ("dozen", "two_dozens") and numbers:
        numbers = numbers[:1]  # "dozen 2", "two_dozens 1-2": the (first) dozen's index
    elif name in ("column", "two_columns") and numbers:
        numbers = (numbers[0] - 33,)  # "column 34", "two_columns 34-35": col 34 is 1
    if name not in CALL_NAMES and name not in BetKind.__members__.values():
        raise IllegalBetError(said("bad_notation_bet", text=text, name=name))
    return Call(name, numbers, each_side), unit


def parse_notation(text: str, house: House) -> Announcement:
    """Read the canonical notation back (the inverse of :meth:`Announcement.notation`).

    :raises IllegalBetError: malformed notation or an illegal bet.
    """
    calls = []
    for chunk in text.split(";"):
        call, unit = _notation_call(chunk.strip())
        calls.append(PlacedCall.build(call, unit, house))
    return Announcement(text, tuple(calls))


def bets_among(readings: list[str], house: House) -> list[str]:
    """The readings (notations) that are bets at ``house``: never offer one that is not."""
    out = []
    for reading in readings:
        try:
            parse_notation(reading, house)
        except (AnnouncementError, ValueError):
            continue
        out.append(reading)
    return out


def call_names(house: House, *calls: Call | PlacedCall, separator: str = " ; ") -> Names:
    """Calls as one field of a message, each named as played at ``house``."""
    return Names(
        tuple((c.call if isinstance(c, PlacedCall) else c).named(house) for c in calls), separator
    )
