"""``callbets parse``: an announcement into calls and chips, or a refusal with the reason."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..errors import AnnouncementError, InputError
from ..language.parse import parse
from ..language.readback import readback, reading_line
from ..messages import message_in, printable, said, say_in
from ..pictures.svg import announcement_svg
from ..roulette.house import House, find_house
from .options import (
    EXIT_OK,
    EXIT_REFUSED,
    add_json_modes,
    add_lang_house,
    answer_lines,
    echo,
    json_line,
    text_argument,
)


def _parse_json(text: str, lang: str, house: House) -> dict[str, object]:
    try:
        return parse(text, lang, house).to_json()
    except AnnouncementError as err:
        return {"input": text, "ok": False, "error": err.to_json(lang)}


def _caret(err: AnnouncementError) -> str:
    """The announcement as shown (control characters as codes), a caret under the word
    at fault."""
    if err.column is None:
        return printable(err.text)
    return f"{printable(err.text)}\n{' ' * len(printable(err.text[: err.column]))}^"


def cmd_parse(args: argparse.Namespace) -> int:
    """Parse TEXT (or each line of --jsonl) and print the readback or the JSON contract."""
    house = find_house(args.house)
    if args.jsonl is not None:
        if args.text:
            raise InputError(said("cli_text_or_jsonl"))
        return answer_lines(
            args.jsonl, "parse", lambda t: _parse_json(t, args.lang, house), args.lang
        )
    text = " ".join(args.text)
    if not text.strip():
        raise InputError(said("cli_nothing_to_parse"))
    if args.json:
        result = _parse_json(text, args.lang, house)
        print(json_line(result))
        return EXIT_OK if result["ok"] else EXIT_REFUSED
    try:
        announcement = parse(text, args.lang, house)
    except AnnouncementError as err:
        kind = say_in(args.lang, f"kind_{err.kind}")
        refused = say_in(
            args.lang, "cli_refused", kind=kind, message=message_in(err.message, args.lang)
        )
        echo(refused, sys.stderr)
        echo(_caret(err), sys.stderr)
        for reading in getattr(err, "readings", []):
            echo(f"  - {reading_line(reading, args.lang, house)}", sys.stderr)
        return EXIT_REFUSED
    print(readback(announcement, args.lang, house))
    print(say_in(args.lang, "cli_notation", notation=announcement.notation()))  # a suite's "expect"
    if args.svg:
        Path(args.svg).write_text(announcement_svg(announcement, text, args.lang),
                                  encoding="utf-8")  # fmt: skip
        print(say_in(args.lang, "cli_picture_written", file=args.svg))
    return EXIT_OK


def add_commands(sub: Any) -> None:
    """Register ``parse`` on the top-level parser."""
    p = sub.add_parser(
        "parse",
        help="parse an announcement into chip placements",
        description="Parse an announcement into calls and chips, or refuse it with the reason.",
        epilog='example: callbets parse --lang fr "voisins du zéro à 5"',
    )
    p.add_argument("text", nargs="*", metavar="TEXT", help="the announcement", type=text_argument)
    add_lang_house(p)
    add_json_modes(p)
    p.add_argument(
        "--svg",
        metavar="FILE",
        help="also write a picture of the chips on the layout and the wheel (SVG)",
    )
    p.set_defaults(run=cmd_parse)
