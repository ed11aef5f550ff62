"""Group runs of number words into numbers, in every way the words allow.

Speech recognisers write numbers as words, and people say them without commas:
"trente deux trente cinq" is 32 then 35.  This module turns a run of number words into
each possible sequence of numbers, longest numbers first (the reading people mean);
:mod:`callbets.language.parse` tries them in that order and keeps the legal ones, but a
reading that cuts words making one number is only ever offered: "cheval dix sept" is
heard as the 17, so the split 7/10 it could also be is asked, never placed.

How words compose is language-neutral arithmetic over the values the grammar gives its
``N<value>`` terminals:

* a *ten* (10, 20, … 90) followed by a unit (1-9) adds up, unless the language has a
  word of its own for the sum (English says "seventeen", so "ten seven" is 10 then 7;
  French has no word for 17, so "dix sept" is 17);
* a ten followed by a teen (10-19) adds up only when the language has no word for the
  next ten (French "soixante et onze" is 71 because French has no word for 70);
* a ``JOIN_TENS`` word may sit between a ten and what follows ("vingt et un");
* ``[unit] 100 [rest]`` and ``[1-999] 1000 [rest]`` multiply and add, with an optional
  ``JOIN_HUNDREDS`` word before the rest ("one hundred and five"); a word of its own for
  200-900 stands for ``[unit] 100`` (Spanish "quinientos cincuenta");
* zero stands alone; digits stand alone and never compose with words.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..errors import UnrecognizedError
from ..messages import said as message
from .lexicon import MONEY_WORD, VALUED_PIECES, Lexicon, Tok

MAX_READINGS = 256
"""More groupings than this are not explored (a run of number words that long is noise)."""

HUNDREDS = frozenset(range(200, 1000, 100))
"""Values a language may have one word for, said before the rest of the number as
"[unit] 100" is (Spanish "quinientos cincuenta" is 550)."""

MAX_RUN = 16
"""The most number words in one run (joining words such as "et" do not count): "deux cent
cinquante sept" is four; "dix sept et vingt et vingt cinq et trente deux" seven."""


@dataclass(frozen=True)
class Composer:
    """Composes number words for one language."""

    values_with_a_word: frozenset[int]
    """Every value the language has a single lexicon entry for (a regional word aside:
    Swiss "septante" leaves "soixante dix" composing to 70)."""
    join_tens: dict[str, frozenset[str]]
    """Words that may join a ten and a unit → the unit words they may precede (empty: any)."""
    join_hundreds: dict[str, frozenset[str]]
    """Words that may join hundreds or thousands and the rest (same form)."""

    @classmethod
    def from_lexicon(cls, lexicon: Lexicon) -> Composer:
        """Read the number words and join roles of a lexicon."""
        regional = lexicon.roles.get("REGIONAL", frozenset())
        return cls(
            frozenset(v for w, v in lexicon.number_values.items() if w not in regional),
            lexicon.joins.get("JOIN_TENS", {}),
            lexicon.joins.get("JOIN_HUNDREDS", {}),
        )

    def value(self, toks: Sequence[Tok]) -> int | None:
        """The number a sequence of number words (and join words) says, or None."""
        if len(toks) == 1 and toks[0].value == 0:
            return 0
        if any(t.value == 0 for t in toks):
            return None
        return self._below_million(list(toks))

    @property
    def join_words(self) -> frozenset[str]:
        """Every word that may join parts of a number."""
        return frozenset(self.join_tens) | frozenset(self.join_hundreds)

    @staticmethod
    def _joins(toks: list[Tok], joins: dict[str, frozenset[str]]) -> bool:
        """Whether toks[0] is a join word allowed before toks[1]."""
        if len(toks) < 2 or toks[0].value is not None or toks[0].text not in joins:
            return False
        allowed = joins[toks[0].text]
        return not allowed or toks[1].text in allowed

    def _rest(self, toks: list[Tok], limit: int) -> int | None:
        """The part after a multiplier: empty, or an optional join word then a number."""
        if not toks:
            return 0
        if toks[0].value is None:
            if not self._joins(toks, self.join_hundreds):
                return None
            toks = toks[1:]
        v = self._below_thousand(toks) if limit == 1000 else self._below_hundred(toks)
        return v if v is not None and 0 < v < limit else None

    def _below_million(self, toks: list[Tok]) -> int | None:
        k = _index_of(toks, 1000)
        if k is None:
            return self._below_thousand(toks)
        if k < 0:
            return None
        head = 1 if k == 0 else self._below_thousand(toks[:k])
        rest = self._rest(toks[k + 1 :], 1000)
        if head is None or rest is None:
            return None
        return head * 1000 + rest

    def _below_thousand(self, toks: list[Tok]) -> int | None:
        first = toks[0].value if toks else None
        if first is not None and first in HUNDREDS and toks[0].type != "DIGITS":
            rest = self._rest(toks[1:], 100)  # a word for the hundreds ("quinientos")
            return None if rest is None else first + rest
        k = _index_of(toks, 100)
        if k is None:
            return self._below_hundred(toks)
        if k < 0 or k > 1:
            return None
        head = 1 if k == 0 else toks[0].value
        if head is None or not 1 <= head <= 9:
            return None
        if k == 1 and head > 1 and head * 100 in self.values_with_a_word:
            return None  # "a cinco ciento cincuenta": 5 then 150 ("quinientos" is 500)
        rest = self._rest(toks[k + 1 :], 100)
        if rest is None:
            return None
        return head * 100 + rest

    def _below_hundred(self, toks: list[Tok]) -> int | None:
        if len(toks) == 1:
            v = toks[0].value
            return v if v is not None and v < 100 else None
        ten, rest = toks[0], toks[1:]
        if ten.value is None or ten.value % 10 or not 10 <= ten.value <= 90:
            return None
        if rest[0].value is None:
            if not self._joins(rest, self.join_tens):
                return None
            rest = rest[1:]
        if len(rest) == 2:  # "soixante dix sept": a ten, then a teen said in two words
            part = self._below_hundred(rest)
            if part is None or not 11 <= part <= 19:
                return None
        elif len(rest) != 1 or rest[0].value is None:
            return None
        else:
            part = rest[0].value
        total = ten.value + part
        if 1 <= part <= 9:
            return None if total in self.values_with_a_word else total
        if 10 <= part <= 19 and ten.value + 10 not in self.values_with_a_word:
            return None if total in self.values_with_a_word else total
        return None


