"""Options shared by several ``callbets`` commands."""

from __future__ import annotations

import argparse

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
