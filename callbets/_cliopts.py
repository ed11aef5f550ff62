"""Options shared by several ``callbets`` commands."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Iterable
from typing import Any

from .grammar import LANGUAGES
from .house import DEFAULT_HOUSE


def add_lang_house(p: argparse.ArgumentParser, lang: str = "fr") -> None:
    """``--lang`` and ``--house``."""
    p.add_argument("--lang", choices=LANGUAGES, default=lang, help=f"language (default: {lang})")
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


def answer_lines(source: str, command: str, answer: Callable[[str], dict[str, Any]]) -> int:
    """One announcement per input line (stdin for ``-``), one JSON object per line out.

    Blank lines are skipped.  Returns the exit code: 0, or 1 if the input cannot be read.
    """
    try:
        with contextlib.ExitStack() as stack:
            lines: Iterable[str] = sys.stdin
            if source != "-":
                lines = stack.enter_context(open(source, encoding="utf-8"))
            for line in lines:
                text = line.rstrip("\n")
                if text.strip():
                    print(json.dumps(answer(text), ensure_ascii=False), flush=True)
    except (OSError, UnicodeDecodeError) as err:
        print(f"callbets {command}: cannot read {source}: {err}", file=sys.stderr)
        return 1
    return 0
