"""The words of a language and sample announcements, generated from its grammar.

The voice front-end feeds these to the recogniser and the console completes with them,
so typed and spoken input share one source: the terminals of ``grammar/<lang>.lark``.
Sample phrases put those terminals in the orders :mod:`callbets.language.assemble` accepts in
every language ("17 et voisins", "17 e vicini", "17 and neighbours"), with numbers as
words or digits, and are kept only when they parse.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from functools import cache

from ..errors import AnnouncementError
from ..roulette.house import House, find_house
from ..roulette.layout import INSIDE, BetKind
from .grammar import language
from .lexicon import Tok
from .parse import parse


def vocabulary(lang: str) -> list[str]:
    """Every word of the language's grammar, sorted (digits and symbols left out)."""
    return language(lang).lexicon.vocabulary()


@cache
def _phrases_by_terminal(lang: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for words, name in language(lang).lexicon.phrases.items():
        out.setdefault(name, []).append(" ".join(words))
    for phrases in out.values():
        phrases.sort()
    return out


@cache
def spellings(lang: str, value: int) -> tuple[str, ...]:
    """The ways of saying a number below 1000 in words that the grammar reads as that number.

    Single words first ("diciassette"), then a ten and a unit with or without a joining
    word ("vingt un", "vingt et un"), then hundreds ("deux cent cinquante").
    """
    grammar = language(lang)
    composer, words = grammar.composer, grammar.lexicon.number_values

    def tok(text: str) -> Tok:
        return Tok("N", text, 0, 0, words.get(text))

    two_ways = grammar.lexicon.roles.get("TWO_WAYS", frozenset())  # asked: not read as it
    found = [w for w, v in words.items() if v == value and w not in two_ways]
    joins = sorted(composer.join_words)
    for head, rest in itertools.product(words, repeat=2):
        for join in ["", *joins]:
            parts = [head, join, rest] if join else [head, rest]
            if composer.value([tok(p) for p in parts]) == value:
                found.append(" ".join(parts))
    if not found and 20 < value < 100:  # three words: "soixante dix sept"
        for tens in range(20, value, 10):
            for head in spellings(lang, tens)[:1]:
                for rest in spellings(lang, value - tens):
                    parts = [head, *rest.split()]
                    if composer.value([tok(p) for p in parts]) == value:
                        found.append(" ".join(parts))
    if not found and value >= 100:
        hundreds = spellings(lang, value // 100 * 100)
        below = spellings(lang, value % 100) if value % 100 else ("",)
        found = [f"{h} {b}".strip() for h in hundreds[:1] for b in below[:1]]
    return tuple(dict.fromkeys(sorted(found, key=lambda s: (len(s.split()), s))))


class _Sampler:
    """Random announcements of one language, built from its terminals."""

    def __init__(self, lang: str, rng: random.Random) -> None:
        self.lang, self.rng = lang, rng
        self.phrases = _phrases_by_terminal(lang)

    def word(self, terminal: str) -> str:
        return self.rng.choice(self.phrases[terminal])

    def number(self, n: int) -> str:
        words = spellings(self.lang, n)
        return self.rng.choice(words) if words and self.rng.random() < 0.6 else str(n)

    def numbers(self, nums: tuple[int, ...]) -> str:
        if all(n < 10 for n in nums) or self.rng.random() < 0.5:
            return " ".join(self.number(n) for n in nums)
        return "/".join(map(str, nums))

    def stake(self) -> str:
        amount = self.rng.choice([1, 2, 5, 10, 20, 25, 50, 100])
        form = self.rng.randrange(3)
        if form == 0 and "PIECE_PREFIX" in self.phrases:
            return f"{self.word('PIECE_PREFIX')} {self.number(amount)}"
        if form == 1:
            return f"{self.number(amount)} {self.word('EACH')}"
        return ""

    def position(self, kind: BetKind) -> str:
        pos = self.rng.choice([p for p in INSIDE.values() if p.kind is kind])
        nums = pos.numbers if kind in (BetKind.SPLIT,) else (pos.numbers[0], pos.numbers[-1])
        if len(pos.numbers) in (3, 4) and 0 in pos.numbers:
            nums = pos.numbers
        return f"{self.word(kind.name)} {self.numbers(nums)}"

    def call(self) -> str:
        r = self.rng
        n, digit = r.randrange(37), r.randrange(10)
        makers: list[Callable[[], str]] = [
            lambda: self.word("VOISINS"),
            lambda: self.word("TIERS"),
            lambda: self.word("ORPHELINS"),
            lambda: f"{self.word('ORPHELINS')} {self.word('STRAIGHT')}",
            lambda: self.word("JEU_ZERO"),
            lambda: f"{self.number(n)} {self.word('AND')} {self.word('NEIGHBOURS')}",
            lambda: f"{self.number(n)} {self.word('WITH')} {self.word('NEIGHBOURS')}",
            lambda: f"{self.word('NEIGHBOURS')} {self.word('OF')} {self.number(n)}",
            lambda: f"{self.word('FINALE')} {self.number(digit)}",
            lambda: f"{self.word('FINALE')} {self.numbers(r.choice([(8, 9), (3, 6), (0, 3)]))}",
            lambda: f"{self.number(n)} {self.word('COMPLETE')}",
            lambda: f"{self.number(n)} {self.word('STRAIGHT')}",
            lambda: self.position(r.choice([BetKind.SPLIT, BetKind.STREET, BetKind.CORNER])),
            lambda: self.position(BetKind.SIXLINE),
            lambda: f"{self.word('FIRST')} {self.word('DOZEN')}",
            lambda: self.word(r.choice(["RED", "BLACK", "EVEN", "ODD", "LOW", "HIGH"])),
        ]
        return r.choice(makers)()

    def announcement(self) -> str:
        calls = [self.call() for _ in range(1 + (self.rng.random() < 0.25))]
        text = f" {self.word('AND')} ".join(calls)
        return f"{text} {self.stake()}".strip()


def sample_phrases(
    lang: str, count: int = 50, seed: int = 0, house: House | None = None
) -> list[str]:
    """``count`` distinct announcements that parse, generated from the grammar."""
    house = house or find_house()
    sampler = _Sampler(lang, random.Random(seed))
    found: dict[str, None] = {}
    for _ in range(count * 20):
        text = sampler.announcement()
        try:
            parse(text, lang, house)
        except AnnouncementError:
            continue
        found[text] = None
        if len(found) == count:
            break
    return list(found)
