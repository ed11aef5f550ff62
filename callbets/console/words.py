"""The console's own words in the table's language (``grammar/console.toml``).

>>> say("fr", "reopened", round=3)
'faites vos jeux : coup 3'
"""

from __future__ import annotations

import tomllib
from functools import cache

from .._resources import grammar_dir


@cache
def messages(lang: str) -> dict[str, str]:
    """Every message of a language, by key."""
    data = tomllib.loads((grammar_dir() / "console.toml").read_text(encoding="utf-8"))
    found: dict[str, str] = data[lang]
    return found


def say(lang: str, key: str, **fields: object) -> str:
    """A message with its fields filled in."""
    return messages(lang)[key].format(**fields)
