"""The one transformer for every language: parse tree → a flat list of elements.

The grammar reads an announcement as pieces (``shared.lark``); each piece becomes one
element here.  Element kinds and word concepts are language-neutral names taken from
the terminal names of the grammar.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lark import Token, Transformer, Tree

from ..errors import StakeError
from ..messages import said


@dataclass(frozen=True)
class Nums:
    """Numbers said together ("5/8", "cinq huit"): one position, or several centres."""

    numbers: tuple[int, ...]
    start: int
    slashed: bool = False
    """Written with slashes or dashes ("5/8", "17-20"): a position, said as such."""
    end: int = 0
    """Offset just past the last number."""
    digits: bool = False
    """Written in digits, not words (set by the assembler, which has the text): no other
    grouping of number words could have made it."""


@dataclass(frozen=True)
class Sep:
    """A separator: ``and`` (et, e, and), ``comma`` or ``with`` (avec, con, with)."""

    kind: str
    start: int


@dataclass(frozen=True)
class WordEl:
    """A word naming or qualifying a bet; ``concept`` is its terminal name, lowercased."""

    concept: str
    text: str
    start: int


@dataclass(frozen=True)
class NeighboursEl:
    """ "les voisins", "trois voisins", "deux voisins de chaque côté", "two either side"."""

    count: int | None
    start: int
    text: str = ""
    """The neighbours word ("voisins", "neighbours"); empty for "two either side"."""


@dataclass(frozen=True)
class LinkEl:
    """ "du", "of" (``kind`` ``of``) or "sur", "on" (``on``): links a word to its numbers.

    With an ``amount`` ("10 sur"), "on" is a stake for the bet that follows.
    """

    kind: str
    text: str
    start: int
    amount: int | None = None


@dataclass(frozen=True)
class PiecesEl:
    """A count of pieces ("9 pièces"): it must agree with the bet it follows."""

    count: int
    text: str
    start: int
    of: StakeEl | None = None
    """The value of each piece said with the count ("4 fichas de 25", "nine chips of
    25"): put with it by :mod:`callbets.language.assemble.regroup`."""


@dataclass(frozen=True)
class RepeatEl:
    """ "deux fois": the call next to it, said that many times."""

    count: int
    text: str
    start: int


@dataclass(frozen=True)
class AlsoEl:
    """ "aussi", "anche", "too": the call next to it at the stake of the call before."""

    text: str
    start: int


@dataclass(frozen=True)
class CheckEl:
    """A total said as a check ("= 50"): it must equal what the bets add up to."""

    total: int
    text: str
    start: int


@dataclass(frozen=True)
class RangeEl:
    """A run of numbers naming an outside bet: "1 to 18", "de 13 à 24"."""

    low: int
    high: int
    text: str
    start: int


@dataclass(frozen=True)
class StakeEl:
    """A stake: ``piece`` (per piece), ``total``, ``either`` (the parser must ask),
    ``money`` (an amount and a currency, nothing else: the house says whether to ask) or
    ``forward`` ("10 sur le 17": for the bet that follows)."""

    kind: str
    amount: int
    text: str
    start: int
    end: int
    lead: bool = False
    """Said before any bet, for the bets that follow ("par cinq les voisins")."""
    together: bool = False
    """A total said "in all" ("60 en tout", "ça fait 60"): for every call it covers
    together, never for each."""
    for_each: bool = False
    """A stake said "for N each" ("pour 60 chacun"): N a piece, or N for each call?"""
    in_pieces: bool = False
    """The amount is a count of the house's pieces ("un jeton chacun"): made a stake by
    :mod:`callbets.language.assemble.regroup`, which knows their value."""
    counted: int | None = None
    """Said as a count of pieces on a bet: the value of each piece ("3 pièces sur le
    17": the house's; "3 pièces de 5 sur le 17": 5)."""


WRITTEN = "_WRITTEN"
"""Suffix of a terminal that is how another is written down ("vdz" for the voisins)."""

Element = (
    Nums
    | Sep
    | WordEl
    | NeighboursEl
    | LinkEl
    | StakeEl
    | PiecesEl
    | CheckEl
    | RangeEl
    | RepeatEl
    | AlsoEl
)

_AMOUNTS = ("NUMBER", "AMOUNT", "MONEY", "PIECE_COUNT")


def _amount(tokens: list[Token]) -> Token:
    return next(t for t in tokens if t.type in _AMOUNTS)


def _zero_stake(amount: Token) -> StakeError:
    return StakeError(said("zero_stake"), column=amount.start_pos)


class ElementBuilder(Transformer[Token, Any]):
    """Builds :data:`Element` s; a rule it does not know is a bug, and raises."""

    def __default__(self, data: Any, children: Any, meta: Any) -> Any:
        if str(data).startswith("_"):  # inlined helper rules: Lark splices their children
            return Tree(data, children, meta)
        raise NotImplementedError(f"grammar rule '{data}' has no meaning in callbets")

    def start(self, children: list[Element]) -> list[Element]:
        return children

    def numbers(self, children: list[Token]) -> Nums:
        nums = tuple(int(t) for t in children if t.type == "NUMBER")
        slashed = len(nums) > 1 and len(children) == 2 * len(nums) - 1
        return Nums(nums, children[0].start_pos or 0, slashed, children[-1].end_pos or 0)

    def word(self, children: list[Token]) -> WordEl:
        (tok,) = children
        concept = tok.type.lower().removesuffix(WRITTEN.lower())
        return WordEl(concept, str(tok), tok.start_pos or 0)

    def neighbours(self, children: list[Token]) -> NeighboursEl:
        count = int(children[0]) if children[0].type == "COUNT" else None
        word = next((str(t) for t in children if t.type == "NEIGHBOURS"), "")
        return NeighboursEl(count, children[0].start_pos or 0, word)

    def of(self, children: list[Token]) -> LinkEl:
        (tok,) = children
        return LinkEl("of", str(tok), tok.start_pos or 0)

    def on(self, children: list[Token]) -> LinkEl | StakeEl:
        if len(children) == 1:
            return LinkEl("on", str(children[0]), children[0].start_pos or 0)
        return self._stake("forward", children)

    def pieces(self, children: list[Token]) -> PiecesEl:
        (tok,) = children
        return PiecesEl(int(tok), str(tok), tok.start_pos or 0)

    def also(self, children: list[Token]) -> AlsoEl:
        (tok,) = children
        return AlsoEl(str(tok), tok.start_pos or 0)

    def repeat(self, children: list[Token]) -> RepeatEl:
        count, word = children
        return RepeatEl(int(count), f"{count} {word}", count.start_pos or 0)

    def check(self, children: list[Token]) -> CheckEl:
        amount = _amount(children)
        if int(amount) == 0:
            raise _zero_stake(amount)
        return CheckEl(int(amount), f"{children[0]} {amount}", children[0].start_pos or 0)

    def range(self, children: list[Token]) -> RangeEl:
        (tok,) = children
        low, high = (int(x) for x in str(tok).split("-"))
        return RangeEl(low, high, f"{low}-{high}", tok.start_pos or 0)

    def sep(self, children: list[Token]) -> Sep:
        (tok,) = children
        return Sep({"AND": "and", "COMMA": "comma", "WITH": "with"}[tok.type], tok.start_pos or 0)

    def stake(self, children: list[StakeEl]) -> StakeEl:
        return children[0]

    def _stake(self, kind: str, children: list[Token]) -> StakeEl:
        amount = _amount(children)
        start, end = children[0].start_pos or 0, children[-1].end_pos or 0
        text = " ".join(str(t) for t in children)
        if int(amount) == 0:
            raise _zero_stake(amount)
        types = {t.type for t in children}
        together = "IN_ALL" in types
        for_each = "TOTAL_PREFIX" in types and "EACH" in types
        in_pieces = "PIECE_COUNT" in types
        return StakeEl(kind, int(amount), text, start, end, together=together,
                       for_each=for_each, in_pieces=in_pieces)  # fmt: skip

    def per_piece(self, children: list[Token]) -> StakeEl:
        return self._stake("piece", children)

    def total(self, children: list[Token]) -> StakeEl:
        return self._stake("total", children)

    def either(self, children: list[Token]) -> StakeEl:
        return self._stake("either", children)

    def money(self, children: list[Token]) -> StakeEl:
        return self._stake("money", children)
