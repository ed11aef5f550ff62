"""``callbets console``: the door onto the typed console (:mod:`callbets.console`)."""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

from ..console.lock import ConsoleLock, DatabaseConsoleLock
from ..language.grammar import LANGUAGES
from ..messages import say_in
from ..roulette.house import DEFAULT_HOUSE
from ..speech.engines import ENGINES
from ..table import Table, default_path, exists, location_of
from ..table.core import data_folder, make_data_folder
from ..table.postgres import PostgresStore
from .options import echo, lang_code


def _table(args: argparse.Namespace) -> Table:
    path = location_of(args.table, default_path())
    if not exists(path):
        table = Table.create(path, args.house or DEFAULT_HOUSE, args.lang or "fr", args.croupier)
        echo(say_in(table.lang, "cli_new_table", location=table.location,
                    house=table.house.name, lang=table.lang), sys.stderr)  # fmt: skip
        return table
    table = Table.open(path).as_croupier(args.croupier)
    for option, asked, kept in (("--house", args.house, table.house.name),
                                ("--lang", args.lang, table.lang)):  # fmt: skip
        if asked and asked != kept:
            echo(
                f"callbets console: {path} was opened with {option} {kept}; keeping it "
                "(a table keeps its rules: start a new table file to change them)",
                sys.stderr,
            )
    return table


def speech_installed() -> bool:
    """True when a recogniser of the speech extra can be imported."""
    return any(importlib.util.find_spec(m) for m in ("pocketsphinx", "vosk"))


def cmd_console(args: argparse.Namespace) -> int:
    """Run the console on a table file (made on first use)."""
    from ..console.app import run  # start-up time: prompt_toolkit, about 200 ms here
    from ..console.voice import Listener  # start-up time: the speech modules, about 20 ms
    from ..speech.croupiers import enrolled  # the same: only when the console starts

    path = location_of(args.table, default_path())
    lock: ConsoleLock | DatabaseConsoleLock | None = None
    if isinstance(path, Path) and path.parent == data_folder():
        make_data_folder()  # a fresh account: callbets' own folder, made on first use
    if isinstance(path, Path) and path.parent.is_dir():
        lock = ConsoleLock(path).acquire()
    try:
        table = _table(args)
        if isinstance(table.store, PostgresStore):
            lock = DatabaseConsoleLock(table.store).acquire()
        listener = None
        if speech_installed():
            voice = args.croupier if args.croupier and enrolled(args.croupier, table.lang) else None
            listener = Listener(table.lang, table.house, args.engine, args.model,
                                args.accept_missing_words, croupier=voice)  # fmt: skip
        try:
            return run(table, listener)
        finally:
            if isinstance(lock, DatabaseConsoleLock):
                lock.release()  # on the table's own connection: before it is closed
            table.close_file()
    finally:
        if lock is not None:
            lock.release()


def add_commands(sub: Any) -> None:
    """Register ``console``."""
    c = sub.add_parser(
        "console",
        help="the typed console at the table: announce, confirm, spin, settle, replay",
        description="A console for a whole evening at the table: type each player's "
        "announcement ('rouge: voisins à 5'), read back every chip, confirm with Enter or "
        "cancel with Esc, say 'rien ne va plus', enter the number and read the settlement. "
        "Everything is kept in the table file, so the console can be closed and reopened.",
        epilog="example: callbets console --lang fr --table tonight.sqlite   (/help inside)",
    )
    c.add_argument(
        "--table", metavar="FILE|URL",
        help="table file, or postgresql://…/DB?table=NAME; made on first use "
        f"(default: $CALLBETS_TABLE or {default_path()})",
    )  # fmt: skip
    c.add_argument(
        "--house", metavar="NAME", help=f"house for a new table (default: {DEFAULT_HOUSE})"
    )
    c.add_argument(
        "--lang", type=lang_code, choices=LANGUAGES, help="language for a new table (default: fr)"
    )
    c.add_argument(
        "--engine", choices=ENGINES,
        help="recogniser for F5 (default: pocketsphinx in English; in French and Italian "
        "vosk where a model is installed, else pocketsphinx; whisper: a model trained on "
        "real speech, surer of voices but slower, see the README)",
    )  # fmt: skip
    c.add_argument("--model", metavar="PATH", help="Vosk model folder (see models/README.md)")
    c.add_argument(
        "--accept-missing-words",
        action="store_true",
        help="let F5 use a Vosk model that lacks words of the table's bets (refused "
        "otherwise); every bet it hears is then asked, never accepted",
    )
    c.add_argument(
        "--croupier",
        metavar="NAME",
        default=os.environ.get("CALLBETS_CROUPIER") or None,
        help="who is at the table, written into every audit row, and whose enrolled voice "
        "model F5 hears with where he is enrolled ('callbets enrol'; default: "
        "$CALLBETS_CROUPIER)",
    )
    c.set_defaults(run=cmd_console)
