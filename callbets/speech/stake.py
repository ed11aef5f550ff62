"""Whether the words of an announcement said its stake.

A legal announcement whose stake was not said is one piece at the house's value, or its
stake is still to come: a croupier who pauses before the stake ("twenty three straight
up … twenty five on it") is heard as two utterances.  Said with a stake after it, such
words read otherwise; said with their stake, they read the same.  The probe is the
language's own "by seven" (its piece prefix and the word for 7, from the grammar), so
nothing here knows a language.
"""

from __future__ import annotations

from functools import cache

from ..errors import AnnouncementError
from ..language.parse import parse
from ..language.vocabulary import spellings
from ..roulette.house import House
from .sentences import phrases


@cache
def stake_probe(lang: str) -> str:
    """A stake said after an announcement (" by seven"), or "" where the grammar has no
    piece prefix."""
    prefix = phrases(lang).get("PIECE_PREFIX", ())
    seven = spellings(lang, 7)
    return f" {prefix[0]} {seven[0]}" if prefix and seven else ""


def stake_said(text: str, lang: str, house: House) -> bool:
    """False when ``text`` is a legal announcement that a stake said after it would
    change (its stake was not said); True otherwise."""
    probe = stake_probe(lang)
    if not probe:
        return True
    try:
        said = parse(text, lang, house).notation()
        more = parse(text + probe, lang, house).notation()
    except AnnouncementError:
        return True
    return more == said
