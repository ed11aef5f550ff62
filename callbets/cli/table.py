"""``callbets table …``: a door onto the persistent table (players, bets, spins, replays, audit)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from ..errors import CallbetsError, InputError
from ..files import write_new_file
from ..language.grammar import LANGUAGES
from ..language.readback import readback
from ..messages import message_in, say_in
from ..roulette.house import DEFAULT_HOUSE, House
from ..table import SpinReport, Table, default_path, location_of
from .options import EXIT_OK, EXIT_REFUSED, EXIT_USAGE, json_line, text_argument, zero_choice_in


# ---- callbets table ---------------------------------------------------------------
def _table_path(args: argparse.Namespace) -> str | Path:
    return location_of(args.table, default_path())


READING = frozenset({"show", "audit", "verify", "backup"})
"""Table actions that only read: the file is opened read-only."""


def _open(args: argparse.Namespace) -> Table:
    table = Table.open(_table_path(args), write=args.action not in READING)
    return table.as_croupier(args.croupier)


def describe_spin(report: SpinReport, house: House, lang: str, out: TextIO) -> None:
    """The settlement as a croupier reads it, in the table's language: player by player,
    in the house's payout order (the console's own words)."""
    from ..console.report import plain, spin  # start-up time: about 18 ms here

    out.write(plain(spin(report, house, lang)))


def cmd_table(args: argparse.Namespace) -> int:
    """``callbets table ACTION``: drive a persistent table from the shell."""
    action = args.action
    if action == "open":
        table = Table.create(_table_path(args), args.house, args.lang, args.croupier)
        print(f"table opened at {table.location} ({table.house.name}, {table.lang})")
        return EXIT_OK
    table = _open(args)
    try:
        return _act(table, args)
    except CallbetsError as err:  # said in the table's language
        print(f"callbets: {message_in(err, table.lang)}", file=sys.stderr)
        return EXIT_USAGE if isinstance(err, InputError) else EXIT_REFUSED


def _act(table: Table, args: argparse.Namespace) -> int:
    action = args.action
    out = sys.stdout

    def say(key: str, **fields: object) -> str:  # in the table's language
        return say_in(table.lang, key, **fields)

    if action == "player":
        table.add_player(args.name)
        print(say("cli_seated", player=args.name))
    elif action in ("bet", "announce"):
        aid, a = (table.bet if action == "bet" else table.announce)(
            args.player, " ".join(args.text), key=args.id
        )
        status = say("cli_placed" if action == "bet" else "cli_waiting")
        print(f"#{aid} {args.player} ({status}): {readback(a, table.lang, table.house)}")
    elif action == "confirm":
        table.confirm(args.id)
        print(say("cli_confirmed", id=args.id))
    elif action == "cancel":
        table.cancel(args.id)
        print(say("cli_cancelled", id=args.id))
    elif action == "undo":
        print(say("cli_undone", id=table.undo()))
    elif action == "clear":
        print(say("cli_cleared", count=table.clear(args.player), player=args.player))
    elif action == "close":
        dropped = table.close()
        print(say("cli_closed"))
        for aid, player, text in dropped:
            print(say("cli_dropped", id=aid, player=player, text=text))
    elif action == "spin":
        choices = {bet: zero_choice_in(c, table.lang, table.house) for bet, c in args.choice or []}
        report = table.spin(args.number, args.round, choices, args.last)
        if args.json:
            print(json_line(report.to_json()))
        else:
            describe_spin(report, table.house, table.lang, out)
    elif action == "replay":
        aid, call = args.id
        done = table.replay(aid, args.kind, call)
        player, _ = table.announcement(aid)
        from ..console.report import plain, replay  # start-up time: about 18 ms here

        out.write(plain(replay(player, done, table.lang, table.house, drawing=False)))
    elif action == "show":
        state = table.state()
        if args.json:
            print(json_line(state))
        else:
            betting = say("cli_open" if state["betting"] == "open" else "cli_shut")
            print(say("cli_show", house=state["house"], lang=state["lang"], round=state["round"],
                      betting=betting, staked=state["staked"], prison=state["prison"]))  # fmt: skip
            for player, entry in state["players"].items():
                print(say("cli_show_player", player=player, staked=entry["staked"],
                          prison=entry["prison"]))  # fmt: skip
    elif action == "audit":
        if args.output:  # never over an existing file or link; whole, owner-only
            n = write_new_file(args.output, table.export_audit)
            print(f"{n} audit records written to {args.output}")
        else:
            table.export_audit(out)
    elif action == "verify":
        return _verify(table)
    elif action == "backup":
        table.backup(Path(args.file))
        print(f"{table.location} copied to {args.file}; check it with: "
              f"callbets table --table {args.file} verify")  # fmt: skip
    return EXIT_OK


def _verify(table: Table) -> int:
    found = table.verify()
    chain = found.chain
    if chain.ok:
        print(f"audit chain: {chain.rows} rows verify (head {chain.head[:16]}…)")
    else:
        print(f"audit chain BROKEN at row {chain.first_bad}: {chain.reason}")
    for problem in found.problems:
        print(f"books: {problem}")
    if not found.problems:
        print(f"books: {found.spins} spins settled once each, totals match their bets")
    return EXIT_OK if found.ok else EXIT_REFUSED


def add_commands(sub: Any) -> None:
    """Register ``table`` on the top-level parser."""
    t = sub.add_parser(
        "table",
        help="drive a persistent table (players, bets, spins, replays, audit)",
        description="A table kept in an SQLite file, or in a PostgreSQL database that holds "
        "the casino's tables (--table postgresql://HOST/DB?table=T12; make its schema first "
        "with 'callbets db upgrade URL'): every action is one transaction and is written to "
        "an append-only audit log.",
    )
    t.add_argument(
        "--table",
        metavar="FILE|URL",
        help=f"table file or postgresql://…/DB?table=NAME (default: $CALLBETS_TABLE or "
        f"{default_path()})",
    )
    t.add_argument(
        "--croupier",
        metavar="NAME",
        default=os.environ.get("CALLBETS_CROUPIER") or None,
        help="who is acting, written with the terminal into every audit row "
        "(default: $CALLBETS_CROUPIER; required by houses with table.require_croupier)",
    )
    acts = t.add_subparsers(dest="action", required=True, metavar="ACTION")
    o = acts.add_parser("open", help="open a new table with a house and a language")
    o.add_argument("--house", default=DEFAULT_HOUSE, metavar="NAME",
                   help=f"house profile, by name or file (default: {DEFAULT_HOUSE})")  # fmt: skip
    o.add_argument("--lang", choices=LANGUAGES, default="fr",
                   help="the table's language (default: fr)")  # fmt: skip
    acts.add_parser("player", help="seat a player (a colour or a name)").add_argument(
        "name", type=text_argument, help="a colour or a name, up to 40 characters"
    )
    for name, helptext in (
        ("bet", "announce and place a bet"),
        ("announce", "announce, to confirm later"),
    ):
        b = acts.add_parser(name, help=helptext)
        b.add_argument("player", type=text_argument, help="a player at the table")
        b.add_argument("text", nargs="+", metavar="ANNOUNCEMENT", type=text_argument,
                       help="the announcement, in the table's language")  # fmt: skip
        b.add_argument(
            "--id",
            metavar="KEY",
            type=text_argument,
            help="idempotency key: a retry with the same key places nothing twice",
        )
    for name, helptext in (("confirm", "confirm an announcement"),
                           ("cancel", "cancel an announcement")):  # fmt: skip
        acts.add_parser(name, help=helptext).add_argument(
            "id", type=int, help="the announcement's number (#N, as printed)"
        )
    acts.add_parser("undo", help="take back the last confirmed announcement")
    acts.add_parser("clear", help="remove a player's bets").add_argument(
        "player", type=text_argument, help="a player at the table"
    )
    acts.add_parser("close", help="rien ne va plus: close betting")
    sp = acts.add_parser("spin", help="enter the winning number and settle")
    sp.add_argument("number", type=int, help="the winning number, 0 to 36")
    sp.add_argument("--round", type=int, help="the round this spin belongs to (repeat-safe)")
    sp.add_argument(
        "--choice",
        action="append",
        metavar="BET=CHOICE",
        type=_choice,
        help="on zero: prison, half or move:<chance> for a bet id",
    )
    sp.add_argument("--last", action="store_true", help="the session's last spin")
    sp.add_argument("--json", action="store_true", help="print the settlement as JSON")
    r = acts.add_parser("replay", help="replay a winning called bet")
    r.add_argument("id", metavar="ANNOUNCEMENT[.CALL]", type=_call_id,
                   help="the announcement's number and which call (12 or 12.1)")  # fmt: skip
    r.add_argument("kind", choices=["refaire", "completer", "tout"],
                   help="à refaire, à compléter or pour le tout")  # fmt: skip
    sh = acts.add_parser("show", help="the table's state")
    sh.add_argument("--json", action="store_true", help="print the state as JSON")
    au = acts.add_parser("audit", help="export the audit log as JSON lines")
    au.add_argument("--output", metavar="FILE", help="write to FILE instead of stdout")
    acts.add_parser(
        "verify",
        help="check the audit log's hash chain and the books (read-only)",
        description="Recompute the audit log's hash chain (an HMAC if $CALLBETS_AUDIT_KEY is "
        "set) and the books: every spin settled once, totals consistent with the bets. "
        "Exit 1 and the first bad row if anything does not verify.",
    )
    bk = acts.add_parser(
        "backup",
        help="copy the live table to a new file, consistent (safe while it is in use)",
        description="Copy the table with SQLite's online backup. A plain cp of a table in "
        "use can miss what is still in its write-ahead log (FILE-wal); this copy cannot. "
        "Check the copy with: callbets table --table FILE verify",
    )
    bk.add_argument("file", metavar="FILE", help="the new file (never overwritten)")
    t.set_defaults(run=cmd_table)


def _choice(value: str) -> tuple[str, str]:
    """``BET=CHOICE`` for ``spin --choice``."""
    bet, sep, choice = value.partition("=")
    if not (sep and bet.strip().isdigit() and choice.strip()):
        raise argparse.ArgumentTypeError(
            f"'{value}': write it BET=CHOICE, e.g. 12=half or 12=move:black"
        )
    return bet.strip(), choice.strip()


def _call_id(value: str) -> tuple[int, int]:
    """``ANNOUNCEMENT[.CALL]`` for ``replay``: two whole numbers."""
    aid, _, call = value.partition(".")
    if not aid.isdigit() or not (call.isdigit() or not call):
        raise argparse.ArgumentTypeError(f"'{value}': an announcement number, e.g. 12 or 12.1")
    return int(aid), int(call or 0)