def _index_of(toks: list[Tok], value: int) -> int | None:
    """Where the one word worth ``value`` is; None if absent, -1 if there are several."""
    found = [i for i, t in enumerate(toks) if t.value == value]
    if not found:
        return None
    return found[0] if len(found) == 1 else -1


def _is_number_word(tok: Tok) -> bool:
    return (
        tok.value is not None
        and tok.type != "DIGITS"
        and not MONEY_WORD.match(tok.type)
        and not VALUED_PIECES.match(tok.type)
    )


def _number(toks: Sequence[Tok], value: int) -> Tok:
    text = " ".join(t.text for t in toks)
    return Tok("NUMBER", text, toks[0].start, toks[-1].end, value)


@dataclass(frozen=True)
class Run:
    """A stretch of the token list holding number words (and join words between them)."""

    start: int
    end: int


def _runs(toks: list[Tok], joins: frozenset[str]) -> list[Run]:
    runs: list[Run] = []
    i = 0
    while i < len(toks):
        if not _is_number_word(toks[i]):
            i += 1
            continue
        j = i + 1
        while j < len(toks):
            if _is_number_word(toks[j]):
                j += 1
            elif toks[j].text in joins and j + 1 < len(toks) and _is_number_word(toks[j + 1]):
                j += 2
            else:
                break
        runs.append(Run(i, j))
        i = j
    return runs


def _uncuttable(composer: Composer, toks: Sequence[Tok]) -> frozenset[int]:
    """Indexes j such that cutting the run before toks[j] would split one written number.

    A word written as one (``duecentocinquanta``) is never cut.  Words joined by hyphens
    (``trente-sept``, ``vingt-et-un``) are not cut when together they make one number:
    "trente-sept" is 37, never 30 and 7.  (``huit-neuf``, which is no number, may be.)
    """
    cuts: set[int] = set()
    for j in range(1, len(toks)):
        if toks[j - 1].glued and toks[j].glued and toks[j - 1].start == toks[j].start:
            cuts.add(j)
    j = 1
    while j < len(toks):
        if not toks[j].joined:
            j += 1
            continue
        a, b = j - 1, j
        while b + 1 < len(toks) and toks[b + 1].joined:
            b += 1
        if composer.value(toks[a : b + 1]) is not None:
            cuts.update(range(a + 1, b + 1))
        j = b + 1
    return frozenset(cuts)


