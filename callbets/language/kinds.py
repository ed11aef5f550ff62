"""Kinds of tokens, by terminal name, that the passes over the tokens share
(:mod:`callbets.language.tokens`, :mod:`callbets.language.ranges`,
:mod:`callbets.language.corrections`)."""

from __future__ import annotations

from .lexicon import Tok

SEPARATORS = frozenset({"AND", "COMMA", "WITH"})
LINKS = frozenset({"OF", "ON"})
"""Words that link what comes before them to what comes after."""
NUMBERISH = frozenset({"NUMBER", "DIGITS", "MONEY", "AMOUNT"})
STAKE_PREFIXES = frozenset({"PIECE_PREFIX", "TOTAL_PREFIX", "EITHER_PREFIX"})
"""Words that begin a stake ("à", "pour", Italian "per")."""
STAKE_WORDS = STAKE_PREFIXES | {"EACH", "IN_ALL"}
OUTSIDE_WORDS = frozenset({
    "RED", "BLACK", "EVEN", "ODD", "LOW", "HIGH", "DOZEN", "COLUMN", "DOZENS", "COLUMNS",
    "P12", "M12", "D12",
})  # fmt: skip
"""The words of the outside bets: no number can follow them as a position of theirs."""
FINALE_WORDS = frozenset({"FINALE", "FINALES", "FINALE_WRITTEN"})
POSITION_WORDS = frozenset({"STRAIGHT", "SPLIT", "STREET", "CORNER", "SIXLINE"})
"""Words that name a position by the numbers said after them ("cheval 8/11")."""


def is_number(tok: Tok) -> bool:
    """Whether a token says a number (a number word, digits, a number grouped)."""
    return tok.value is not None
