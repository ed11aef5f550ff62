"""The croupier's confirm and cancel phrases (``grammar/dialogue.toml``), typed or spoken.

>>> confirmation("C'est bon", "fr"), confirmation("annulla", "it"), confirmation("17", "en")
('confirm', 'cancel', None)
"""

from __future__ import annotations

import tomllib
from functools import cache
from typing import Any

from ._resources import grammar_dir
from .normalize import fold

__all__ = ["confirmation", "confirmation_phrases"]


@cache
def _dialogue(lang: str) -> dict[str, Any]:
    data = tomllib.loads((grammar_dir() / "dialogue.toml").read_text(encoding="utf-8"))
    words: dict[str, Any] = data[lang]
    return words


def confirmation(text: str, lang: str) -> str | None:
    """``confirm`` or ``cancel`` when the text is one of the language's phrases, else None."""
    said = " ".join(fold(text).replace("'", "' ").split())
    for kind in ("confirm", "cancel"):
        for phrase in _dialogue(lang)[kind]:
            if said == " ".join(fold(phrase).replace("'", "' ").split()):
                return kind
    return None


def confirmation_phrases(lang: str) -> list[str]:
    """The confirm and cancel phrases of a language (for recogniser grammars)."""
    words = _dialogue(lang)
    return [*words["confirm"], *words["cancel"]]
