"""Messages a croupier reads, in the table's language (``grammar/messages.toml``).

A refusal is raised with :func:`said`: its text is the English message, and it keeps
its key and fields so that :func:`message_in` can say it in French or Italian.  A
position among the fields is named in the table's words.

>>> m = said("no_split", a=5, b=9)
>>> str(m)
'no split 5/9: 5 and 9 are not next to each other'
>>> message_in(m, "fr")
'pas de cheval 5/9 : 5 et 9 ne se touchent pas'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ._resources import language_words
from .layout import Position


@dataclass(frozen=True)
class CallNames:
    """Called bets as a field of a message: named in the table's words when said
    (``voisins du zéro``, ``le 17 et 2 voisins``), joined by ``separator``."""

    calls: tuple[Any, ...]
    """The :class:`~callbets.announcement.PlacedCall` objects."""
    house: Any
    """The :class:`~callbets.house.House` they are played at."""
    separator: str = " ; "
    """Between two names (a neighbours call's name holds commas)."""


class Said(str):
    """A message: its English text, with the key and fields to say it in any language."""

    key: str
    fields: dict[str, Any]

    def __new__(cls, key: str, fields: dict[str, Any]) -> Said:
        """The message ``key`` with its fields, as English text."""
        self = super().__new__(cls, _format(key, fields, "en"))
        self.key, self.fields = key, fields
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as key and fields (errors cross processes in ``regress --jobs``)."""
        return (Said, (self.key, self.fields))


def said(key: str, /, **fields: Any) -> Said:
    """The message ``key`` with its fields (see ``grammar/messages.toml``)."""
    return Said(key, fields)


def call_names(house: Any, *calls: Any, separator: str = " ; ") -> CallNames:
    """Calls as a message field: :class:`~callbets.announcement.PlacedCall` objects, or
    :class:`~callbets.announcement.Call` objects not yet staked."""
    from .announcement import PlacedCall

    placed = (c if isinstance(c, PlacedCall) else PlacedCall(c, 0, ()) for c in calls)
    return CallNames(tuple(placed), house, separator)


def _value(value: Any, lang: str) -> str:
    if isinstance(value, Said):
        return message_in(value, lang)
    if isinstance(value, CallNames):
        from .readback import call_name

        return value.separator.join(call_name(c, lang, value.house) for c in value.calls)
    if isinstance(value, Position):
        from .readback import position_name

        return position_name(value, lang)
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"
    return str(value)


def _format(key: str, fields: dict[str, Any], lang: str) -> str:
    template: str = language_words("messages.toml", lang)[key]
    return template.format(**{k: _value(v, lang) for k, v in fields.items()})


def message_in(message: object, lang: str) -> str:
    """A message (or an error's) in a language; one callbets cannot translate yet is
    given as it is (English)."""
    if isinstance(message, BaseException):
        message = getattr(message, "message", None) or (message.args[0] if message.args else "")
    if isinstance(message, Said) and message.key in language_words("messages.toml", lang):
        return _format(message.key, message.fields, lang)
    return str(message)


def say_in(lang: str, key: str, /, **fields: Any) -> str:
    """The message ``key`` with its fields, said in ``lang``."""
    return _format(key, fields, lang)
