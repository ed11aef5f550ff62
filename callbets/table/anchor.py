"""Heads of audit chains kept outside the table: an anchor file.

A chain cannot notice its own end being cut, nor, without a key, being recomputed whole.
A head (row count and last hash) written somewhere the table's writer cannot rewrite
unnoticed can: a line appended to a file on the pit boss's machine, a head printed on a
signed report.  The anchor file is plain text, one head per line, made owner-only and
only ever appended to::

    <table identity> <rows>:<hash> <when> <keyed|unkeyed> <location, percent-encoded>

One file may hold the heads of every table.  Besides each table's heads it knows which
table was seen at which location, and whether its audit was keyed then, so that a table
put in another's place (:func:`replaced`) or a keyed table rewritten without its key
(:func:`unkeyed_since`) is named even where its own chain verifies.  Lines written
before the last two fields were kept (``<identity> <head> <when>``) are read as heads only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, unquote

from ..errors import InputError
from ..messages import said
from .chain import Head
from .core import timestamp
from .store import is_url

KEYED = {"keyed": True, "unkeyed": False}
SAFE = "/:@?=&+,;~-._"
"""Characters of a location written as they are; any other is percent-encoded."""


@dataclass(frozen=True)
class Kept:
    """One line of an anchor file."""

    uid: str
    head: Head
    when: str
    keyed: bool | None = None
    """Whether the table's audit was keyed when the head was kept (None: not said)."""
    location: str | None = None
    """Where the table was (None: not said)."""


def place(location: str | Path) -> str:
    """A table's location as an anchor file names it: a URL as given (without its
    password: the store's label), a file by its absolute path."""
    text = str(location)
    return text if is_url(text) else str(Path(text).resolve())


def kept_lines(path: str | Path, uid: str | None = None) -> list[Kept]:
    """The lines of an anchor file, in order (none when the file is not there yet): those
    of the table ``uid``, or of every table.  A line that is not a head is an error when
    it is the table's asked for; among every table's, it is left out (it is said when
    its own table is checked: one damaged line never hides the other tables' heads).

    :raises InputError: the file cannot be read, or a line of the table asked for is not
        a head.
    """
    try:
        with open(path, encoding="utf-8", newline="\n") as f:
            lines = f.read().split("\n")  # not splitlines(): only "\n" ends a line here
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"{path}: {err}") from None
    found = []
    for number, line in enumerate(lines, 1):
        if not line.strip() or (uid is not None and line.split()[0] != uid):
            continue
        try:
            found.append(_line(path, number, line))
        except InputError:
            if uid is not None:
                raise
    return found


def _line(path: str | Path, number: int, line: str) -> Kept:
    fields = line.split(maxsplit=4)
    try:
        head = Head.parse(fields[1] if len(fields) > 1 else "")
    except ValueError:
        bad = repr(line[:80])
        raise InputError(said("anchor_not_head", path=path, line=number, text=bad)) from None
    when = fields[2] if len(fields) > 2 else ""
    keyed = KEYED.get(fields[3]) if len(fields) > 3 else None
    location = unquote(fields[4]) if len(fields) > 4 and keyed is not None else None
    return Kept(fields[0], head, when, keyed, location)


def kept_heads(path: str | Path, uid: str) -> list[Head]:
    """The heads an anchor file keeps for the table ``uid``.

    :raises InputError: as :func:`kept_lines`.
    """
    return [k.head for k in kept_lines(path, uid)]


def replaced(lines: list[Kept], uid: str, location: str | Path) -> Kept | None:
    """The line of the table last seen at ``location`` when that table is not ``uid``
    (another table was put in its place), else None."""
    where = place(location)
    here = [k for k in lines if k.location == where]
    return here[-1] if here and here[-1].uid != uid else None


def unkeyed_since(lines: list[Kept], uid: str, keyed_now: bool) -> Kept | None:
    """The last line that kept the table ``uid`` with a keyed audit when it is not keyed
    now (its key check removed and its chain written again), else None."""
    if keyed_now:
        return None
    keyed = [k for k in lines if k.uid == uid and k.keyed]
    return keyed[-1] if keyed else None


def record_head(
    path: str | Path,
    uid: str,
    head: Head,
    keyed: bool | None = None,
    location: str | Path | None = None,
) -> None:
    """Append a table's head to an anchor file (made owner-only; a link is not
    followed), with whether its audit is keyed and where it is, when given.

    :raises InputError: the file cannot be written.
    """
    line = f"{uid} {head.rows}:{head.hash} {timestamp()}"
    if keyed is not None and location is not None:
        where = quote(place(location), safe=SAFE)  # no space nor line break in a line
        line += f" {'keyed' if keyed else 'unkeyed'} {where}"
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as f:
            f.write(line + "\n")
    except OSError as err:
        raise InputError(f"{path}: {err.strerror or err}") from None
