"""``callbets table …``: a door onto the persistent table (players, bets, spins, replays, audit)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from ..errors import (
    AmbiguousError,
    AuditKeyError,
    CallbetsError,
    InputError,
    OutcomeUnknown,
    TableError,
)
from ..files import write_new_file
from ..language.dialogue import phrase
from ..language.grammar import LANGUAGES
from ..language.readback import readback, reading_line, replay_name
from ..language.talk import REPLAYS, table_talk
from ..messages import message_in, said, say_in, shown
from ..roulette.announcement import bets_among, parse_notation
from ..roulette.house import DEFAULT_HOUSE, House
from ..table import Head, SpinReport, Table, default_path, location_of, record_head
from ..table.anchor import kept_heads, kept_lines, replaced, unkeyed_since
from ..table.chain import KEY_VARIABLE, audit_key
from ..table.evening import evening
from .options import (
    EXIT_OK,
    EXIT_REFUSED,
    EXIT_USAGE,
    MAX_ID,
    MAX_ROUND,
    JsonLines,
    announcement_number,
    complain,
    echo,
    json_line,
    lang_code,
    text_argument,
    whole_number,
    winning_number,
    zero_choice_in,
)
from .usage import refused


# ---- callbets table ---------------------------------------------------------------
def _table_path(args: argparse.Namespace) -> str | Path:
    return location_of(args.table, default_path())


READING = frozenset({"show", "audit", "verify", "backup", "report"})
"""Table actions that only read: the file is opened read-only."""


def table_language(location: str) -> str | None:
    """The language of the table at ``location``, or None when it cannot be read (to say
    an error that came before the table was open in the table's words)."""
    try:
        found = Table.open(location_of(location, default_path()), write=False, checked=False)
        with found as table:
            return table.lang
    except (CallbetsError, OSError, ValueError):
        return None


def _open(args: argparse.Namespace) -> Table:
    table = Table.open(_table_path(args), write=args.action not in READING)
    return table.as_croupier(args.croupier)


def describe_spin(report: SpinReport, house: House, lang: str, out: TextIO) -> None:
    """The settlement as a croupier reads it, in the table's language: player by player,
    in the house's payout order (the console's own words)."""
    from ..console.report import plain, spin  # start-up time: about 18 ms here

    out.write(shown(plain(spin(report, house, lang))))


def cmd_table(args: argparse.Namespace) -> int:
    """``callbets table ACTION``: drive a persistent table from the shell."""
    action = args.action
    if action == "open":
        table = Table.create(_table_path(args), args.house, args.lang, args.croupier)
        echo(say_in(table.lang, "cli_opened", location=table.location, house=table.house.name,
                    lang=table.lang))  # fmt: skip
        return EXIT_OK
    try:
        table = _open(args)
    except CallbetsError as err:  # locked, an earlier version…: in its words if it is read
        lang = table_language(str(_table_path(args))) or "en"
        complain(message_in(err, lang, "cli"))
        return EXIT_USAGE if isinstance(err, InputError) else EXIT_REFUSED
    try:
        return _act(table, args)
    except OutcomeUnknown as err:  # the commit may or may not have reached the database
        retry = "outcome_retry_id" if getattr(args, "id", None) and action in KEYED else ""
        said_now = message_in(err, table.lang, "cli")
        complain(f"{said_now}; {say_in(table.lang, retry or 'outcome_check')}")
        return EXIT_REFUSED
    except CallbetsError as err:  # said in the table's language, with the command to give
        complain(message_in(err, table.lang, "cli"))
        return EXIT_USAGE if isinstance(err, InputError) else EXIT_REFUSED


KEYED = frozenset({"bet", "announce"})
"""Table actions that take an idempotency key (``--id``): a retry with it is safe."""


def _act(table: Table, args: argparse.Namespace) -> int:
    """Run one action on an open table (:data:`ACTIONS`)."""
    return ACTIONS[args.action](table, args)


def _say(table: Table, key: str, **fields: object) -> str:
    """A line in the table's language."""
    return say_in(table.lang, key, **fields)


def _player(table: Table, args: argparse.Namespace) -> int:
    table.add_player(args.name)
    echo(_say(table, "cli_seated", player=args.name))
    return EXIT_OK


def _bet(table: Table, args: argparse.Namespace) -> int:
    """``bet`` (placed at once) and ``announce`` (waiting for the croupier's confirm); an
    ambiguous announcement lists its readings, numbered, and ``--reading N`` picks one."""
    placed = args.action == "bet"
    text = " ".join(args.text)
    try:
        aid, a = (table.bet if placed else table.announce)(args.player, text, key=args.id)
    except AmbiguousError as err:
        readings = bets_among(err.readings, table.house)
        if args.reading is None or not 1 <= args.reading <= len(readings):
            complain(message_in(err, table.lang))
            for i, reading in enumerate(readings, 1):
                complain(f"  {i}. {reading_line(reading, table.lang, table.house)}")
            if readings:
                complain(_say(table, "cli_pick_reading", count=len(readings)))
            return EXIT_REFUSED
        aid, a = table.announce_reading(args.player, readings[args.reading - 1], text)
        if placed:
            a = table.confirm(aid)
    status = _say(table, "cli_placed" if placed else "cli_waiting")
    echo(f"#{aid} {args.player} ({status}): {readback(a, table.lang, table.house)}")
    for warning in table.limit_warnings(aid):  # over the maximum: said at once
        echo(f"! {message_in(warning, table.lang)}")
    return EXIT_OK


def _confirm(table: Table, args: argparse.Namespace) -> int:
    table.confirm(args.id)
    echo(_say(table, "cli_confirmed", id=args.id))
    return EXIT_OK


def _cancel(table: Table, args: argparse.Namespace) -> int:
    table.cancel(args.id)
    echo(_say(table, "cli_cancelled", id=args.id))
    return EXIT_OK


def _undo(table: Table, args: argparse.Namespace) -> int:
    echo(_say(table, "cli_undone", id=table.undo()))
    return EXIT_OK


def _clear(table: Table, args: argparse.Namespace) -> int:
    echo(_say(table, "cli_cleared", count=table.clear(args.player), player=args.player))
    return EXIT_OK


def _close(table: Table, args: argparse.Namespace) -> int:
    dropped = table.close()
    echo(_say(table, "cli_closed"))
    for aid, player, text in dropped:
        echo(_say(table, "cli_dropped", id=aid, player=player, text=text))
    return EXIT_OK


def _spin(table: Table, args: argparse.Namespace) -> int:
    choices = _zero_choices(table, args.choice or [])
    report = table.spin(args.number, args.round, choices, args.last)
    if args.json:
        sys.stdout.write(json_line(report.to_json()) + "\n")
    else:
        describe_spin(report, table.house, table.lang, sys.stdout)
    return EXIT_OK


def _replay(table: Table, args: argparse.Namespace) -> int:
    aid, call = args.id
    done = table.replay(aid, _replay_kind(table, args.kind), call)
    player, _ = table.announcement(aid)
    from ..console.report import plain, replay  # start-up time: about 18 ms here

    sys.stdout.write(shown(plain(replay(player, done, table.lang, table.house, drawing=False))))
    return EXIT_OK


def _show(table: Table, args: argparse.Namespace) -> int:
    state = table.state()
    if args.json:
        sys.stdout.write(json_line(state) + "\n")
        return EXIT_OK
    betting = _say(table, "cli_open" if state["betting"] == "open" else "cli_shut")
    echo(_say(table, "cli_show", house=state["house"], lang=state["lang"], round=state["round"],
              betting=betting, staked=state["staked"], prison=state["prison"]))  # fmt: skip
    for player, entry in state["players"].items():
        echo(_say(table, "cli_show_player", player=player, staked=entry["staked"],
                  prison=entry["prison"]))  # fmt: skip
    for aid, player, _text, notation in table.announcement_rows(table.placed()):
        said_back = readback(parse_notation(notation, table.house), table.lang, table.house)
        echo(f"#{aid} {player}: {said_back.splitlines()[0]}")  # the bets on the layout
    for aid, player, text in table.pending():
        echo(_say(table, "web_waiting", id=aid, player=player, text=text))
    return EXIT_OK


def _audit(table: Table, args: argparse.Namespace) -> int:
    if args.output:  # never over an existing file or link; whole, owner-only
        n = write_new_file(args.output, table.export_audit)
        echo(_say(table, "cli_audit_written", file=args.output, count=n))
    else:
        table.export_audit(JsonLines(sys.stdout))
    return EXIT_OK


def _report(table: Table, args: argparse.Namespace) -> int:
    data = evening(table)
    if args.json:
        sys.stdout.write(json_line(data) + "\n")
        return EXIT_OK
    from ..console.report import evening as said_report  # start-up time, as above
    from ..console.report import plain  # the same

    sys.stdout.write(plain(said_report(data, table.lang)))
    return EXIT_OK


def _backup(table: Table, args: argparse.Namespace) -> int:
    table.backup(Path(args.file))
    echo(_say(table, "cli_backup_done", location=table.location, file=args.file))
    return EXIT_OK


def _verify(table: Table, args: argparse.Namespace) -> int:
    """``table verify``: the chain, the books, the state replayed from the audit, and what
    was kept outside the table (``--head``, ``--anchor``), in the table's language."""
    lang = table.lang
    try:
        found = table.verify()
    except AuditKeyError as err:
        return _verify_without_key(table, args, err)
    chain = found.chain
    if chain.ok:
        echo(say_in(lang, "verify_chain_ok", rows=chain.rows))
    else:
        reason = message_in(chain.reason, lang)
        echo(say_in(lang, "verify_chain_broken", seq=chain.first_bad, reason=reason))
    for note in found.notes:
        echo(message_in(note, lang))
    for problem in found.problems:
        echo(say_in(lang, "verify_books", problem=message_in(problem, lang)))
    if not found.problems:
        echo(say_in(lang, "verify_books_ok", spins=found.spins))
    for difference in found.replayed:
        echo(say_in(lang, "verify_state", difference=message_in(difference, lang)))
    if not found.replayed:
        echo(say_in(lang, "verify_state_ok"))
    kept_ok = _kept_outside(table, args)
    head = table.head()
    echo(say_in(lang, "head_now", head=head))
    if not table.keyed:
        echo(say_in(lang, "verify_unkeyed"))
    if not (found.ok and kept_ok):
        return EXIT_REFUSED
    if not table.keyed and audit_key() is not None:  # a keyed table rewritten unkeyed?
        complain(say_in(lang, "audit_key_not_keyed", variable=KEY_VARIABLE))
        return EXIT_USAGE  # nothing kept shows it: the pit boss is told, not assured
    if args.anchor:
        record_head(args.anchor, table.uid, head, table.keyed, table.location)
        echo(say_in(lang, "anchor_recorded", head=head, file=args.anchor))
    return EXIT_OK


def _verify_without_key(table: Table, args: argparse.Namespace, err: AuditKeyError) -> int:
    """The table's chain needs a key that is not set (or another): it cannot be checked,
    but what was kept outside the table can.  A kept head it no longer holds, or an
    anchor that kept it keyed, is tampering (exit 1, said as such); else the key's
    reason, exit 2."""
    if _kept_outside(table, args, quiet=True):
        raise err
    lang = table.lang
    _kept_outside(table, args)
    echo(say_in(lang, "head_now", head=table.head()))
    echo(say_in(lang, "verify_rewritten", reason=message_in(err, lang)))
    return EXIT_REFUSED


def _kept_outside(table: Table, args: argparse.Namespace, quiet: bool = False) -> bool:
    """Check what the user kept outside the table: the heads (``--head``, and this
    table's lines of ``--anchor``), and what the anchor knows of this location and of
    this table's key.  ``--new-table`` records a new table where the anchor knew
    another (once everything else verifies)."""
    kept = list(args.head or [])
    lines = kept_lines(args.anchor) if args.anchor else []
    kept += kept_heads(args.anchor, table.uid) if args.anchor else []
    said_now: list[str] = []
    for head in kept:
        verdict = table.check_head(head)
        rows = table.head().rows
        said_now.append(f"head_{verdict}" if verdict else "head_kept")
        if not quiet:
            echo(say_in(table.lang, said_now[-1], rows=rows, head=head, kept=head.rows))
    ok = all(s == "head_kept" for s in said_now)
    other = replaced(lines, table.uid, table.location)
    if other is not None and not getattr(args, "new_table", False):
        ok = False
        if not quiet:
            echo(say_in(table.lang, "anchor_replaced", file=args.anchor, old=other.uid,
                        head=other.head, when=other.when, new=table.uid))  # fmt: skip
    was = unkeyed_since(lines, table.uid, table.keyed)
    if was is not None:
        ok = False
        if not quiet:
            echo(say_in(table.lang, "anchor_was_keyed", file=args.anchor, head=was.head,
                        when=was.when))  # fmt: skip
    return ok


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
    o.add_argument("--lang", type=lang_code, choices=LANGUAGES, default="fr",
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
        b.add_argument(
            "--reading",
            metavar="N",
            type=whole_number(1, 99),
            help="an ambiguous announcement is refused with its readings, numbered: "
            "place reading N of them",
        )
    for name, helptext in (("confirm", "confirm an announcement"),
                           ("cancel", "cancel an announcement")):  # fmt: skip
        acts.add_parser(name, help=helptext).add_argument(
            "id", type=announcement_number, help="the announcement's number (#N, as printed)"
        )
    acts.add_parser("undo", help="take back the last confirmed announcement")
    acts.add_parser("clear", help="remove a player's bets").add_argument(
        "player", type=text_argument, help="a player at the table"
    )
    acts.add_parser("close", help="rien ne va plus: close betting")
    sp = acts.add_parser("spin", help="enter the winning number and settle")
    sp.add_argument("number", type=winning_number,
                    help="the winning number, 0 to 36, in digits or words (dix-sept)")  # fmt: skip
    sp.add_argument("--round", type=whole_number(1, MAX_ROUND),
                    help="the round this spin belongs to (repeat-safe)")  # fmt: skip
    sp.add_argument(
        "--choice",
        action="append",
        metavar="BET=CHOICE",
        type=_choice,
        help="on zero, what a player (or one bet, by its number) asks for: prison, half, "
        "move:<chance>, or the table's words (à partager, déplacer sur noir)",
    )
    sp.add_argument("--last", action="store_true", help="the session's last spin")
    sp.add_argument("--json", action="store_true", help="print the settlement as JSON")
    r = acts.add_parser("replay", help="replay a winning called bet")
    r.add_argument("id", metavar="ANNOUNCEMENT[.CALL]", type=_call_id,
                   help="the announcement's number and which call (12 or 12.1)")  # fmt: skip
    r.add_argument("kind", metavar="KIND",
                   help="which replay, in the table's words (à refaire, à compléter, pour le "
                   "tout; a rifare …), or refaire, completer, tout")  # fmt: skip
    sh = acts.add_parser("show", help="the table's state")
    sh.add_argument("--json", action="store_true", help="print the state as JSON")
    au = acts.add_parser("audit", help="export the audit log as JSON lines")
    au.add_argument("--output", metavar="FILE", help="write to FILE instead of stdout")
    v = acts.add_parser(
        "verify",
        help="prove the table from its audit log (read-only)",
        description="Recompute the audit log's hash chain (an HMAC for a table opened with "
        "$CALLBETS_AUDIT_KEY, which must then be set), the books (every spin settled once, "
        "totals consistent with the bets), and the state: the audit replayed on an empty "
        "table must give the stored state, field by field. Prints the audit's head "
        "(ROWS:HASH): kept outside the table (signed on a report, in an --anchor file), it "
        "shows later whether rows were cut from the end or the log rewritten. Exit 1 with "
        "every difference if anything does not verify, or if what was kept outside the "
        "table no longer holds (whatever the key); 2 without the table's key.",
    )
    v.add_argument(
        "--head",
        action="append",
        type=_head,
        metavar="ROWS:HASH",
        help="a head printed earlier: the audit must still hold it (repeatable)",
    )
    v.add_argument(
        "--anchor",
        metavar="FILE",
        help="a file of heads kept outside the table: each of this table's must still be "
        "in its audit, the table it last saw at this location must be this one, and a "
        "table it saw keyed must still be; when everything verifies, the head now is "
        "added to it",
    )
    v.add_argument(
        "--new-table",
        action="store_true",
        help="this location holds a new table now (the one the anchor saw here was closed "
        "and this one opened in its place): record it instead of calling it a replacement",
    )
    rp = acts.add_parser(
        "report",
        help="the evening's report: what a pit boss signs (read-only)",
        description="Spins played; staked, returned and net per player and for the table; "
        "prison and what became of it; stakes handed back over the maximum; replays; the "
        "croupiers who acted; and whether the audit verifies, with its head to sign. "
        "Complete once the last spin is played (table spin --last).",
    )
    rp.add_argument("--json", action="store_true", help="print the report as JSON")
    bk = acts.add_parser(
        "backup",
        help="copy the live table to a new file, consistent (safe while it is in use)",
        description="Copy the table with SQLite's online backup. A plain cp of a table in "
        "use can miss what is still in its write-ahead log (FILE-wal); this copy cannot. "
        "Check the copy with: callbets table --table FILE verify",
    )
    bk.add_argument("file", metavar="FILE", help="the new file (never overwritten)")
    t.set_defaults(run=cmd_table)


def _head(value: str) -> Head:
    """``ROWS:HASH`` for ``verify --head``."""
    try:
        return Head.parse(value)
    except ValueError:
        raise refused("head_bad", text=value) from None


def _choice(value: str) -> tuple[str, str]:
    """``WHO=CHOICE`` for ``spin --choice``: WHO a player (all his simple chances the zero
    caught) or a bet's number."""
    who, sep, choice = value.partition("=")
    number = who.strip().isdecimal()
    if not (sep and who.strip() and choice.strip()) or (number and int(who) > MAX_ID):
        raise refused("arg_zero_choice", value=value[:60], most=MAX_ID)
    return who.strip(), choice.strip()


def _zero_choices(table: Table, given: list[tuple[str, str]]) -> dict[str, str]:
    """The choices of ``spin --choice`` by bet, a player's for each of his bets."""
    out: dict[str, str] = {}
    for who, choice in given:
        meant = zero_choice_in(choice, table.lang, table.house)
        if meant.partition(":")[0] not in table.house.zero.choices:  # in the table's words
            offered = ", ".join(phrase(k, table.lang) for k in sorted(table.house.zero.choices))
            raise InputError(said("zero_choice_refused", player=who, said=choice, offered=offered))
        bets = (
            [b.id for b in table.open_bets() if b.player == who] if not who.isdecimal() else [who]
        )
        if not bets:
            raise TableError(said("zero_no_bets", player=who))
        out.update(dict.fromkeys(bets, meant))
    return out


def _replay_kind(table: Table, given: str) -> str:
    """``refaire``, ``completer`` or ``tout``, as given or as said in the table's words
    ("à compléter", "a rifare").

    :raises InputError: neither (exit 2), with the table's own names for them.
    """
    if given in REPLAYS:
        return given
    talk = table_talk(given, table.lang)
    if talk is not None and talk.action in REPLAYS and talk.which is None:
        return talk.action
    names = ", ".join(replay_name(kind, table.lang) for kind in REPLAYS)
    raise InputError(said("replay_unknown", said=given, names=names))


def _call_id(value: str) -> tuple[int, int]:
    """``ANNOUNCEMENT[.CALL]`` for ``replay``: two whole numbers."""
    aid, _, call = value.partition(".")
    ok = aid.isascii() and aid.isdigit() and (not call or (call.isascii() and call.isdigit()))
    if not ok or not 1 <= int(aid) <= MAX_ID or int(call or 0) > MAX_ID:
        raise refused("arg_call_id", value=value[:60], most=MAX_ID)
    return int(aid), int(call or 0)


ACTIONS: dict[str, Callable[[Table, argparse.Namespace], int]] = {
    "player": _player, "bet": _bet, "announce": _bet, "confirm": _confirm,
    "cancel": _cancel, "undo": _undo, "clear": _clear, "close": _close, "spin": _spin,
    "replay": _replay, "show": _show, "audit": _audit, "verify": _verify,
    "report": _report, "backup": _backup,
}  # fmt: skip
"""What each ``callbets table`` action does to an open table (``open`` makes one)."""
