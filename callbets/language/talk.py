"""Table talk: what a croupier says that is not a bet but moves the table along.

"rien ne va plus" closes betting; "à refaire", "à compléter" and "pour le tout" replay
a winning called bet.  The words are terminals of the language's grammar (``CLOSE``,
``REFAIRE``, ``COMPLETER``, ``TOUT``), so adding a phrasing is a grammar edit, and the
announcement parser refuses them with a reason instead of guessing a bet.

>>> table_talk("rien ne va plus", "fr")
TableTalk(action='close', which=None)
>>> table_talk("à compléter 2", "fr")
TableTalk(action='completer', which=2)
>>> table_talk("voisins du zéro à 5", "fr") is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import AnnouncementError
from .grammar import language
from .normalize import words

CLOSE = "close"
REPLAYS = ("refaire", "completer", "tout")
"""Replay actions, named as in :data:`callbets.roulette.replay.KINDS`."""
TABLE_TALK = frozenset({"chatter", CLOSE, *REPLAYS})
"""Grammar concepts (terminal names, lowercased) that are talk, never part of a bet."""


@dataclass(frozen=True)
class TableTalk:
    """A table action said in words."""

    action: str
    """``close`` or one of :data:`REPLAYS`."""
    which: int | None = None
    """For a replay, the number said after it (which winning bet, as listed), if any."""


def table_talk(text: str, lang: str) -> TableTalk | None:
    """The table action a line says, or None when it says something else.

    Only a line that is the phrase alone counts (filler words aside), and a replay may be
    followed by one number: "à refaire 2".

    :raises ValueError: an unknown language.
    """
    try:
        toks = list(language(lang).lexicon.lex(words(text), text))
    except AnnouncementError:  # a word the grammar does not know: not table talk
        return None
    if not toks:
        return None
    action = toks[0].type.lower()
    if action == CLOSE and len(toks) == 1:
        return TableTalk(CLOSE)
    if action not in REPLAYS:
        return None
    if len(toks) == 1:
        return TableTalk(action)
    if len(toks) == 2 and toks[1].value is not None:
        return TableTalk(action, toks[1].value)
    return None
