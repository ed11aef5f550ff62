"""The word lexicon of one language, read from the terminals of its Lark grammar.

Every terminal of ``grammar/<lang>.lark`` whose pattern is a finite set of strings
becomes a set of phrases (one or more words each).  The lexer matches whole words,
always taking the longest phrase, so ``"tiers du cylindre"`` is one token and ``"un"``
never matches inside ``"une"``.  Terminals with an infinite pattern (digits) are matched
against one word at a time.

Naming conventions (documented in ``grammar/README.md``):

* ``N<value>`` terminals are number words (``N17: "dix sept"`` is not needed: ``dix`` and
  ``sept`` compose); they never reach the parser, :mod:`callbets.language.numbers` groups them.
* ``JOIN_TENS`` and ``JOIN_HUNDREDS`` list the words that may join parts of one number
  (French ``vingt et un``, English ``one hundred and five``); ``RANGE_FROM`` and
  ``RANGE_TO`` the words of a run of numbers (``de 1 à 18``, ``1 to 18``); ``PLURAL``
  the plural articles ("les", "i"); ``VOISINS_ALONE`` the neighbours words that alone name
  the voisins du zéro ("les voisins"; English "the neighbours" alone names nothing);
  ``SERIE_ALONE`` the serie words that alone name the tiers (Italian "la serie");
  ``CENTRE_OR_STAKE`` the stake words that also say "of" (French "de": "les voisins de
  17" is asked, the 17's neighbours or the voisins at 17); ``REGIONAL`` the number
  words of one region (Swiss "septante"), which do not stop the standard words from
  composing ("soixante dix"); ``INDEFINITE`` the words for "one" that are also the
  article "a" ("un cheval 8/11"); ``EACH_OR_ONE`` the words for "each" that are also
  the number 1 with its article where a bet begins (Italian "l'uno e i suoi vicini");
  ``ONE_PIECE`` the words for "each" that are also one piece where a bet begins, before
  its "on" (English "a chip on 13", but "5 a chip"); ``ONE_NEIGHBOUR`` the neighbours
  words that name one, counted one by an article that also says "one" before them
  (English "a neighbour each side"); ``PLURAL_STRAIGHT`` the plural straight-up words,
  asked about when said of one number ("le 17 les pleins": rules.md 3.10);
  ``PHRASAL_ON`` the "on" words a verb leaves after a bet ("put the voisins on for 45").
  They
  are roles, read by their text: a role word keeps the terminal it has elsewhere ("à"
  stays a stake word), and one that has none becomes a token of the role (English "to").
* ``%ignore``-d terminals (politeness) are dropped; ``ARTICLE`` tokens are kept for
  :mod:`callbets.language.tokens`, which checks that each comes before what it introduces.
"""

from __future__ import annotations

import importlib
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any, NamedTuple

from lark import Lark

from ..errors import UnrecognizedError
from ..messages import said
from .normalize import Word

# The regex parser of the standard library (``sre_parse`` before 3.11), to list the
# strings a finite terminal pattern matches.
sre_parse: Any = importlib.import_module("re._parser")
sre_c: Any = importlib.import_module("re._constants")

NUMBER_WORD = re.compile(r"N(\d+)$")
MONEY_WORD = re.compile(r"MONEY(\d+)$")
"""An amount and its currency in one word ("a fiver"): the name is the amount."""
VALUED_PIECES = re.compile(r"PIECES(\d+)$")
"""Pieces of one value in one word, said after their count ("three fives"): the name is
the value of each."""
JOIN_ROLES = ("JOIN_TENS", "JOIN_HUNDREDS")
TEXT_ROLES = (
    "RANGE_FROM",
    "RANGE_TO",
    "PLURAL",
    "VOISINS_ALONE",
    "SERIE_ALONE",
    "TYPED",
    "CENTRE_OR_STAKE",
    "REGIONAL",
    "INDEFINITE",
    "EACH_OR_ONE",
    "ONE_PIECE",
    "ONE_NEIGHBOUR",
    "PLURAL_STRAIGHT",
    "PHRASAL_ON",
    "VOISINS_NAME",
    "TWO_WAYS",
    "FROM",
    "YES",
)
ZERO_WORDS = "ZERO_WORDS"
"""A role made from the number words worth 0, not written in a grammar."""
ARTICLE = "ARTICLE"
BOTH = "BOTH"
CHECKED_FILLERS = frozenset({ARTICLE, BOTH})
"""Words that carry no bet but must stand where they belong (:mod:`callbets.language.tokens`)."""
_MAX_ALTERNATIVES = 2000
MAX_GLUED = 60
"""The longest word read as several number words written together (``duecentocinquanta``)."""


class _Infinite(Exception):
    """A terminal's pattern is not a finite set of strings."""


