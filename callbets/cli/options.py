"""Options shared by several ``callbets`` commands."""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import sys
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO, TextIO

from ..errors import CallbetsError, InputError
from ..language.dialogue import zero_choice, zero_move
from ..language.grammar import LANGUAGES
from ..language.parse import number_said, parse
from ..language.unit import IncompleteLanguage, check_language
from ..messages import message_in, say_in, shown
from ..roulette.house import DEFAULT_HOUSE, House
from .usage import refused

EXIT_OK, EXIT_REFUSED, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
"""Exit codes of every command: done, refused, bad input or usage, unforeseen error."""
MAX_ID = 2**63 - 1
"""The largest number of an announcement or a bet (a signed 64-bit integer, as both
backends keep them)."""
MAX_ROUND = 2**31 - 1
"""The largest round (PostgreSQL keeps rounds as 32-bit integers)."""


def echo(text: object = "", file: TextIO | None = None) -> None:
    """Print a line of text for a terminal: passwords hidden, control characters written
    as codes (text from a table, a file or a command line cannot drive the terminal)."""
    print(shown(text), file=file or sys.stdout)


def complain(text: object) -> None:
    """Say why a command stopped, on stderr, in one line: ``callbets: …``."""
    echo(f"callbets: {text}", sys.stderr)


def lang_code(value: str) -> str:
    """A language as typed: ``FR`` and `` fr `` are ``fr`` (then checked against the
    languages callbets speaks); a language on disk whose words are not all there is
    refused here, with everything it lacks (:mod:`callbets.language.unit`)."""
    lang = value.strip().lower()
    if lang in LANGUAGES:
        try:
            check_language(lang)
        except IncompleteLanguage as err:
            raise argparse.ArgumentTypeError(str(err)) from None
    return lang


