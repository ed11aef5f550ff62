"""The ``callbets`` command line: one module per command, each a door that parses its
arguments, calls the rooms and prints.  Exit codes: 0 done, 1 refused, 2 bad input or
usage, 3 an error callbets did not foresee (said in one line: never a traceback)."""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from ..errors import HouseError
from ..messages import say_in, shown
from .options import EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, complain, run_guarded
from .usage import said_usage, usage_language

log = logging.getLogger("callbets")
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def version() -> str:
    """The installed version of callbets."""
    from importlib import metadata  # start-up time: about 28 ms here, for --version and -v

    try:
        return metadata.version("callbets")
    except metadata.PackageNotFoundError:  # pragma: no cover - run from a bare checkout
        return "unknown (not installed)"


DOORS: tuple[str, ...] = (
    "parse", "settle", "table", "db", "floor", "speech", "regress", "console", "vocabulary"
)  # fmt: skip
"""The door modules of :mod:`callbets.cli`, in the order ``--help`` lists their commands."""

COMMANDS: dict[str, str] = {
    **{door: door for door in DOORS if door != "speech"},
    "transcribe": "speech", "listen": "speech", "models": "speech", "houses": "vocabulary",
    "enrol": "regress",
}  # fmt: skip
"""Each command and the door that defines it.  ``callbets COMMAND`` imports only its own
door: the rooms behind the others (speech, table, regress, the console) would add about
0.1 s to every start, which a croupier feels on each typed ``callbets parse``."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of ``callbets`` (exposed for documentation and tests): with
    every command, or only ``command``'s when it names one."""
    top = _Parser(
        prog="callbets",
        description="Turn roulette called bets (French, Italian, English) into chips.",
        epilog="'callbets COMMAND --help' tells more about each command.",
    )
    top.add_argument("--version", action=_Version, nargs=0, help="print the version and exit")
    top.add_argument("--log", metavar="FILE", help="append a log of what callbets does to FILE")
    top.add_argument(
        "-v", "--verbose", action="store_true", help="log more (and to stderr without --log)"
    )
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    doors = (COMMANDS[command],) if command in COMMANDS else DOORS
    for door in doors:
        importlib.import_module(f"{__name__}.{door}").add_commands(sub)
    return top


def command_word(argv: Sequence[str]) -> str | None:
    """The command named in ``argv``: its first word that is not a top-level option (nor
    ``--log``'s file).  An abbreviated option may make it wrong; the full parser is then
    built, which is only slower."""
    words = iter(argv)
    for word in words:
        if word == "--log":
            next(words, None)
        elif not word.startswith("-"):
            return word
    return None


class _Parser(argparse.ArgumentParser):
    """argparse's parser (every command's: subparsers are made of their parent's class),
    saying a usage error with passwords hidden and control characters as codes: argparse
    quotes the words it could not use."""

    words: Sequence[str] = ()
    """The words being parsed (set by :func:`main`): the language of an error is read
    from them (``--lang``, the table of ``--table``)."""

    def error(self, message: str) -> NoReturn:
        """Usage and the error, exit 2 (as argparse does), in the user's language."""
        from .table import table_language  # start-up time: tables load on an error only

        lang = usage_language(_Parser.words, table_language)
        usage = self.format_usage().replace("usage:", say_in(lang, "usage_word"), 1)
        said = shown(said_usage(message, lang))
        self._print_message(usage, sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: {say_in(lang, 'usage_error')}: {said}\n")


class _Version(argparse.Action):
    """``--version``: the installed version, looked up only when asked for."""

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        print(f"callbets {version()}")  # on stdout, as argparse's own version action
        parser.exit()


class _Shown(logging.Formatter):
    """Log lines with passwords hidden and control characters as codes (a log is read on
    a terminal too)."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as logging formats it, then made safe to show."""
        return shown(super().format(record))


class _NoTraceback(_Shown):
    """On the terminal: the message, never a traceback (that goes to ``--log FILE``)."""

    def format(self, record: logging.LogRecord) -> str:
        """The record without its exception (another handler may have cached its text)."""
        plain = logging.makeLogRecord({**record.__dict__, "exc_info": None, "exc_text": None})
        text = super().format(plain)
        return f"{text} (the traceback goes to --log FILE)" if record.exc_info else text


def setup_logging(path: str | None, verbose: bool) -> None:
    """Python's logging for the ``callbets`` loggers: to ``path`` if given (INFO, or DEBUG
    with ``verbose``), else to stderr with ``verbose`` only and without tracebacks, else
    nowhere.  Calling it again replaces what it set up (``main`` may run in-process)."""
    root = logging.getLogger("callbets")
    for old in [h for h in root.handlers if h.get_name() == "callbets"]:
        root.removeHandler(old)
        old.close()
    root.propagate = False  # Python's last-resort handler would print tracebacks
    handler: logging.Handler
    if path:
        handler = logging.FileHandler(path, encoding="utf-8")
        handler.setFormatter(_Shown(FORMAT))
    elif verbose:
        handler = logging.StreamHandler()
        handler.setFormatter(_NoTraceback(FORMAT))
    else:
        handler = logging.NullHandler()
    handler.set_name("callbets")
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    root.addHandler(handler)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``callbets``; returns the exit code."""
    words = sys.argv[1:] if argv is None else argv
    _Parser.words = words
    args = build_parser(command_word(words)).parse_args(words)
    try:
        setup_logging(args.log, args.verbose)
    except OSError as err:
        complain(f"cannot write the log: {err}")
        return EXIT_USAGE
    if log.isEnabledFor(logging.DEBUG):
        log.debug("callbets %s: %s", version(), " ".join(words))
    try:
        return run_guarded(args)
    except HouseError as err:  # pragma: no cover - run_guarded reports it
        complain(err)
        return EXIT_USAGE
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    except Exception as err:
        log.exception("unexpected error")
        complain(f"unexpected error ({type(err).__name__}: {err})")
        return EXIT_INTERNAL
