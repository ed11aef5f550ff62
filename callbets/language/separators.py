"""Separators and punctuation between the bets, checked and tidied before the grammar
reads the tokens (:mod:`callbets.language.tokens`).  Language-neutral: it goes by
terminal names.

* A separator stands between two things.  One at the start ("et les voisins") or the end
  ("tiers et") means the announcement was cut: refused, never read without it.  Two in a
  row, or "and" right before a stake, miss a bet between them.
* Commas at either end are only punctuation ("Pour moi, voisins à 5"), and so is one right
  after "and".
* A slash right after a stake and before a bet word separates two bets ("tercio a 5 /
  huerf a 5").
* An "on" said again right after the number a position word's "on" led to starts the
  next number of a list, as a comma would ("plenos al cuatro al nueve y al veintiuno").
"""

from __future__ import annotations

import itertools

from ..errors import UnrecognizedError
from ..messages import said as message
from .kinds import LINKS, POSITION_WORDS, SEPARATORS, STAKE_PREFIXES, STAKE_WORDS, is_number
from .lexicon import Tok


def slashes_apart(toks: list[Tok]) -> list[Tok]:
    """ "tercio a 5 / huerf a 5": a slash right after a stake and before a bet word
    separates two bets, as a comma does.  Elsewhere it joins numbers ("5/8"), and one left
    with a number missing ("17/ a 5") is refused."""
    if not any(t.type == "SLASH" for t in toks):
        return toks
    return [t._replace(type="COMMA") if t.type == "SLASH" and _after_stake(toks, i) and (
        i + 1 < len(toks) and not is_number(toks[i + 1])
        and toks[i + 1].type not in STAKE_WORDS | SEPARATORS | LINKS
    ) else t for i, t in enumerate(toks)]  # fmt: skip


def _after_stake(toks: list[Tok], i: int) -> bool:
    """Whether toks[i] comes right after a whole stake ("a 5", "5 euros", "5 each")."""
    if i < 2:
        return False
    before = toks[i - 1]
    said = is_number(before) and toks[i - 2].type in STAKE_PREFIXES
    return said or before.type in ("CURRENCY", "EACH", "IN_ALL")


def ons_listed(toks: list[Tok]) -> list[Tok]:
    """ "plenos al cuatro al nueve", "al seis al veinticuatro y al dieciocho a cinco": after
    a position word (or at the start) and its "on" and number, an "on" and a number again
    are the next of a list; a comma is put between them (with an amount first, "cinco al
    17 al 20", nothing changes, and it is refused)."""
    out: list[Tok] = []
    for t in toks:
        if t.type == "ON" and _listing_ons(out):
            out.append(t._replace(type="COMMA", text=",", end=t.start))
        out.append(t)
    return out


def _listing_ons(before: list[Tok]) -> bool:
    """Whether ``before`` ends with a position word (or the start) then "on" and a number,
    once or more ("pleno al 4", "pleno al 4 , al 9", "al 6" said first)."""
    i = len(before)
    while i >= 2 and is_number(before[i - 1]) and before[i - 2].type == "ON":
        i -= 2
        if i == 0 or before[i - 1].type in POSITION_WORDS:
            return True
        if i and before[i - 1].type == "COMMA":
            i -= 1
    return False


def trimmed_commas(toks: list[Tok]) -> list[Tok]:
    """Commas at either end are punctuation around words dropped ("Pour moi, voisins…"), and
    so are those right after "and" ("Huérfanos a 5 y, además, huérfanos en pleno a 5")."""
    start, end = 0, len(toks)
    while start < end and toks[start].type == "COMMA":
        start += 1
    while end > start and toks[end - 1].type == "COMMA":
        end -= 1
    return [t for i, t in enumerate(toks[start:end], start)
            if not (t.type == "COMMA" and toks[i - 1].type in ("AND", "COMMA"))]  # fmt: skip


def _stake_first(toks: list[Tok], i: int) -> bool:
    """Whether toks[i:] is a stake said before the bet it is for ("… y a 5 el par")."""
    bet = toks[i + 2] if i + 2 < len(toks) else None
    return (
        toks[i].type in STAKE_PREFIXES
        and i + 1 < len(toks)
        and is_number(toks[i + 1])
        and bet is not None
        and bet.type not in SEPARATORS | STAKE_WORDS | LINKS
    )


def check_ends(toks: list[Tok]) -> None:
    """Refuse a separator or a link at either end, two separators in a row, and "and"
    right before a stake (not a stake said before its own bet: "… y a 5 el par").

    :raises UnrecognizedError: the announcement is cut, or a bet is missing.
    """
    if not toks:
        return
    first, last = toks[0], toks[-1]
    if first.type in SEPARATORS or first.type in LINKS:
        raise UnrecognizedError(message("starts_with", word=first.text), column=first.start)
    if last.type in SEPARATORS or last.type in LINKS:
        raise UnrecognizedError(message("stops_at", word=last.text), column=last.start)
    for i, (a, b) in enumerate(itertools.pairwise(toks)):
        if a.type in SEPARATORS and b.type in SEPARATORS and a.type != "COMMA":
            said = f"{a.text} {b.text}"
            raise UnrecognizedError(message("missing_between", said=said), column=b.start)
        if (
            a.type in SEPARATORS - {"COMMA"}
            and b.type in STAKE_WORDS
            and not _stake_first(toks, i + 1)
        ):
            said = f"{a.text} {b.text}"
            raise UnrecognizedError(message("bet_missing_between", said=said), column=b.start)
