"""The package's own exceptions.  Nothing else leaves the public API.

An :class:`AnnouncementError` keeps the input, the column (0-based offset into the text
as given) and a message a croupier can read.  Its ``kind`` is the name used in the JSON
contract: ``unrecognized``, ``illegal``, ``ambiguous`` or ``stake``.
"""

from __future__ import annotations

from .messages import message_in


class CallbetsError(Exception):
    """Base of every error callbets raises on purpose."""


class TableError(CallbetsError, RuntimeError):
    """The table cannot do this: closed for betting, unknown player, locked file…"""


class InputError(CallbetsError, ValueError):
    """An input file (house profile, suite manifest, report) that cannot be used; the
    message names the file, the line or key, and what is wrong.  Commands exit 2."""


class AuditKeyError(TableError, InputError):
    """A keyed table without its key (or with another): nothing is written or verified
    (exit 2)."""


class LocationError(InputError, TableError):
    """A table's location that cannot be used as written (a malformed database URL, a
    table name that is not plain text): bad input, so commands exit 2."""


class OutcomeUnknown(TableError):
    """The connection to the database was lost while a change was being committed: it
    may or may not have been made.  ``location`` is where (without a password)."""

    def __init__(self, message: str, location: str) -> None:
        super().__init__(message)
        self.location = location


class HouseError(InputError):
    """A house profile is unknown, unreadable or invalid."""


class AnnouncementError(CallbetsError, ValueError):
    """An announcement that cannot be turned into chips."""

    kind = "announcement"

    def __init__(self, message: str, text: str = "", column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        """What went wrong, in plain words."""
        self.text = text
        """The announcement as given."""
        self.column = column
        """0-based offset in ``text`` of the word at fault, if one is."""

    def with_text(self, text: str) -> AnnouncementError:
        """Return this error with the announcement text filled in."""
        self.text = text
        return self

    def caret(self) -> str:
        """The text with a caret line under the column at fault (two lines)."""
        if self.column is None:
            return self.text
        return f"{self.text}\n{' ' * self.column}^"

    def to_json(self, lang: str | None = None) -> dict[str, object]:
        """The ``error`` object of the JSON contract: the language-neutral ``kind``, the
        message (in ``lang`` where it has been translated), the column, and the
        message's ``key`` when it has one (``grammar/messages.toml``)."""
        out: dict[str, object] = {
            "kind": self.kind,
            "message": message_in(self.message, lang) if lang else str(self.message),
            "column": self.column,
        }
        key = getattr(self.message, "key", None)
        if key:
            out["key"] = key
        return out


class UnrecognizedError(AnnouncementError):
    """Words that are not a bet in this language (chatter, typos, unknown phrasing)."""

    kind = "unrecognized"


class IllegalBetError(AnnouncementError):
    """Well-formed, but not a bet on this layout or at this house ("cheval 5/9")."""

    kind = "illegal"


class StakeError(AnnouncementError):
    """The stake is missing its amount, is zero, or does not divide into pieces."""

    kind = "stake"


class AmbiguousError(AnnouncementError):
    """More than one legal reading; the croupier must ask."""

    kind = "ambiguous"

    def __init__(
        self, message: str, readings: list[str], text: str = "", column: int | None = None
    ) -> None:
        super().__init__(message, text, column)
        self.readings = readings
        """Each possible reading, in canonical notation."""

    def to_json(self, lang: str | None = None) -> dict[str, object]:
        """The ``error`` object of the JSON contract, with the readings."""
        out = super().to_json(lang)
        out["readings"] = self.readings
        return out