def text_argument(value: str) -> str:
    """A command-line text that must be valid UTF-8 (a player, an announcement, a key)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise refused("arg_not_utf8", text=repr(value.encode("utf-8", "surrogateescape"))) from None
    return value


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``."""

    def read(value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            number = low - 1
        if not low <= number <= high:
            raise refused("arg_whole_number", value=value[:40], low=low, high=high)
        return number

    return read


def announcement_number(value: str) -> int:
    """An argparse type: an announcement's number as printed (``#7``) or bare (``7``)."""
    return whole_number(1, MAX_ID)(value.strip().removeprefix("#"))


def winning_number(value: str) -> int:
    """An argparse type: the winning number, 0 to 36, in digits or in the words of any
    table's language (``17``, ``dix-sept``, ``diciassette``, ``seventeen``)."""
    said = value.strip()
    heard = (number_said(said, lang) for lang in LANGUAGES)
    number = (
        int(said)
        if said.isdigit() and len(said) < 3
        else next((n for n in heard if n is not None), None)
    )
    if number is None or not 0 <= number <= 36:
        raise refused("arg_winning_number", value=value[:40])
    return number


def ratio(value: str) -> float:
    """An argparse type: a ratio from 0 to 1."""
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if not 0.0 <= number <= 1.0:
        raise refused("arg_ratio", value=value[:40])
    return number


def add_lang_house(p: argparse.ArgumentParser, lang: str = "fr") -> None:
    """``--lang`` and ``--house``."""
    p.add_argument(
        "--lang",
        type=lang_code,
        choices=LANGUAGES,
        default=lang,
        help=f"language (default: {lang})",
    )
    p.add_argument(
        "--house",
        default=DEFAULT_HOUSE,
        metavar="NAME",
        help=f"house profile name or .toml path (default: {DEFAULT_HOUSE}; see 'callbets houses')",
    )


def add_json_modes(p: argparse.ArgumentParser) -> None:
    """``--json`` (one object) or ``--jsonl [FILE]`` (one object per input line)."""
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--json", action="store_true", help="print the JSON contract")
    mode.add_argument(
        "--jsonl",
        nargs="?",
        const="-",
        metavar="FILE",
        help="read one announcement per line (stdin if FILE is absent or -), write JSON lines",
    )


_LINE_BREAKS = re.compile(
    "[\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\ud800-\udfff]"
)
"""Characters some readers take for line breaks (NEL, LINE and PARAGRAPH SEPARATOR) and
the control characters ``json.dumps`` leaves as they are (DEL, C1 controls such as the
8-bit CSI, bidi and invisible formatting marks, lone surrogates).  A regex:
``str.translate`` with a table costs tens of microseconds on every line, even one that
has none of them."""


def json_line(obj: Any) -> str:
    """One JSON object on one line: UTF-8 text, with the characters some readers take for
    line breaks and the control characters a terminal would act on escaped as JSON allows
    (``json.dumps`` escapes those below a space itself)."""
    return _LINE_BREAKS.sub(_escaped, json.dumps(obj, ensure_ascii=False))


def _escaped(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


class JsonLines:
    """A text stream for JSON lines written by ``json.dumps(..., ensure_ascii=False)``
    elsewhere: what it writes has the characters :func:`json_line` escapes escaped."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def write(self, text: str) -> int:
        """Write JSON text (the characters escaped can only be inside its strings)."""
        return self.out.write(_LINE_BREAKS.sub(_escaped, text))


MAX_LINE_BYTES = 4096
"""A line longer than this is answered as too long without being decoded or kept whole."""


def input_lines(stream: BinaryIO) -> Iterator[tuple[int, bytes]]:
    """(line number, bytes) of each ``\n``-ended line, without the ``\n`` (and without the
    ``\r`` of a ``\r\n`` ending).  A bare ``\r`` is part of its line.  Lines longer than
    :data:`MAX_LINE_BYTES` are cut there (the rest is read and dropped, in bounded memory)."""
    number = 0
    while True:
        line = stream.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while (more := stream.readline(65536)) and not more.endswith(b"\n"):
                pass
        line = line.removesuffix(b"\n").removesuffix(b"\r")
        yield number, line


def answer_lines(
    source: str, command: str, answer: Callable[[str], dict[str, Any]], lang: str = "en"
) -> int:
    """One announcement per input line (stdin for ``-``), one JSON object per line out.

    Lines are the input's ``\n`` lines, the same from stdin and from a file.  Blank lines
    are skipped.  A line that is not UTF-8 gets its own ``{"ok": false}`` object (kind
    ``encoding``, with its line number) and the stream goes on; so does a line that
    cannot be answered for any other reason.  Returns the exit code: 0, or 1 if the
    input cannot be read at all.
    """
    try:
        with contextlib.ExitStack() as stack:
            stream: BinaryIO = sys.stdin.buffer
            if source != "-":
                stream = stack.enter_context(open(source, "rb"))
            for number, raw in input_lines(stream):
                result = _answer_one(number, raw, answer, lang)
                if result is not None:
                    print(json_line(result), flush=True)
    except OSError as err:
        echo(f"callbets {command}: cannot read {source}: {err.strerror or err}", sys.stderr)
        return 1
    return 0


def _answer_one(
    number: int, raw: bytes, answer: Callable[[str], dict[str, Any]], lang: str = "en"
) -> dict[str, Any] | None:
    """The answer to one line, its errors said in ``lang``."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        return {
            "input": raw.decode("utf-8", errors="replace"),
            "ok": False,
            "error": {
                "kind": "encoding",
                "message": say_in(lang, "line_not_utf8", line=number, byte=err.start + 1),
                "line": number,
            },
        }
    if not text.strip():
        return None
    if len(raw) >= MAX_LINE_BYTES:
        too_long = say_in(lang, "line_too_long", line=number, most=MAX_LINE_BYTES)
        return _line_error(text[:80] + "…", number, "unrecognized", too_long)
    try:
        return answer(text)
    except CallbetsError as err:
        return _line_error(text, number, getattr(err, "kind", "error"), message_in(err, lang))
    except Exception as err:
        return _line_error(text, number, "internal", f"callbets could not answer: {err!r}")


def _line_error(text: str, number: int, kind: str, message: str) -> dict[str, Any]:
    return {
        "input": text,
        "ok": False,
        "error": {"kind": kind, "message": message, "line": number},
    }


def run_guarded(args: argparse.Namespace) -> int:
    """Run a command, turning callbets errors into one clear line, in the command's
    language (``--lang``) where it has one: exit 2 for bad input, else 1."""
    try:
        code: int = args.run(args)
    except InputError as err:
        complain(message_in(err, getattr(args, "lang", None) or "en", "cli"))
        return EXIT_USAGE
    except BrokenPipeError:  # the reader went away (e.g. piped into head)
        return 0
    except CallbetsError as err:
        complain(message_in(err, getattr(args, "lang", None) or "en", "cli"))
        return EXIT_REFUSED
    except OSError as err:
        complain(err)
        return EXIT_REFUSED
    return code


def zero_choice_in(choice: str, lang: str, house: House) -> str:
    """A zero choice as the settlement reads it (``prison``, ``half``, ``move:black``),
    from the table's own words too: ``à partager``, ``in prigione``, ``move:noir``."""
    kind, colon, target = choice.partition(":")
    said_move = zero_move(choice, lang)
    if said_move is not None:  # "déplacer sur noir", "spostare su nero"
        kind, colon, target = "move", ":", said_move
    if colon and kind.strip() in ("move", "moved"):
        try:
            calls = parse(target, lang, house).calls
        except CallbetsError:
            return choice  # the settlement refuses it with the reason
        positions = [p.position for c in calls for p in c.placements]
        return f"move:{positions[0].kind.value}" if len(positions) == 1 else choice
    return zero_choice(choice, lang) or choice