def _expand(items: Any) -> list[str]:
    """All strings matched by a parsed regex sequence (finite patterns only)."""
    results = [""]
    for op, arg in items:
        if op is sre_c.LITERAL:
            options = [chr(arg)]
        elif op is sre_c.SUBPATTERN:
            options = _expand(arg[-1])
        elif op is sre_c.BRANCH:
            options = [s for branch in arg[1] for s in _expand(branch)]
        elif op is sre_c.IN:
            options = []
            for kind, value in arg:
                if kind is not sre_c.LITERAL:
                    raise _Infinite
                options.append(chr(value))
        elif op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT):
            low, high, body = arg
            if high is sre_c.MAXREPEAT or high > 3:
                raise _Infinite
            inner = _expand(body)
            options = []
            for k in range(low, high + 1):
                options.extend(_power(inner, k))
        else:
            raise _Infinite
        results = [a + b for a in results for b in options]
        if len(results) > _MAX_ALTERNATIVES:
            raise _Infinite
    return results


def _power(options: list[str], k: int) -> list[str]:
    out = [""]
    for _ in range(k):
        out = [a + b for a in out for b in options]
    return out


def finite_strings(pattern: str) -> list[str] | None:
    """Every string a regex matches, or None when there are too many or infinitely many."""
    try:
        return sorted(set(_expand(sre_parse.parse(pattern))))
    except _Infinite:
        return None


def phrase_words(phrase: str) -> tuple[str, ...]:
    """Split a grammar string the way input is split: ``"dell'otto"`` → ``("dell'", "otto")``."""
    return tuple(re.findall(r"\d+[a-z]+|\d+|[a-z]+'?|[/,&+=€£$×@]", phrase))


def spoken_form(words: tuple[str, ...]) -> bool:
    """False for a typed contraction split in two ("i'd" → ``i'`` ``d``, "that's"):
    recognisers write such words whole, and typed text splits them like this.  An
    elision, whose first part is consonants only ("s'il", "qu'il", "c'è"), is said."""
    return not any(
        a.endswith("'") and len(b) <= 2 and not _elided(a) for a, b in itertools.pairwise(words)
    )


def _elided(word: str) -> bool:
    """Whether a word ending in an apostrophe is an elision ("s'", "qu'", "l'")."""
    return not any(c in "aeiouy" for c in word[:-1].removesuffix("u"))


class Tok(NamedTuple):
    """One lexed token: a terminal name, its text and where it came from (a named tuple:
    tokens are made and retyped by the thousand per second, ``_replace`` is cheap)."""

    type: str
    """Terminal name (``TIERS``, ``N17``, ``DIGITS``; ``NUMBER`` once grouped)."""
    text: str
    """The normalised words it covers."""
    start: int
    """0-based offset in the original text."""
    end: int
    """Offset just past it in the original text."""
    value: int | None = None
    """The number it stands for, for number tokens."""
    glued: bool = False
    """Part of a word written as one (``duecento``): it must stay in the same number."""
    joined: bool = False
    """Written joined by a hyphen to the token before (``dix-sept``)."""


