"""``callbets floor``: every open table of the casino in one terminal screen, live."""

from __future__ import annotations

import argparse
import ipaddress
import os
import shutil
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..language.grammar import LANGUAGES
from ..messages import message_in, say_in, shown
from ..table.core import data_folder, make_data_folder
from ..table.floor import LARGE_WIN, TableView, as_json, survey
from ..table.watch import Watch
from .options import (
    EXIT_OK,
    EXIT_REFUSED,
    EXIT_USAGE,
    complain,
    json_line,
    lang_code,
    whole_number,
)

CLEAR = "\x1b[H\x1b[2J"
DEFAULT_PORT = 8024
"""Where ``floor --serve`` listens unless told (on 127.0.0.1)."""
FLOOR_EXTRA = frozenset({"starlette", "uvicorn", "jinja2", "anyio", "h11"})
"""The packages of the ``floor`` extra: without them, ``--serve`` says how to install it."""
WIDEST_NAME = 40
"""The most a table's or a croupier's name takes on a line (longer ones are cut)."""


def _widths(views: list[TableView]) -> tuple[int, int, int]:
    """Columns as wide as the names they show (at least 5, at most :data:`WIDEST_NAME`)."""

    def widest(names: list[str]) -> int:
        return max(5, min(WIDEST_NAME, max((len(n) for n in names), default=5)))

    return (widest([v.table for v in views]), widest([v.croupier for v in views]),
            widest([v.house for v in views]))  # fmt: skip


def _row(v: TableView, lang: str, w: tuple[int, int, int]) -> list[str]:
    name, croupier, house = w
    if v.error:
        reason = message_in(v.error, lang)
        return [f"{v.table[:name]:{name}} {say_in(lang, 'floor_unreadable', reason=reason)}"]
    numbers = " ".join(map(str, v.last_numbers))
    betting = say_in(lang, f"status_{v.betting}") if v.betting else ""
    names = f"{v.table[:name]:{name}} {v.croupier[:croupier]:{croupier}} {v.house[:house]:{house}}"
    line = (f"{names} {v.round:5} {betting[:8]:8} {v.staked:8} {v.prison:8} {v.pending:4}  "
            f"{numbers}")  # fmt: skip
    return [line, *(f"{'':{name}} ! {message_in(flag, lang)}" for flag in v.flags)]


def _head(lang: str, w: tuple[int, int, int]) -> str:
    table, croupier, house, rounds, bets, staked, prison, wait, last = say_in(
        lang, "floor_columns"
    ).split("|")
    name, who, where = w
    return (f"{table:{name}} {croupier:{who}} {house:{where}} {rounds:>5} {bets:8} {staked:>8} "
            f"{prison:>8} {wait:>4}  {last}")  # fmt: skip


def render(views: list[TableView], width: int, height: int, lang: str = "en") -> str:
    """One screen in the floor's language: a header, a line per table and its flags, cut
    to fit."""
    total = as_json(views)
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    w = _widths(views)
    lines = [
        say_in(lang, "floor_title", tables=len(views), open=total["open_tables"],
               staked=total["staked"], prison=total["prison"], flags=total["flags"], now=now),
        _head(lang, w),
    ]  # fmt: skip
    for v in views:  # names, croupiers and reasons come from the tables: shown safely
        lines += [shown(line) for line in _row(v, lang, w)]
    if len(lines) > height - 1:
        hidden = len(lines) - (height - 2)
        lines = [*lines[: height - 2], say_in(lang, "floor_more_lines", count=hidden)]
    return "\n".join(line[:width] for line in lines) + "\n"


def cmd_floor(args: argparse.Namespace) -> int:
    """Show the floor once (``--once``, ``--json`` or not a terminal) or live."""
    anchor = None if args.no_anchor else Path(args.anchor)
    if anchor is not None and anchor.parent == data_folder():
        make_data_folder()  # callbets' own folder, made on first use
    watch = Watch(anchor)
    if args.serve:
        return _serve(args, watch)
    if args.json:
        print(json_line(as_json(survey(args.table, args.large_win, watch))))
        return EXIT_OK
    live = sys.stdout.isatty() and not args.once
    try:
        while True:
            views = survey(args.table, args.large_win, watch)
            if live:  # one screen, cut to fit; printed once, every line whole
                size = shutil.get_terminal_size((100, 40))
                sys.stdout.write(CLEAR + render(views, size.columns, size.lines, args.lang))
            else:
                sys.stdout.write(render(views, sys.maxsize, sys.maxsize, args.lang))
            sys.stdout.flush()
            if not live:
                return EXIT_REFUSED if any(v.error for v in views) else EXIT_OK
            time.sleep(args.every)
    except KeyboardInterrupt:
        return EXIT_OK


