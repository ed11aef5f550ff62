"""Heads of audit chains kept outside the table: an anchor file.

A chain cannot notice its own end being cut, nor, without a key, being recomputed whole.
A head (row count and last hash) written somewhere the table's writer cannot rewrite
unnoticed can: a line appended to a file on the pit boss's machine, a head printed on a
signed report.  The anchor file is plain text, one head per line, made owner-only and
only ever appended to::

    <table identity> <rows>:<hash> <when>

One file may hold the heads of every table: each table reads only its own lines.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import InputError
from ..messages import said
from .chain import Head
from .core import timestamp


def kept_heads(path: str | Path, uid: str) -> list[Head]:
    """The heads an anchor file keeps for the table ``uid`` (none when the file is not
    there yet).

    :raises InputError: the file cannot be read, or a line of it is not a head.
    """
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"{path}: {err}") from None
    heads = []
    for number, line in enumerate(lines, 1):
        fields = line.split()
        if not fields or fields[0] != uid:
            continue
        try:
            heads.append(Head.parse(fields[1] if len(fields) > 1 else ""))
        except ValueError:
            bad = repr(line[:80])
            raise InputError(said("anchor_not_head", path=path, line=number, text=bad)) from None
    return heads


def record_head(path: str | Path, uid: str, head: Head) -> None:
    """Append a table's head to an anchor file (made owner-only; a link is not followed).

    :raises InputError: the file cannot be written.
    """
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as f:
            f.write(f"{uid} {head.rows}:{head.hash} {timestamp()}\n")
    except OSError as err:
        raise InputError(f"{path}: {err.strerror or err}") from None