@dataclass
class Lexicon:
    """Phrases and patterns of one language's terminals, ready to lex words."""

    phrases: dict[tuple[str, ...], str] = field(default_factory=dict)
    """Word sequence → terminal name."""
    patterns: list[tuple[re.Pattern[str], str]] = field(default_factory=list)
    """Single-word patterns for infinite terminals (digits)."""
    ignored: frozenset[str] = frozenset()
    """Terminals dropped by the lexer."""
    number_values: dict[str, int] = field(default_factory=dict)
    """Number word → its value."""
    joins: dict[str, dict[str, frozenset[str]]] = field(default_factory=dict)
    """Role (``JOIN_TENS``…) → join word → the number words it may precede (empty: any)."""
    roles: dict[str, frozenset[str]] = field(default_factory=dict)
    """Role (``RANGE_FROM``, ``RANGE_TO``, ``PLURAL``) → its words."""
    lengths: dict[str, tuple[int, ...]] = field(default_factory=dict)
    """First word → the lengths of the phrases it starts, longest first."""

    @classmethod
    def from_parser(cls, parser: Lark) -> Lexicon:
        """Read the terminals of a compiled grammar.

        :raises ValueError: two terminals claim the same phrase.
        """
        lex = cls(ignored=frozenset(parser.lexer_conf.ignore))
        joins: dict[str, dict[str, set[str]]] = {role: {} for role in JOIN_ROLES}
        roles: dict[str, set[str]] = {role: set() for role in TEXT_ROLES}
        for term in parser.terminals:
            strings = (
                [term.pattern.value]
                if term.pattern.type == "str"
                else finite_strings(term.pattern.to_regexp())
            )
            if strings is None:
                lex.patterns.append((re.compile(term.pattern.to_regexp()), term.name))
                continue
            for s in strings:
                words = phrase_words(s)
                if term.name in JOIN_ROLES:
                    joins[term.name].setdefault(words[0], set()).update(words[1:2])
                    continue
                if term.name in TEXT_ROLES:
                    roles[term.name].add(" ".join(words))
                    continue
                other = lex.phrases.get(words)
                if other is not None and other != term.name:
                    raise ValueError(f"'{s}' is claimed by both {other} and {term.name}")
                lex.phrases[words] = term.name
                number = NUMBER_WORD.match(term.name)
                if number:
                    lex.number_values[" ".join(words)] = int(number.group(1))
        lex.joins = {
            role: {w: frozenset(nxt) for w, nxt in ws.items()} for role, ws in joins.items()
        }
        lex.roles = {role: frozenset(ws) for role, ws in roles.items()}
        for role, ws in roles.items():  # a role word no terminal claims is its own token
            for w in ws:
                lex.phrases.setdefault(phrase_words(w), role)
        # the words for zero, as a role made here: "voisins du zéro et 17" names the zero
        zero = {w for w, value in lex.number_values.items() if value == 0}
        lex.roles[ZERO_WORDS] = frozenset(zero | {"0"})
        starts: dict[str, set[int]] = {}
        for words in lex.phrases:
            starts.setdefault(words[0], set()).add(len(words))
        lex.lengths = {w: tuple(sorted(ns, reverse=True)) for w, ns in starts.items()}
        return lex

    def spoken(self, words: tuple[str, ...]) -> bool:
        """Whether a phrase is said, not only written: no digits, no typed contraction,
        not a written abbreviation (a ``X_WRITTEN`` terminal such as "vdz") and not a
        typed form (the ``TYPED`` role, such as "x" in "17 x5")."""
        name = self.phrases.get(words, "")
        typed = " ".join(words) in self.roles.get("TYPED", frozenset())
        if typed or name.endswith("_WRITTEN") or any(c.isdigit() for w in words for c in w):
            return False
        return spoken_form(words)

    @property
    def fillers(self) -> frozenset[str]:
        """Terminals that carry no bet: the ignored ones, articles, "both"."""
        return self.ignored | CHECKED_FILLERS

    def carries_bet(self, word: str) -> bool:
        """Whether a heard word carries the bet (not an article, politeness or "both":
        misheard, those change nothing)."""
        return self.phrases.get((word,)) not in self.fillers

    def vocabulary(self) -> list[str]:
        """Every word a speaker of the language may say, sorted (for recognisers and
        completion); typed forms (contractions such as "i'd like", labels with digits such
        as "p12") are left out."""
        return sorted(
            {
                w
                for phrase in self.phrases
                if self.spoken(phrase)
                for w in phrase
                if w.isalpha() or "'" in w
            }
        )

    def lex(self, words: list[Word], text: str, articles: bool = False) -> Iterator[Tok]:
        """Turn words into terminals, longest phrase first.

        A word nothing matches may be several number words written together
        (``centocinquanta``); such parts come out marked ``glued``.  Articles and "both"
        are dropped unless ``articles`` is true (the parser checks where they stand).

        :raises UnrecognizedError: a word that is not in the language.
        """
        texts = [w.text for w in words]
        i = 0
        while i < len(words):
            match = self._longest(texts, i)
            if match is None:
                for tok in self._single(words[i], text):
                    yield tok._replace(joined=words[i].joined)
                i += 1
                continue
            name, n = match
            if name not in self.ignored and (articles or name not in CHECKED_FILLERS):
                span = " ".join(texts[i : i + n])
                start, end = words[i].start, words[i + n - 1].end
                yield Tok(name, span, start, end, self._value(name), joined=words[i].joined)
            i += n

    def _longest(self, texts: list[str], i: int) -> tuple[str, int] | None:
        for n in self.lengths.get(texts[i], ()):
            if i + n <= len(texts):
                name = self.phrases.get(tuple(texts[i : i + n]))
                if name is not None:
                    return name, n
        return None

    @staticmethod
    def _value(name: str) -> int | None:
        return _terminal_value(name)

    def _single(self, word: Word, text: str) -> Iterator[Tok]:
        for pattern, name in self.patterns:
            if pattern.fullmatch(word.text):
                value = int(word.text) if word.text.isdigit() else None
                yield Tok(name, word.text, word.start, word.end, value)
                return
        parts = self.glued_numbers(word.text)
        if parts is None:
            raise UnrecognizedError(
                said("unknown_word", word=text[word.start : word.end]), text, word.start
            )
        for part in parts:
            name = self.phrases[(part,)]
            yield Tok(name, part, word.start, word.end, self._value(name), glued=True)

    def glued_numbers(self, word: str) -> list[str] | None:
        """Split ``duecentocinquanta`` into number words (longest first), or None.

        Dynamic programming over the word's suffixes: time grows with the square of its
        length, never exponentially, and a word longer than :data:`MAX_GLUED` letters is
        no number.
        """
        if len(word) > MAX_GLUED:
            return None
        longest = max(map(len, self.number_values), default=0)
        split: dict[int, list[str] | None] = {len(word): []}
        for start in range(len(word) - 1, -1, -1):
            split[start] = None
            for cut in range(min(len(word), start + longest), start, -1):
                rest = split[cut]
                if rest is not None and word[start:cut] in self.number_values:
                    split[start] = [word[start:cut], *rest]
                    break
        return split[0] if word else []


@cache  # a language has a few hundred terminals; each announcement looks up several
def _terminal_value(name: str) -> int | None:
    """The number a terminal stands for (``N17``: 17, a money word's amount), or None."""
    number = NUMBER_WORD.match(name) or MONEY_WORD.match(name) or VALUED_PIECES.match(name)
    return int(number.group(1)) if number else None
