"""A call being put together from the pieces of an announcement, and the words that
name what it can hold (language-neutral concepts: the grammar's terminal names)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...roulette.announcement import Call
from ...roulette.calls import ONE_WORD_CALLS
from ...roulette.house import House
from ..transform import AlsoEl, Element, NeighboursEl, Nums, RangeEl, StakeEl, WordEl

POSITION_WORDS = frozenset({"straight", "split", "street", "corner", "sixline"})
ORDINALS = {"first": 1, "second": 2, "third": 3, "last": 3, "middle": 2}
MODIFIERS = frozenset({"straight", "split"})
DIRECTIONS = frozenset({"horizontal", "vertical"})
FINALE_WORDS = MODIFIERS | DIRECTIONS
OUTSIDE = frozenset({"dozen", "column"})
PLURALS = {"dozens": "dozen", "columns": "column"}
"""Plural words that name two dozens or columns."""
LISTS = frozenset({*PLURALS, "finales"})
"""Plural words that take a list of numbers: "les douzaines 1 et 3", "les finales 3 et 6"."""
NAMED_DOZENS = {"p12": 1, "m12": 2, "d12": 3}
"""The layout's labels of the dozens (12P, 12M, 12D)."""
PAIRED = frozenset({"split", "street", "corner", "sixline"})
"""Positions named by two numbers, which may be said with "and" between them."""
POSITION_SIZE = {"split": 2, "street": 3, "corner": 4, "sixline": 6}
"""How many numbers each of them covers: as many may be listed ("carré 17, 18, 20, 21")."""
CHANCES = frozenset({"red", "black", "even", "odd", "low", "high"})
TAKES_NUMBERS = POSITION_WORDS | {"finale", "complete", "with_splits", "serie"} | OUTSIDE | LISTS
POSTFIX = POSITION_WORDS | {"complete", "with_splits", "serie", "first", "last", "middle"}
QUALIFIED = frozenset({"finale", "finales", "orphelins", "tiers", "serie", *PLURALS})
"""Calls that ``en plein`` / ``à cheval`` said after them qualify."""
ONE_NUMBER_CALLS = frozenset({"complete", "with_splits", "finale", *OUTSIDE})
"""Calls whose number is their argument: "finale 3 et 7" may mean two finales."""
SERIES = {(5, 8): "tiers", (0, 2, 3): "voisins", (5, 8, 10, 11): "tiers_5_8_10_11"}
SIMPLE_CALLS = ONE_WORD_CALLS
"""The calls one word names alone (the registry's: :mod:`callbets.roulette.calls`)."""
RANGE_CALLS = {
    (1, 18): Call("low"),
    (19, 36): Call("high"),
    (1, 12): Call("dozen", (1,)),
    (13, 24): Call("dozen", (2,)),
    (25, 36): Call("dozen", (3,)),
}