def loopback(host: str) -> bool:
    """Whether ``host`` is this machine only (``127.0.0.1``, ``::1``, ``localhost``)."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a name: it may resolve to any address
        return False


def _serve(args: argparse.Namespace, watch: Watch) -> int:
    """``floor --serve``: the web page, from one background look at the tables."""
    try:
        from .. import web  # an optional extra (callbets[floor]): imported only to serve
    except ModuleNotFoundError as err:
        if (err.name or "").split(".")[0] not in FLOOR_EXTRA:
            raise
        complain(say_in(args.lang, "web_needs_extra"))
        return EXIT_USAGE
    tokens = web.Tokens(args.token or "", Path(args.tokens) if args.tokens else None)
    if not tokens.required and not loopback(args.host):
        print(say_in(args.lang, "web_open_network", host=args.host), file=sys.stderr, flush=True)
    if args.access_log != "-" and Path(args.access_log).parent == data_folder():
        make_data_folder()
    access = web.AccessLog(None if args.access_log == "-" else Path(args.access_log))
    poller = web.Poller([str(t) for t in args.table], args.lang, args.every, args.large_win, watch)
    hosts = frozenset(args.allow_host or ())
    return web.serve(poller, args.host, args.port, tokens, hosts, access)


def add_commands(sub: Any) -> None:
    """Register ``floor``."""
    p = sub.add_parser(
        "floor",
        help="every open table of the casino in one screen, live (read-only)",
        description="A pit boss's view: table, croupier, round, betting open or closed, "
        "staked, prison, announcements waiting and the last numbers of every table, with "
        "flags for a position at the maximum, a large win, an audit that does not verify, a "
        "state that is not the one its audit gives, and an audit cut or rewritten since the "
        "floor saw it (it keeps the heads it sees in --anchor).  Refreshed live on a "
        "terminal; nothing is ever written to a table.  With --serve, the same floor as a "
        "live web page (a card per table, and a page per table with the layout and its "
        "chips, the bets read back, the last spins, the audit and the evening's report), "
        "read-only: GET only, a strict Content-Security-Policy, and a token on a network.",
        epilog="examples: callbets floor --table postgresql://pit@db.casino/floor; on the "
        "pit's screen: CALLBETS_FLOOR_TOKEN=… callbets floor --serve --host 0.0.0.0 --lang "
        "it --table postgresql://pit@db.casino/floor",
    )
    p.add_argument(
        "--table", metavar="URL|FILE", action="append", required=True,
        help="a PostgreSQL database (all its tables), one table (…?table=T12), a table "
        "file, or a folder (every *.sqlite table file in it); repeat for more",
    )  # fmt: skip
    p.add_argument("--json", action="store_true", help="print one JSON snapshot and stop")
    p.add_argument("--once", action="store_true", help="print the screen once and stop")
    p.add_argument("--every", type=whole_number(1, 3600), default=2, metavar="SECONDS",
                   help="refresh period (default 2 s)")  # fmt: skip
    p.add_argument(
        "--large-win", type=whole_number(1, 10**9), default=LARGE_WIN, metavar="N",
        help=f"flag a player's net win of N units or more (default {LARGE_WIN})",
    )  # fmt: skip
    p.add_argument(
        "--anchor", metavar="FILE", default=str(data_folder() / "floor-heads.txt"),
        help="where the floor keeps the audit heads it sees, to notice a cut or rewritten "
        "audit, even after a restart (default: %(default)s; owner-only, only appended to)",
    )  # fmt: skip
    p.add_argument("--no-anchor", action="store_true", help="keep no heads (memory only)")
    p.add_argument(
        "--serve", action="store_true",
        help="serve the floor as a live web page (needs: pip install 'callbets[floor]'); "
        "one look at the tables every --every seconds, shared by every open page",
    )  # fmt: skip
    p.add_argument("--host", default="127.0.0.1",
                   help="with --serve: the address to listen on (default: %(default)s, this "
                   "machine only; another one without --token is warned about)")  # fmt: skip
    p.add_argument("--allow-host", action="append", metavar="NAME",
                   help="with --serve: a name the floor answers to (repeatable); it always "
                   "answers to its addresses, localhost and this machine's name, and "
                   "refuses any other Host (a page elsewhere pointing a name at it)")  # fmt: skip
    p.add_argument("--port", type=whole_number(1, 65535), default=DEFAULT_PORT,
                   help="with --serve: the port (default: %(default)s)")  # fmt: skip
    p.add_argument(
        "--token", default=os.environ.get("CALLBETS_FLOOR_TOKEN") or None,
        help="with --serve: every request must carry it, as HTTP Bearer or as the password "
        "of HTTP Basic (a browser asks for it); better given as $CALLBETS_FLOOR_TOKEN, "
        "which ps does not show",
    )  # fmt: skip
    p.add_argument(
        "--tokens", metavar="FILE",
        help="with --serve: named tokens, one per line 'NAME TOKEN' (one per pit boss); "
        "the file is read again when it changes, so deleting a line revokes that token at "
        "once; each request's token name goes to the access log",
    )  # fmt: skip
    p.add_argument(
        "--access-log", metavar="FILE", default=str(data_folder() / "floor-access.log"),
        help="with --serve: one line per request (when, token name, client address, "
        "method, path, status), appended to FILE, owner-only (default: %(default)s; "
        "'-': standard error)",
    )  # fmt: skip
    p.add_argument("--lang", type=lang_code, choices=LANGUAGES, default="fr",
                   help="the floor's language (default: fr, as a table's)")  # fmt: skip
    p.set_defaults(run=cmd_floor)
