"""Files a user names: each one read (a house profile, a suite, a WAV, a model archive)
is opened here, and refused unless it is a regular file; each one written (an audit
export) is made here, new, owner-only, and whole or not at all.

A named pipe blocks whoever opens it until a writer comes, and a device such as
``/dev/zero`` never ends: either would hang a command.  :func:`open_regular` opens
without blocking (``O_NONBLOCK``) and looks at what it opened (``fstat``), so nothing
can be swapped in between a check and the opening.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO, TextIO, TypeVar

from .errors import InputError
from .messages import said

T = TypeVar("T")


def open_regular(path: str | os.PathLike[str], error: type[InputError] = InputError) -> BinaryIO:
    """``path`` opened for reading in binary, if it is a regular file (links followed).

    :raises InputError: (or ``error``, the caller's kind of it) missing or unreadable,
        or not a regular file (a folder, a named pipe, a device, a socket); said in the
        user's language.
    """
    name = Path(path)
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as err:
        raise error(said("file_unreadable", path=name, reason=err.strerror or err)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise error(said("not_regular_file", path=name))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def write_new_file(
    path: str | os.PathLike[str], write: Callable[[TextIO], T], error: type[InputError] = InputError
) -> T:
    """Write a new UTF-8 text file through ``write(file)``, readable by its owner only
    (0600), and returns what ``write`` returns.  The text goes to a hidden file beside it,
    which is then linked to ``path``: a reader sees the whole file or none, and nothing
    already at ``path`` (a file, a link, even a broken one) is ever followed or replaced.

    :raises InputError: (or ``error``) ``path`` exists, or its folder cannot be written.
    """
    name = Path(path)
    if os.path.lexists(name):
        raise error(said("output_exists", path=name))
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{name.name}.", suffix=".part", dir=name.parent)
    except OSError as err:
        raise error(said("file_unwritable", path=name, reason=err.strerror or err)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            result = write(f)
            f.flush()
            os.fsync(f.fileno())
        os.link(tmp, name)
    except FileExistsError:
        raise error(said("output_exists", path=name)) from None
    except OSError as err:
        raise error(said("file_unwritable", path=name, reason=err.strerror or err)) from None
    finally:
        os.unlink(tmp)
    return result
