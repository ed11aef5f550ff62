"""Where callbets finds its data files, installed or from a checkout."""

from __future__ import annotations

import copy
import os
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


def cache_dir() -> Path:
    """``$CALLBETS_CACHE``, else ``$XDG_CACHE_HOME/callbets``, else ``~/.cache/callbets``."""
    given = os.environ.get("CALLBETS_CACHE")
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "callbets"


@cache
def grammar_tables(file: str) -> dict[str, Any]:
    """A per-language TOML file of ``grammar/``, every table of it (read once)."""
    data: dict[str, Any] = tomllib.loads((grammar_dir() / file).read_text(encoding="utf-8"))
    return data


@cache
def language_words(file: str, lang: str) -> dict[str, Any]:
    """The ``[lang]`` table of a per-language TOML file of ``grammar/`` (read once), with
    the keys the file lists as ``optional`` said in English where the language has none.

    :raises ValueError: the file has no words for that language.
    """
    data = grammar_tables(file)
    if lang not in data:
        raise ValueError(f"{file} has no words for language '{lang}'")
    words: dict[str, Any] = copy.deepcopy(data[lang])
    for key in data.get("optional", ()):  # left out: said in English
        _fill(words, data[FALLBACK], key.split("."))
    return words


FALLBACK = "en"
"""The language an optional key left out of a table is said in."""


def _fill(words: dict[str, Any], fallback: dict[str, Any], path: list[str]) -> None:
    """Copy ``fallback``'s value at ``path`` into ``words`` where ``words`` has none."""
    head, *rest = path
    if head not in fallback:
        return
    if not rest:
        words.setdefault(head, fallback[head])
    elif isinstance(fallback[head], dict):
        _fill(words.setdefault(head, {}), fallback[head], rest)
