"""argparse's own errors said in the user's language: the language asked for (``--lang``),
else the table's (``--table``, when it can be read), else English.

argparse writes its errors in English, from a handful of templates; each is recognised
here and said again with the words of ``grammar/messages.toml`` (``usage_*`` keys).  An
error of another shape (a type function's own message) keeps argparse's words after the
argument's name."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Sequence

from ..language.grammar import LANGUAGES
from ..messages import Said, message_in, said, say_in

TEMPLATES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"argument (?P<arg>\S+): invalid choice: (?P<value>.*) \(choose from "
                r"(?P<choices>.*)\)$"), "usage_invalid_choice"),
    (re.compile(r"the following arguments are required: (?P<args>.*)$"), "usage_required"),
    (re.compile(r"unrecognized arguments: (?P<args>.*)$"), "usage_unrecognized"),
    (re.compile(r"argument (?P<arg>\S+): expected one argument$"), "usage_expected_one"),
    (re.compile(r"argument (?P<arg>\S+): invalid (?P<kind>\w+) value: (?P<value>.*)$"),
     "usage_invalid_value"),
    (re.compile(r"argument (?P<arg>\S+): (?P<reason>.*)$"), "usage_argument"),
)  # fmt: skip
"""argparse's error templates (Python 3.11 to 3.13) and the key that says each."""


_REFUSED: dict[str, Said] = {}
"""What the argument types refused, by their English words: argparse keeps only the text
of the error a type raises, and the error is said again in the user's language."""


def refused(key: str, /, **fields: object) -> argparse.ArgumentTypeError:
    """The error an argument type raises: the message ``key`` with its fields, said in the
    user's language when argparse reports it (:func:`said_usage`)."""
    message = said(key, **fields)
    _REFUSED[str(message)] = message
    return argparse.ArgumentTypeError(message)


def said_usage(message: str, lang: str) -> str:
    """argparse's error ``message`` in ``lang`` (as it is when no template matches)."""
    for pattern, key in TEMPLATES:
        found = pattern.match(message)
        if found:
            fields = found.groupdict()
            reason = _REFUSED.get(fields.get("reason", ""))
            if reason is not None:
                fields["reason"] = message_in(reason, lang)
            return say_in(lang, key, **fields)
    return message


def usage_language(argv: Sequence[str], table_language: Callable[[str], str | None]) -> str:
    """The language to say a usage error in: ``--lang``'s when it is one callbets speaks,
    else the language of the table ``--table`` names (``table_language``: None when it
    cannot be read), else English."""
    asked = _option(argv, "--lang")
    if asked is not None and asked.lower() in LANGUAGES:
        return asked.lower()
    location = _option(argv, "--table")
    found = table_language(location) if location else None
    return found if found in LANGUAGES else "en"


def _option(argv: Sequence[str], name: str) -> str | None:
    """The value given to option ``name`` (``--lang it`` or ``--lang=it``), if any."""
    for i, word in enumerate(argv):
        if word == name and i + 1 < len(argv):
            return argv[i + 1]
        if word.startswith(f"{name}="):
            return word.partition("=")[2]
    return None
