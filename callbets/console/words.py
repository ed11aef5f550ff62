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


def command(name: str, lang: str) -> str:
    """The console command a typed name means: the English name, or one of the table's
    words for it (``grammar/commands.toml``: ``asseoir``, ``sedere`` → ``seat``).

    >>> command("asseoir", "fr"), command("sedere", "it"), command("seat", "it")
    ('seat', 'seat', 'seat')
    """
    for english, words in language_words("commands.toml", lang).items():
        if name == english or name in words:
            return english
    return name


def command_words(lang: str) -> list[str]:
    """Every command name a table of this language accepts (for completion)."""
    table = language_words("commands.toml", lang)
    return [*table, *(w for words in table.values() for w in words)]
