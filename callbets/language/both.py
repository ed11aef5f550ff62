""" "Both" said of the numbers or the stake around it ("el 17 y el 20, los dos a pleno",
"tous les deux à 5"): where it stands, and what it says.  Checked, then dropped, by
:func:`callbets.language.tokens.drop_articles`.  Language-neutral: it goes by terminal
names."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from ..errors import UnrecognizedError
from ..messages import said as message
from .kinds import STAKE_WORDS, is_number
from .lexicon import ARTICLE, Tok

QUALIFIED_BY_BOTH = frozenset({"STRAIGHT"})
"""Bet words that "both" may qualify, said after the numbers they are said of: "el 17 y el
20, los dos a pleno", "17 and 20, both straight up".  ("Both complete" is not among them:
"17 et 20 complets" is asked, and the assembler does not hear the "both" that answers.)"""


def both_before_word(toks: Sequence[Tok], i: int) -> bool:
    """Whether "both" stands between numbers listed and a bet word said of all of them
    (at least two numbers, an "and" or a comma between them), or their neighbours ("le 1,
    le 9 et le 14, tous avec leurs voisins")."""
    said_of = i + 1 < len(toks) and (
        toks[i + 1].type in QUALIFIED_BY_BOTH or _with_neighbours(toks, i + 1)
    )
    if not said_of:
        return False
    j = i - 1 if i and toks[i - 1].type == "COMMA" else i
    listed = list(itertools.takewhile(
        lambda t: is_number(t) or t.type in ("AND", "COMMA", ARTICLE), reversed(toks[:j])
    ))  # fmt: skip
    return sum(is_number(t) for t in listed) >= 2 and bool(listed) and is_number(listed[0])


def _with_neighbours(toks: Sequence[Tok], i: int) -> bool:
    """ "tous avec leurs voisins", "los dos con sus vecinos": "with" and the neighbours,
    which "both" says are each number's (as "1, 9 et 14 avec leurs voisins" is)."""
    rest = [t for t in toks[i + 1 : i + 3] if t.type != ARTICLE]
    return toks[i].type == "WITH" and bool(rest) and rest[0].type == "NEIGHBOURS"


def both_before_stake(toks: Sequence[Tok], i: int) -> None:
    """ "tous les deux à 5": "both" qualifies the stake after it, and nothing else."""
    j = i + 1
    while j < len(toks) and is_number(toks[j]):
        j += 1
    after = toks[j] if j < len(toks) else None
    amount = j > i + 1 and after is not None and after.type in ("EACH", "IN_ALL", "CURRENCY")
    prefix = j == i + 1 and after is not None and after.type in STAKE_WORDS
    if not (amount or prefix):
        raise UnrecognizedError(
            message("both_before_stake", word=toks[i].text), column=toks[i].start
        )
