"""Text normalisation shared by typed and recognised input.

Case, accents, apostrophe styles, hyphens and punctuation are folded away so that the
grammar is written in one small alphabet: lowercase ``a-z``, digits, ``/``, ``,``,
``'``, ``&``, ``+``, ``=``, ``×``, ``@`` and the currency signs ``€ £ $``.  A minus sign before a
number is refused: no amount or number is negative.  Every word keeps the span it came
from in the original text, so errors can point at it.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from typing import NamedTuple

from ..errors import IllegalBetError, StakeError, UnrecognizedError
from ..messages import said

MAX_DIGITS = 7
"""Digits in one number: no stake or position needs more
(:data:`callbets.language.tokens.MAX_AMOUNT`)."""

_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'", "´": "'", "ʼ": "'"})
_DASHES = str.maketrans({"–": "-", "‐": "-", "‑": "-", "−": "-"})
"""Dashes that may join words or numbers as a hyphen does.  The em dash (—) never joins:
it opens a line of dialogue ("—Vecinos del cero a cinco.") or sets words apart, and is
skipped as punctuation (between digits it still joins them: "5—8")."""
_ORDINAL_SIGNS = str.maketrans({"°": "o"})  # "3°" as typed for "3º" (terzo)

_WORD = re.compile(
    r"""
    (?P<decimal>\d+(?:[.,]\d+)+)    # 2,5  1.000  1,9,14
  | (?P<ordinal>\d+(?!x\d)[a-z]+)    # 1er 2e 3rd 12p 3° (but 26x5 is 26 × 5)
  | (?P<digits>\d+)
  | (?P<times>(?<=\d)x(?=\d))        # 26x5
  | (?P<word>[a-z]+'?)              # l' dell' s'
  | (?P<slash>/|(?<=\d)\s*[-—]\s*(?=\d))   # 5/8 and 5-8
  | (?P<sign>-(?=\s*\d))             # -5: a sign, never part of a bet
  | (?P<comma>[,;:\n])              # a colon or a new line separates like a comma
  | (?P<stop>(?<=[a-z0-9])[.!?…]+(?=\s))   # "Tiers à 5. 17 en plein": a sentence ends
  | (?P<symbol>[&+=€£$×@])
  | (?P<hyphen>-)                   # dix-sept, or a hyphen cut off a word
  | (?P<skip>(?:[^\S\n]|[.!?:"()\[\]'¿¡«»“”…—])+)   # spaces and punctuation: one run
  | (?P<other>.)
    """,
    re.VERBOSE,
)


_SIGNS = {"slash": "/", "comma": ",", "stop": ",", "times": "×"}
"""The word a sign stands for: ``5-8`` is ``5/8``, a new line or the end of a sentence a
comma, ``26x5`` ``26 × 5``."""


class Word(NamedTuple):
    """One word of normalised text and where it came from (a named tuple: made by the
    dozen for every announcement)."""

    text: str
    """The normalised word (``"zero"``, ``"17"``, ``"/"``)."""
    start: int
    """0-based offset of its first character in the original text."""
    end: int
    """Offset just past its last character in the original text."""
    joined: bool = False
    """Written joined to the word before by a hyphen (``dix-sept``): one written word."""


@cache
def fold_char(c: str) -> str:
    """Lowercase, accent-free form of one character (may be empty or several chars)."""
    plain = c.translate(_APOSTROPHES).translate(_DASHES).translate(_ORDINAL_SIGNS)
    decomposed = unicodedata.normalize("NFKD", plain)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def fold(text: str) -> str:
    """Fold a whole string: ``"Zéro À Cheval"`` becomes ``"zero a cheval"``."""
    return "".join(fold_char(c) for c in text)


def _folded_with_origins(text: str) -> tuple[str, list[int]]:
    if text.isascii() and "`" not in text:  # the common case: nothing to fold but case
        return text.lower(), list(range(len(text) + 1))
    parts = list(map(fold_char, text))
    if set(map(len, parts)) == {1}:  # each character folded to one ("zéro"): same places
        return "".join(parts), list(range(len(text) + 1))
    out: list[str] = []
    origin: list[int] = []
    for i, c in enumerate(text):
        f = fold_char(c)
        out.append(f)
        origin.extend([i] * len(f))
    origin.append(len(text))
    return "".join(out), origin


def _split_decimal(raw: str, start: int, origin: list[int], text: str) -> list[Word]:
    """``1,9,14`` is a list of numbers; ``5.00`` is the whole amount 5; ``2,5``, ``1.000``
    or ``5,00`` (5 and a double zero?) is refused as unclear."""
    parts = re.split(r"([.,])", raw)
    seps = parts[1::2]
    if seps == ["."] and parts[2] == "00" and parts[0] != "0":
        return [Word(parts[0], origin[start], origin[start + len(raw)])]  # 5.00: 5
    if "." in seps or len(seps) == 1:
        raise StakeError(said("decimal", said=raw), text, origin[start])
    words: list[Word] = []
    pos = start
    for part in parts:
        words.append(Word(part, origin[pos], origin[pos + len(part)]))
        pos += len(part)
    return words


def _check_hyphen(folded: str, at: int, text: str, origin: list[int]) -> None:
    """A hyphen joins two words (``dix-sept``) or stands apart (``tiers - 5``); one glued
    to a word on one side only (``quatre-vingt-dix-``) is a word cut off."""
    if folded[at] != "-":
        return
    before = at > 0 and folded[at - 1].isalpha()
    after = at + 1 < len(folded) and folded[at + 1].isalpha()
    if before != after:
        raise UnrecognizedError(said("word_cut_off"), text, origin[at])


def _refuse_digit_forms(text: str) -> None:
    """A character that folds into digits without being a digit (``²``, ``⁷``, ``⒈``,
    ``①``, ``½``) would glue itself to a neighbour ("5²" as 52): refused.  A digit of
    another width or script (``１７``) is a digit and reads as one."""
    for i, c in enumerate(text):
        if c.isascii() or unicodedata.decimal(c, None) is not None:
            continue
        if (
            any(ch.isdigit() for ch in unicodedata.normalize("NFKD", c))
            or unicodedata.numeric(c, None) is not None
        ):
            raise UnrecognizedError(said("not_plain_digit", char=c), text, i)


def _refuse_double_zero(raw: str, at: int, text: str) -> None:
    """``00``, ``000``: the American wheel's double zero, never this wheel's 0."""
    if len(raw) > 1 and not raw.strip("0"):
        raise IllegalBetError(said("double_zero", word=raw), text, at)


def words(text: str) -> list[Word]:
    """Split text into normalised words with their original spans.

    :raises UnrecognizedError: a character that has no place in an announcement, or one
        that only looks like a digit.
    :raises IllegalBetError: a double zero (``00``).
    :raises StakeError: a decimal amount such as ``2,5``.
    """
    if not text.isascii():
        _refuse_digit_forms(text)
    folded, origin = _folded_with_origins(text)
    out: list[Word] = []
    for m in _WORD.finditer(folded):
        kind = m.lastgroup
        if kind == "skip":
            continue
        start, end = m.start(), m.end()
        if kind == "hyphen":
            _check_hyphen(folded, start, text, origin)
            continue
        if kind == "other":
            char = text[origin[start]]
            raise UnrecognizedError(said("unexpected_character", char=char), text, origin[start])
        if kind == "sign":
            raise StakeError(said("sign"), text, origin[start])
        if kind == "decimal":
            out.extend(_split_decimal(m.group(), start, origin, text))
            continue
        if kind == "digits":
            _refuse_double_zero(m.group(), origin[start], text)
        if kind == "digits" and len(m.group()) > MAX_DIGITS:
            digits = said("too_many_digits", count=len(m.group()), most=MAX_DIGITS)
            raise StakeError(digits, text, origin[start])
        value = _SIGNS.get(kind or "", m.group())
        joined = kind == "word" and start > 0 and folded[start - 1] == "-" and bool(out)
        out.append(Word(value, origin[start], origin[end], joined))
    return out
