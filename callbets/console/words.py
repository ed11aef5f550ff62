"""The console's own words in the table's language (``grammar/console.toml``).

>>> say("fr", "reopened", round=3)
'faites vos jeux : coup 3'
"""

from __future__ import annotations

from .._resources import language_words


def messages(lang: str) -> dict[str, str]:
    """Every message of a language, by key."""
    return language_words("console.toml", lang)


def say(lang: str, key: str, **fields: object) -> str:
    """A message with its fields filled in."""
    return messages(lang)[key].format(**fields)
