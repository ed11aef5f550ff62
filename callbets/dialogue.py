"""The croupier's dialogue phrases (``grammar/dialogue.toml``), typed or spoken: confirm
and cancel a readback, and a player's choice when zero catches a simple chance.

>>> confirmation("C'est bon", "fr"), confirmation("annulla", "it"), confirmation("17", "en")
('confirm', 'cancel', None)
"""

from __future__ import annotations

from typing import Any

from ._resources import language_words
from .normalize import fold

__all__ = ["confirmation", "confirmation_phrases", "phrase", "zero_choice"]


def _dialogue(lang: str) -> dict[str, Any]:
    return language_words("dialogue.toml", lang)


def _said(text: str) -> str:
    return " ".join(fold(text).replace("'", "' ").split())


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


def phrase(kind: str, lang: str) -> str:
    """The first phrase of a kind (``confirm``, ``half`` …), to show to the croupier."""
    first: str = _dialogue(lang)[kind][0]
    return first


def confirmation_phrases(lang: str) -> list[str]:
    """The confirm and cancel phrases of a language (for recogniser grammars)."""
    words = _dialogue(lang)
    return [*words["confirm"], *words["cancel"]]
