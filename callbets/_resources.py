"""Where callbets finds its data files, installed or from a checkout."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

_PACKAGE = Path(__file__).resolve().parent


def grammar_dir() -> Path:
    """The folder of ``*.lark`` files: inside the wheel, else the checkout's ``grammar/``."""
    for candidate in (_PACKAGE / "grammar", _PACKAGE.parent / "grammar"):
        if (candidate / "shared.lark").is_file():
            return candidate
    raise FileNotFoundError("callbets cannot find its grammar files (grammar/shared.lark)")


@cache
def language_words(file: str, lang: str) -> dict[str, Any]:
    """The ``[lang]`` table of a per-language TOML file of ``grammar/`` (read once).

    :raises ValueError: the file has no words for that language.
    """
    data = tomllib.loads((grammar_dir() / file).read_text(encoding="utf-8"))
    if lang not in data:
        raise ValueError(f"{file} has no words for language '{lang}'")
    words: dict[str, Any] = data[lang]
    return words
