"""The ``callbets`` command line.  A door: it parses arguments, calls the rooms, prints."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from ._cliopts import (
    add_json_modes,
    add_lang_house,
    answer_lines,
    json_line,
    text_argument,
    whole_number,
)
from .cli_console import add_commands as add_console_commands
from .cli_regress import add_commands as add_regress_commands
from .cli_speech import add_commands as add_speech_commands
from .cli_table import add_commands, run_guarded
from .errors import AnnouncementError, HouseError
from .grammar import LANGUAGES
from .house import DEFAULT_HOUSE, House, find_house, house_names
from .parse import parse
from .readback import readback
from .svg import announcement_svg
from .vocabulary import sample_phrases, vocabulary

EXIT_OK, EXIT_REFUSED, EXIT_USAGE = 0, 1, 2


def _parse_json(text: str, lang: str, house: House) -> dict[str, object]:
    try:
        return parse(text, lang, house).to_json()
    except AnnouncementError as err:
        return {"input": text, "ok": False, "error": err.to_json()}


def _cmd_parse(args: argparse.Namespace) -> int:
    house = find_house(args.house)
    if args.jsonl is not None:
        if args.text:
            raise SystemExit("callbets parse: give TEXT or --jsonl, not both")
        return answer_lines(args.jsonl, "parse", lambda t: _parse_json(t, args.lang, house))
    text = " ".join(args.text)
    if not text.strip():
        raise SystemExit("callbets parse: nothing to parse (give TEXT, or --jsonl FILE)")
    if args.json:
        result = _parse_json(text, args.lang, house)
        print(json_line(result))
        return EXIT_OK if result["ok"] else EXIT_REFUSED
    try:
        announcement = parse(text, args.lang, house)
    except AnnouncementError as err:
        print(f"refused ({err.kind}): {err.message}\n{err.caret()}", file=sys.stderr)
        for reading in getattr(err, "readings", []):
            print(f"  - {reading}", file=sys.stderr)
        return EXIT_REFUSED
    print(readback(announcement, args.lang, house))
    if args.svg:
        Path(args.svg).write_text(announcement_svg(announcement, text), encoding="utf-8")
        print(f"picture written to {args.svg}")
    return EXIT_OK


def _cmd_houses(args: argparse.Namespace) -> int:
    for name in house_names():
        print(f"{name:16} {find_house(name).description}")
    return EXIT_OK


def _cmd_vocabulary(args: argparse.Namespace) -> int:
    if args.phrases or args.lm:
        from .speech.lm import model
        from .speech.phrases import phrase_list

        print(model(args.lang).arpa() if args.lm else "\n".join(phrase_list(args.lang)))
        return EXIT_OK
    if args.samples:
        for phrase in sample_phrases(args.lang, args.samples, args.seed, find_house(args.house)):
            print(phrase)
    else:
        print("\n".join(vocabulary(args.lang)))
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``callbets`` (exposed for documentation and tests)."""
    top = argparse.ArgumentParser(
        prog="callbets",
        description="Turn roulette called bets (French, Italian, English) into chips.",
    )
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

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
    p.set_defaults(run=_cmd_parse)

    v = sub.add_parser(
        "vocabulary",
        help="list the words of a language, or generate sample announcements",
        description="The words the grammar knows (for recognisers and completion), "
        "or --samples N announcements generated from the grammar that parse.",
    )
    v.add_argument("--lang", choices=LANGUAGES, default="fr", help="language (default: fr)")
    v.add_argument(
        "--samples",
        type=whole_number(1, 10_000),
        metavar="N",
        help="print N sample announcements (1 to 10000)",
    )
    v.add_argument("--seed", type=int, default=0, help="random seed for --samples")
    v.add_argument("--phrases", action="store_true", help="print the Vosk phrase list")
    v.add_argument("--lm", action="store_true", help="print the recognisers' language model (ARPA)")
    v.add_argument("--house", default=DEFAULT_HOUSE, metavar="NAME", help="house profile")
    v.set_defaults(run=_cmd_vocabulary)

    add_commands(sub)
    add_speech_commands(sub)
    add_regress_commands(sub)
    add_console_commands(sub)

    h = sub.add_parser("houses", help="list the shipped house profiles")
    h.set_defaults(run=_cmd_houses)
    return top


EXIT_INTERNAL = 3


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``callbets``; returns the exit code (0 ok, 1 refused, 2 bad input or usage,
    3 an error callbets did not foresee, said in one line: never a traceback)."""
    args = build_parser().parse_args(argv)
    try:
        return run_guarded(args)
    except HouseError as err:  # pragma: no cover - run_guarded reports it
        print(f"callbets: {err}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    except Exception as err:
        print(f"callbets: unexpected error ({type(err).__name__}: {err})", file=sys.stderr)
        return EXIT_INTERNAL
