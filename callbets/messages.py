"""Messages a croupier reads, in the table's language (``grammar/messages.toml``).

A refusal is raised with :func:`said`: its text is the English message, and it keeps
its key and fields so that :func:`message_in` can say it in French or Italian.

This module sits below the game and the language: it fills in templates and imports
nothing of callbets but its data files.  A field that is a thing of the game (a
position, called bets) names itself without words, as a :class:`Name` (the key of its
name in ``grammar/readback.toml`` and the numbers that go in it), through the
:class:`Named` protocol; the catalogue says that name in the table's language.

>>> m = said("no_split", a=5, b=9)
>>> str(m)
'no split 5/9: 5 and 9 are not next to each other'
>>> message_in(m, "fr")
'pas de cheval 5/9 : 5 et 9 ne se touchent pas'
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol, cast

from ._resources import language_words


@dataclass(frozen=True)
class Name:
    """A thing of the game without words: the key of its name in the ``[names]`` table
    of ``grammar/readback.toml`` (``split``, ``neighbours``…), the numbers that fill its
    ``{args}`` (``8/9``, ``1+9+14``) and, for neighbours, its ``{side}``."""

    key: str
    args: str = ""
    side: int | None = None

    def in_language(self, lang: str) -> str:
        """The name as a croupier says it in ``lang``: ``cheval 8/9``."""
        template: str = language_words("readback.toml", lang)["names"][self.key]
        return template.format(args=self.args, side=self.side)


class Named(Protocol):
    """A message field that names itself (a position of the layout)."""

    def named(self) -> Name:
        """Its name, without words."""
        ...


@dataclass(frozen=True)
class Names:
    """Several names as one field (called bets), joined by ``separator``."""

    names: tuple[Name, ...]
    separator: str = " ; "
    """Between two names (a neighbours call's name holds commas)."""

    def in_language(self, lang: str) -> str:
        """Each name in ``lang``, joined."""
        return self.separator.join(n.in_language(lang) for n in self.names)


class Said(str):
    """A message: its English text, with the key and fields to say it in any language."""

    key: str
    fields: dict[str, object]

    def __new__(cls, key: str, fields: dict[str, object]) -> Said:
        """The message ``key`` with its fields, as English text."""
        self = super().__new__(cls, _format(key, fields, "en"))
        self.key, self.fields = key, fields
        return self

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as key and fields (errors cross processes in ``regress --jobs``)."""
        return (Said, (self.key, self.fields))


def said(key: str, /, **fields: object) -> Said:
    """The message ``key`` with its fields (see ``grammar/messages.toml``)."""
    return Said(key, fields)


def _value(value: object, lang: str) -> str:
    if isinstance(value, Said):
        return message_in(value, lang)
    if isinstance(value, Name | Names):
        return value.in_language(lang)
    named = getattr(value, "named", None)  # a Named field (not isinstance: a protocol's is slow)
    if callable(named):
        return cast(Name, named()).in_language(lang)
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"
    return str(value)


def _format(key: str, fields: dict[str, object], lang: str) -> str:
    template: str = language_words("messages.toml", lang)[key]
    return template.format(**{k: _value(v, lang) for k, v in fields.items()})


def message_in(message: object, lang: str, door: str | None = None) -> str:
    """A message (or an error's) in a language; one callbets cannot translate yet is
    given as it is (English).  ``door``: where it is said (``cli``): a message whose
    advice names what to do there (``table player rouge`` rather than the console's
    ``/seat rouge``) has a variant keyed ``<key>_<door>``."""
    if isinstance(message, BaseException):
        message = getattr(message, "message", None) or (message.args[0] if message.args else "")
    if isinstance(message, Said):
        words = language_words("messages.toml", lang)
        if door and f"{message.key}_{door}" in words:
            return _format(f"{message.key}_{door}", message.fields, lang)
        if message.key in words:
            return _format(message.key, message.fields, lang)
    return str(message)


def say_in(lang: str, key: str, /, **fields: object) -> str:
    """The message ``key`` with its fields, said in ``lang``."""
    return _format(key, fields, lang)


# ---- what reaches a terminal ------------------------------------------------------------
def printable(text: str) -> str:
    r"""Text for a terminal: every control character (an escape sequence, a bell, a bidi
    override, a byte that was not UTF-8) written as its code, so that text from a file, a
    database or a command line cannot change what the screen shows; line breaks and tabs
    are kept.

    >>> print(printable("rouge\x1b[2J\x1b]0;x\x07 \u202e"))
    rouge\x1b[2J\x1b]0;x\x07 \u202e
    """
    if text.isprintable():
        return text
    return "".join(
        c if c in "\n\t" or not unicodedata.category(c).startswith("C") else repr(c)[1:-1]
        for c in text
    )


_URL_PASSWORD = re.compile(r"(://[^\s:/@?#]*):\S*@")
_KEY_PASSWORD = re.compile(
    r"""(?i)(password\s*=\s*)('(?:[^'\\]|\\.)*'?|"(?:[^"\\]|\\.)*"?|[^\s&;,)]*)"""
)
HIDDEN = "***"
"""What a password is shown as."""


def redacted(text: str) -> str:
    """Text with any database password hidden: a URL's ``user:password@`` and a
    ``password=`` in a key/value connection string or a URL's query.

    >>> redacted("cannot reach postgresql://pit:s3cret@db/floor?password=x&table=T1")
    'cannot reach postgresql://pit:***@db/floor?password=***&table=T1'
    >>> redacted("no table at host=db password='a b' dbname=floor")
    'no table at host=db password=*** dbname=floor'
    """
    if "@" not in text and "=" not in text:
        return text
    return _KEY_PASSWORD.sub(rf"\1{HIDDEN}", _URL_PASSWORD.sub(rf"\1:{HIDDEN}@", text))


def shown(text: object) -> str:
    """Text for a terminal or a log: passwords hidden, control characters as codes."""
    return printable(redacted(str(text)))