@dataclass
class Draft:
    """A call being put together from its pieces."""

    start: int
    words: list[WordEl] = field(default_factory=list)
    nums: Nums | None = None
    neighbours: NeighboursEl | None = None
    centres: tuple[int, ...] = ()
    linked: bool = False
    """Its numbers came after "du"/"of" ("les voisins du 17")."""
    from_first: bool = False
    """Its numbers came after "from" ("sestina dal 25"): the first of its position."""
    alone: bool = False
    """Said alone, its word names a called bet: "les voisins" the voisins du zéro,
    Italian "la serie" the tiers."""
    more: list[Nums] = field(default_factory=list)
    """Further numbers of a plural call ("les douzaines 1 et 3")."""
    range: RangeEl | None = None
    stake: StakeEl | None = None
    sep_before: str | None = None
    times: int = 1
    """How many times the call is placed ("deux fois les voisins")."""
    also: AlsoEl | None = None
    """ "aussi": it takes the stake per piece of the call before."""
    amount_first: bool = False
    """ "Dix, le 5 et les voisins": its first of two centres, said first and followed by a
    comma, may be the stake said first ("1, 9, 14 and the neighbours" is a list)."""

    @property
    def concepts(self) -> list[str]:
        """The concepts of the words so far."""
        return [w.concept for w in self.words]

    @property
    def head(self) -> str | None:
        """The main word: the first that is not a qualifier (plein, cheval, an ordinal…)."""
        for c in self.concepts:
            if c not in FINALE_WORDS and c not in ORDINALS:
                return c
        return self.concepts[0] if self.concepts else None

    @property
    def is_bare(self) -> bool:
        """Only numbers, no word yet."""
        return (
            not self.words
            and self.neighbours is None
            and self.range is None
            and self.nums is not None
        )

    @property
    def _words_first(self) -> bool:
        """No numbers yet, or the numbers said before every word ("8/9 split")."""
        return self.nums is None or (bool(self.words) and self.nums.start < self.words[0].start)

    def absorbs(self, word: WordEl) -> bool:
        """Whether a word said right after this draft qualifies it."""
        c, have = word.concept, set(self.concepts)
        if self.neighbours is not None:
            return False
        if self.range is not None:
            return not self.words and (c in CHANCES or c in OUTSIDE)
        if self.is_bare:
            return c in POSTFIX or (c in PLURALS and self._count_only)
        head = self.head
        if c in MODIFIERS and head in QUALIFIED and not MODIFIERS & have:
            return True
        finale = head in ("finale", "finales")
        if c in DIRECTIONS and (finale or have <= FINALE_WORDS) and not DIRECTIONS & have:
            return True
        if c in FINALE_WORDS and c not in have and have <= FINALE_WORDS and self.nums is None:
            return True  # "vertical split final 1/4": qualifiers said before "final"
        if c in ("finale", "finales") and have and have <= FINALE_WORDS and self._words_first:
            return True  # "split final 8/9"; "8/9 split final": said after its numbers
        outside = OUTSIDE | set(PLURALS)
        if c in ORDINALS and head in outside and not ORDINALS.keys() & have:
            return True
        # "première douzaine", "à cheval sur les douzaines": said before the dozen word
        return c in outside and bool(have) and have <= ORDINALS.keys() | {"split"}

    @property
    def _count_only(self) -> bool:
        """A single number that may count what follows ("deux douzaines")."""
        return self.nums is not None and len(self.nums.numbers) == 1

    def wants_numbers(self, nums: Nums) -> bool:
        """Whether numbers said right after this draft belong to it."""
        if self.nums is not None or self.range is not None:
            return False
        if self.neighbours is not None:  # "neighbours 17", where "neighbours" alone is nothing
            return not self.alone and not self.centres and self.neighbours.count is None
        have = set(self.concepts)
        if have & {"tiers", "serie"} and "serie" not in have:
            return nums.numbers in ((5, 8), (5, 8, 10, 11))
        if have & (OUTSIDE | set(PLURALS)):
            return not have & ORDINALS.keys()
        return bool(have & TAKES_NUMBERS) or (bool(have) and have <= ORDINALS.keys())

    def positions(self) -> tuple[int, ...]:
        """How many positions or centres were announced: what a regrouping of number
        words ("trente sept" as 37 or as 30 and 7) must not change silently."""
        if self.neighbours is not None:
            return (len(self.centres) or len(self.nums.numbers if self.nums else ()),)
        if self.head in ("straight", "complete", "with_splits") and self.nums is not None:
            return (len(self.nums.numbers),)
        return (1,)


@dataclass(frozen=True)
class Check:
    """A count of pieces or a total said with some calls, checked once they are placed."""

    kind: str
    """``pieces`` or ``total``."""
    value: int
    text: str
    start: int
    targets: tuple[int, ...]
    """Indexes of the drafts it is said of."""


@dataclass(frozen=True)
class Question:
    """A bare number after a call ("voisins 45"): stake, or another bet?"""

    nums: Nums
    targets: tuple[int, ...]
    repeated: bool = False
    """The number is said just after the same words ("de 13 à 24 24"): a word heard
    twice, perhaps, rather than an amount."""


@dataclass(frozen=True)
class SaidAgain:
    """A word after which the bet may have been said again in other words (the
    croupier's "repito", "—… van"): the calls said twice around it are placed once; where
    ``must``, calls that are not the same twice are asked about."""

    word: str
    column: int
    must: bool


@dataclass(frozen=True)
class Walked:
    """What walking the elements found, for placing: the calls as drafts, the counts and
    totals to check, the bare numbers to ask about and the repeated calls."""

    house: House
    text: str
    drafts: list[Draft]
    checks: list[Check]
    questions: list[Question]
    repeats: list[tuple[Draft, Draft]]
    """(call on one number, the bare number said after it): asked about at the end."""
    pleins: frozenset[str] = frozenset()
    """The plural straight-up words ("les pleins"): said of one number, they may mean the
    number and its splits (rules.md 3.10), so that is asked."""
    said_again: SaidAgain | None = None


def group_key(draft: Draft) -> int:
    """Calls sharing a stake form one group (the stake's identity); unstaked calls stand alone."""
    return id(draft.stake) if draft.stake is not None else -id(draft)


def start_of(el: Element) -> int:
    """Where an element starts in the text."""
    return el.start


MAX_CALLS = 20
"""The most calls in one announcement."""

MAX_TIMES = 10
"""The most times one call may be said placed ("dix fois les voisins")."""

CALLED_NAMES = frozenset({"voisins", "tiers", "orphelins", "jeu_zero", "nassa", "serie"})
"""Called bets named by one word, which people list without "et": "voisins tiers orphelins"."""


def both_called(draft: Draft, el: WordEl) -> bool:
    """A list of called bets said without "et" ("vicini serie orfanelli") is clear."""
    named = draft.head in CALLED_NAMES and draft.nums is None
    voisins = draft.neighbours is not None and draft.alone and draft.neighbours.count is None
    return (named or voisins) and el.concept in CALLED_NAMES


def one_number(draft: Draft) -> bool:
    """The call has exactly one number."""
    return draft.nums is not None and len(draft.nums.numbers) == 1
