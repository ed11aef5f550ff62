"""The croupier's dialogue phrases (``grammar/dialogue.toml``), typed or spoken: confirm
and cancel a readback, and a player's choice when zero catches a simple chance.

>>> confirmation("C'est bon", "fr"), confirmation("annulla", "it"), confirmation("17", "en")
('confirm', 'cancel', None)
"""

from __future__ import annotations

import re
from typing import Any

from .._resources import language_words
from .normalize import fold

_PUNCTUATION = re.compile(r"[^\w']+")

__all__ = [
    "confirmation",
    "confirmation_phrases",
    "phrase",
    "pick_phrases",
    "reading_choice",
    "zero_choice",
    "zero_move",
]


def _dialogue(lang: str) -> dict[str, Any]:
    return language_words("dialogue.toml", lang)


def _said(text: str) -> str:
    """Folded, with punctuation as spaces: "C'est bon." and "Confermo!" as said."""
    return " ".join(_PUNCTUATION.sub(" ", fold(text)).replace("'", "' ").split())


def _match(text: str, lang: str, kinds: tuple[str, ...]) -> str | None:
    said = _said(text)
    for kind in kinds:
        if any(said == _said(phrase) for phrase in _dialogue(lang)[kind]):
            return kind
    return None


def confirmation(text: str, lang: str) -> str | None:
    """``confirm`` or ``cancel`` when the text is one of the language's phrases, else None."""
    return _match(text, lang, ("confirm", "cancel"))


def zero_choice(text: str, lang: str) -> str | None:
    """``prison`` or ``half`` (à partager) when the text asks for it at a zero, else None.

    >>> zero_choice("à partager", "fr"), zero_choice("in prigione", "it")
    ('half', 'prison')
    """
    return _match(text, lang, ("prison", "half"))


def zero_move(text: str, lang: str) -> str | None:
    """The simple chance a player asks to move a caught stake to ("déplacer sur noir" →
    "noir"), as said; None when the text does not ask to move it.

    >>> zero_move("spostare su nero", "it"), zero_move("Déplacer sur la manque", "fr")
    ('nero', 'la manque')
    >>> zero_move("in prigione", "it") is None
    True
    """
    said = _said(text)
    for phrase in sorted(_dialogue(lang).get("move", []), key=len, reverse=True):
        start = _said(phrase) + " "
        if said.startswith(start) and said[len(start) :].strip():
            return said[len(start) :].strip()
    return None


def reading_choice(text: str, lang: str, count: int) -> int | None:
    """Which of ``count`` readings the croupier picked (1-based), by its number or an
    ordinal of the language ("le premier", "il secondo", "the third"), else None.

    >>> reading_choice("2", "fr", 3), reading_choice("Il primo", "it", 2)
    (2, 1)
    >>> reading_choice("the third", "en", 2), reading_choice("17", "en", 3)
    (None, None)
    """
    said = _said(text)
    if said.isdigit():
        n = int(said)
    else:
        ordinals = _dialogue(lang).get("pick", [])
        n = next(
            (i for i, names in enumerate(ordinals, 1) if any(said == _said(x) for x in names)),
            0,
        )
    return n if 1 <= n <= count else None


def phrase(kind: str, lang: str) -> str:
    """The first phrase of a kind (``confirm``, ``half`` …), to show to the croupier."""
    first: str = _dialogue(lang)[kind][0]
    return first


def confirmation_phrases(lang: str) -> list[str]:
    """The confirm and cancel phrases of a language (for recogniser grammars)."""
    words = _dialogue(lang)
    return [*words["confirm"], *words["cancel"]]


def pick_phrases(lang: str) -> list[str]:
    """The phrases that pick one of several readings ("le premier"), for recognisers."""
    return [p for names in _dialogue(lang).get("pick", []) for p in names]
