"""The word for "one" that is also the article "a" ("un", "una", "a"): the number 1, or
the article of the position word after it ("un cheval 8/11" is one split, not the 1)?
Language-neutral: it goes by the ``INDEFINITE`` role words a language lists."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import AmbiguousError
from ..messages import said as message
from .kinds import LINKS, POSITION_WORDS, SEPARATORS, STAKE_PREFIXES, is_number
from .lexicon import ARTICLE, Lexicon, Tok


def article_or_one(toks: Sequence[Tok], i: int, lexicon: Lexicon) -> Tok:
    """ "un cheval 8/11", "un cavallo 32 33": the word for "one" (an ``INDEFINITE`` role
    word) just before a position word that has its numbers after it is the article
    "a", not the number 1.  After a number it stays a number, and before a position word
    with no numbers ("un plein") too.  After a ten and a joining word it may be either
    ("à vingt et un cheval 8/11": 21, or 20 and a split): asked.

    :raises AmbiguousError: the end of a number, or the article?"""
    tok = toks[i]
    if tok.text not in lexicon.roles.get("INDEFINITE", ()) or i + 2 >= len(toks):
        return tok
    prev = toks[i - 1] if i else None
    joined = i >= 2 and prev is not None and prev.text in lexicon.joins.get("JOIN_TENS", {})
    ends_a_number = joined and _a_ten(toks[i - 2])  # "vingt et un"
    if prev is not None and is_number(prev):
        return tok
    position, after = toks[i + 1], toks[i + 2]
    if position.type not in POSITION_WORDS:
        return tok
    if (after.type in LINKS | {"BETWEEN"} or _from_to(toks, i + 2, lexicon)) and i + 3 < len(toks):
        after = toks[i + 3]  # "un caballo entre el 26 y el 29": the article said, then it
        if after.type == ARTICLE and i + 4 < len(toks):
            after = toks[i + 4]
    elif (linked := _past_stake(toks, i + 2)) is not None:
        after = toks[linked]
    if not is_number(after) and _linked_later(toks, i + 2):
        # "un plein de 25 25 euros sur le 32": the 1, or the article of the straight-up?
        said = f"{tok.text} {position.text}"
        raise AmbiguousError(message("one_or_position", said=said), [], column=tok.start)
    if not is_number(after):
        return tok
    if ends_a_number:  # "à vingt et un cheval 8/11": 21, or 20 and a split?
        ten = toks[i - 2]
        said = f"{ten.text} {prev.text} {tok.text} {position.text}"  # type: ignore[union-attr]
        raise AmbiguousError(
            message("one_or_article", said=said, ten=ten.value, number=(ten.value or 0) + 1),
            [],
            column=ten.start,
        )
    return tok._replace(type=ARTICLE, value=None)


def _linked_later(toks: Sequence[Tok], i: int) -> bool:
    """Whether "on" and a number come later in the same call (before a separator)."""
    for j in range(i, len(toks) - 1):
        if toks[j].type in SEPARATORS:
            return False
        if toks[j].type == "ON" and any(is_number(t) for t in toks[j + 1 : j + 3]):
            return True
    return False


def _past_stake(toks: Sequence[Tok], i: int) -> int | None:
    """Where the numbers start when toks[i:] is a stake then "on": "un plein à 25 euros sur
    le 32" (the position's stake said before its numbers)."""
    if toks[i].type not in STAKE_PREFIXES or i + 1 >= len(toks) or not is_number(toks[i + 1]):
        return None
    j = i + 2
    if j < len(toks) and toks[j].type == "CURRENCY":
        j += 1
    if j + 1 >= len(toks) or toks[j].type != "ON":
        return None
    return j + 2 if toks[j + 1].type == ARTICLE and j + 2 < len(toks) else j + 1


def _from_to(toks: Sequence[Tok], i: int, lexicon: Lexicon) -> bool:
    """Whether toks[i:] is "from N to": "un sixain de 1 à 6" (a first-to-last run)."""
    return (
        i + 2 < len(toks)
        and toks[i].text in lexicon.roles.get("RANGE_FROM", ())
        and toks[i + 2].text in lexicon.roles.get("RANGE_TO", ())
    )


def _a_ten(tok: Tok) -> bool:
    """A ten said in words ("vingt"), which a joining word and "un" may end."""
    value = tok.value
    return tok.type != "DIGITS" and value is not None and value % 10 == 0 and 20 <= value <= 90