def _segmentations(
    composer: Composer, toks: Sequence[Tok], uncuttable: frozenset[int], at: int = 0
) -> Iterator[list[Tok]]:
    """Every way to read toks[at:] as numbers (join words left standing), longest first."""
    if at == len(toks):
        yield []
        return
    if not _is_number_word(toks[at]):  # a join word standing between two numbers
        for rest in _segmentations(composer, toks, uncuttable, at + 1):
            yield [toks[at], *rest]
        return
    for j in range(len(toks), at, -1):
        if not _is_number_word(toks[j - 1]) or j in uncuttable:
            continue
        value = composer.value(toks[at:j])
        if value is None:
            continue
        for rest in _segmentations(composer, toks, uncuttable, j):
            yield [_number(toks[at:j], value), *rest]


@dataclass(frozen=True)
class Reading:
    """One way of grouping every run of number words in an announcement."""

    tokens: tuple[Tok, ...]
    """The token list with numbers grouped and retyped."""
    rank: tuple[int, ...]
    """For each run, the position of its grouping in longest-first order (0 = longest)."""

    def dominates(self, other: Reading) -> bool:
        """True when this reading takes numbers at least as long in every run."""
        pairs = zip(self.rank, other.rank, strict=True)
        return self.rank != other.rank and all(a <= b for a, b in pairs)


def _assemble(toks: list[Tok], runs: list[Run], groupings: list[list[Tok]]) -> list[Tok]:
    out: list[Tok] = []
    pos = 0
    for run, grouping in zip(runs, groupings, strict=True):
        out.extend(toks[pos : run.start])
        out.extend(grouping)
        pos = run.end
    out.extend(toks[pos:])
    return out


def _thousands_in_digits(toks: list[Tok]) -> list[Tok]:
    """ "2 mil pesos", "5 mille": digits then the word for a thousand, with no other
    number word after it, are one number (2000)."""
    if not any(t.value == 1000 for t in toks):
        return toks
    out: list[Tok] = []
    for i, tok in enumerate(toks):
        before = out[-1] if out else None
        after = toks[i + 1] if i + 1 < len(toks) else None
        if (
            before is not None
            and before.type == "DIGITS"
            and before.value is not None
            and _is_number_word(tok)
            and tok.value == 1000
            and not (after is not None and _is_number_word(after))
        ):
            out[-1] = _number([before, tok], before.value * 1000)
            continue
        out.append(tok)
    return out


def readings(composer: Composer, toks: list[Tok]) -> Iterator[Reading]:
    """Every grouping of the number words in ``toks``, the all-longest one first.

    The first reading is built without listing the others, which are only worked out
    if the caller asks for them (most announcements stop at the first).
    """
    toks = _thousands_in_digits(toks)
    runs = _runs(toks, composer.join_words)
    for r in runs:
        said = sum(_is_number_word(t) for t in toks[r.start : r.end])
        if said > MAX_RUN:
            raise UnrecognizedError(
                message("number_run", count=said, most=MAX_RUN), column=toks[r.start].start
            )
    slices = [toks[r.start : r.end] for r in runs]
    cuts = [_uncuttable(composer, run) for run in slices]
    firsts = [
        next(_segmentations(composer, run, c), None) for run, c in zip(slices, cuts, strict=True)
    ]
    longest = [f for f in firsts if f is not None]
    if len(longest) < len(runs):
        # A run no grouping can read (e.g. "cent cent"): let the parser report it.
        yield Reading(tuple(toks), ())
        return
    yield Reading(tuple(_assemble(toks, runs, longest)), (0,) * len(runs))
    options = [
        list(itertools.islice(_segmentations(composer, run, c), 32))
        for run, c in zip(slices, cuts, strict=True)
    ]
    combos = itertools.product(*(range(len(o)) for o in options))
    next(combos, None)  # the all-longest reading, already given
    for ranks in itertools.islice(combos, MAX_READINGS):
        groupings = [o[k] for o, k in zip(options, ranks, strict=True)]
        yield Reading(tuple(_assemble(toks, runs, groupings)), tuple(ranks))
