"""The ``callbets settle`` and ``callbets table …`` commands (doors onto settle and store)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from ._cliopts import add_json_modes, add_lang_house, answer_lines, json_line, text_argument
from .announcement import Announcement
from .errors import AnnouncementError, CallbetsError, InputError
from .grammar import LANGUAGES
from .house import DEFAULT_HOUSE, House, find_house
from .limits import LimitError, check_limits
from .parse import parse
from .readback import call_line, readback
from .settle import Settlement, bets_for, call_results, settle
from .table import SpinReport, Table, default_path, money

EXIT_OK, EXIT_REFUSED = 0, 1


# ---- callbets settle --------------------------------------------------------------
def settle_json(
    a: Announcement, number: int, house: House, choice: str | None, last: bool
) -> dict[str, Any]:
    """The JSON contract of ``callbets settle`` for one accepted announcement."""
    bets = bets_for(a, "player")
    choices = {b.id: choice for b in bets} if choice else {}
    s = settle(bets, number, house, choices, last)
    by_id = {o.bet.id: o for o in s.outcomes}
    results = {c.group: c for c in call_results(s, house)}
    data = a.to_json()
    calls: list[dict[str, Any]] = data["calls"]  # type: ignore[assignment]
    for i, call in enumerate(calls):
        for j, placement in enumerate(call["placements"]):
            o = by_id[f"c{i}.p{j}"]
            placement.update(result=o.result, paid=money(o.paid), returned=money(o.returned))
            if o.kept:
                placement["prison"] = o.kept.amount
        result = results[f"c{i}"]
        call["returned"] = money(result.returned)
        if result.to_place:
            call["to_place"] = [
                {"bet": p.kind.value, "numbers": list(p.numbers), "amount": amount}
                for p, amount in result.to_place
            ]
    data.update(
        spin=number,
        staked=money(s.staked()),
        returned=money(s.returned()),
        net=money(s.net()),
        prison=money(s.in_prison()),
        payout_order=list(house.payout_order),
    )
    return data


def _settle_one(text: str, args: argparse.Namespace, house: House) -> dict[str, Any]:
    """One announcement settled alone, under the house's limits as a table applies them:
    over a strict maximum it is refused; where the house caps, the warnings say so."""
    try:
        a = parse(text, args.lang, house)
        warnings = check_limits(a, house)
    except AnnouncementError as err:
        return {"input": text, "ok": False, "error": err.to_json()}
    except LimitError as err:
        return {"input": text, "ok": False, "error": {"kind": "limit", "message": str(err)}}
    data = settle_json(a, args.spin, house, args.choice, args.last_spin)
    if warnings:
        data["warnings"] = warnings
    return data


def _describe_settlement(data: dict[str, Any], names: list[str]) -> str:
    """The settlement as text; each call named by its readback line (which reads back)."""
    lines = [f"spin {data['spin']}", *(f"  ! {w}" for w in data.get("warnings", []))]
    for name, call in zip(names, data["calls"], strict=True):
        lines.append(f"  {name}: returns {call['returned']}")
        for p in call["placements"]:
            if p["result"] != "lost":
                nums = "/".join(map(str, p["numbers"]))
                lines.append(
                    f"    {p['bet']} {nums} {p['result']}: pay {p['paid']}, returns {p['returned']}"
                )
        for p in call.get("to_place", []):
            nums = "/".join(map(str, p["numbers"]))
            lines.append(f"    to place: {p['bet']} {nums} = {p['amount']}")
    lines.append(
        f"staked {data['staked']}, returned {data['returned']}, net {data['net']}"
        + (f", in prison {data['prison']}" if data["prison"] else "")
    )
    return "\n".join(lines)


def cmd_settle(args: argparse.Namespace) -> int:
    """``callbets settle``: one announcement (or a file of them) against one number."""
    if not 0 <= args.spin <= 36:
        print(f"callbets settle: {args.spin} is not on the wheel (0 to 36)", file=sys.stderr)
        return 2
    house = find_house(args.house)
    if args.jsonl is not None:
        return answer_lines(args.jsonl, "settle", lambda t: _settle_one(t, args, house))
    text = " ".join(args.text)
    data = _settle_one(text, args, house)
    if args.json:
        print(json_line(data))
    elif data["ok"]:
        calls = parse(text, args.lang, house).calls
        print(_describe_settlement(data, [call_line(c, args.lang, house) for c in calls]))
    else:
        print(f"refused ({data['error']['kind']}): {data['error']['message']}", file=sys.stderr)
    return EXIT_OK if data["ok"] else EXIT_REFUSED


# ---- callbets table ---------------------------------------------------------------
def _table_path(args: argparse.Namespace) -> Path:
    return Path(args.table) if args.table else default_path()


READING = frozenset({"show", "audit", "verify"})
"""Table actions that only read: the file is opened read-only."""


def _open(args: argparse.Namespace) -> Table:
    return Table.open(_table_path(args), write=args.action not in READING)


def describe_spin(report: SpinReport, house: House, out: TextIO) -> None:
    """The settlement as a croupier reads it: player by player, in payout order."""
    s: Settlement = report.settlement
    out.write(f"round {report.round}: {s.number}\n")
    for player in s.players():
        out.write(
            f"  {player}: staked {money(s.staked(player))}, returned "
            f"{money(s.returned(player))}, net {money(s.net(player))}\n"
        )
        for o in s.outcomes:
            if o.bet.player != player or o.result == "lost":
                continue
            what = f"{o.bet.position} ({o.bet.call})"
            if o.result == "won":
                out.write(f"    pay {money(o.paid)} on {what}, returns {money(o.returned)}\n")
            elif o.result == "shared":
                out.write(f"    à partager: {what}, returns {money(o.returned)}\n")
            if o.kept is not None:
                out.write(
                    f"    en prison (level {o.kept.prison}): {o.kept.position} {o.kept.amount}\n"
                )
        for c in report.calls:
            if c.player == player and c.to_place:
                placed = ", ".join(f"{p} = {a}" for p, a in c.to_place)
                out.write(f"    to place ({c.call}): {placed}\n")


def cmd_table(args: argparse.Namespace) -> int:
    """``callbets table ACTION``: drive a persistent table from the shell."""
    action = args.action
    if action == "open":
        table = Table.create(_table_path(args), args.house, args.lang)
        print(f"table opened at {table.path} ({table.house.name}, {table.lang})")
        return EXIT_OK
    table = _open(args)
    out = sys.stdout
    if action == "player":
        table.add_player(args.name)
        print(f"{args.name} is at the table")
    elif action in ("bet", "announce"):
        aid, a = (table.bet if action == "bet" else table.announce)(
            args.player, " ".join(args.text), key=args.id
        )
        status = "placed" if action == "bet" else "waiting for confirmation"
        print(f"#{aid} {args.player} ({status}): {readback(a, table.lang, table.house)}")
    elif action == "confirm":
        table.confirm(args.id)
        print(f"#{args.id} confirmed")
    elif action == "cancel":
        table.cancel(args.id)
        print(f"#{args.id} cancelled")
    elif action == "undo":
        print(f"#{table.undo()} taken back")
    elif action == "clear":
        print(f"{table.clear(args.player)} bets of {args.player} removed")
    elif action == "close":
        table.close()
        print("rien ne va plus")
    elif action == "spin":
        choices = dict(args.choice or [])
        report = table.spin(args.number, args.round, choices, args.last)
        if args.json:
            print(json_line(report.to_json()))
        else:
            describe_spin(report, table.house, out)
    elif action == "replay":
        aid, call = args.id
        done = table.replay(aid, args.kind, call)
        print(
            f"placed {done.placed.notation()} ({money(done.from_win)} from the win"
            f"{f', {done.left_in_place} left in place' if done.left_in_place else ''}); "
            f"hand {money(done.handed)} to the player"
        )
    elif action == "show":
        state = table.state()
        if args.json:
            print(json_line(state))
        else:
            print(
                f"{state['house']} ({state['lang']}), round {state['round']}, betting "
                f"{state['betting']}, staked {state['staked']}, in prison {state['prison']}"
            )
            for player, entry in state["players"].items():
                print(f"  {player}: {entry['staked']} staked, {entry['prison']} in prison")
    elif action == "audit":
        if args.output:
            with open(args.output, "w", encoding="utf-8") as f:
                n = table.export_audit(f)
            print(f"{n} audit records written to {args.output}")
        else:
            table.export_audit(out)
    elif action == "verify":
        return _verify(table)
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
    """Register ``settle`` and ``table`` on the top-level parser."""
    s = sub.add_parser(
        "settle",
        help="settle an announcement against a winning number (no table)",
        description="Settle one announcement against one winning number, without a table.",
        epilog='example: callbets settle --spin 26 "voisins du zéro à 5"',
    )
    s.add_argument("text", nargs="*", metavar="ANNOUNCEMENT", type=text_argument)
    s.add_argument("--spin", type=int, required=True, metavar="N", help="the winning number")
    add_lang_house(s)
    s.add_argument(
        "--choice",
        metavar="CHOICE",
        help="on zero, for simple chances: prison, half or move:<chance>",
    )
    s.add_argument("--last-spin", action="store_true", help="the session's last spin")
    add_json_modes(s)
    s.set_defaults(run=cmd_settle)

    t = sub.add_parser(
        "table",
        help="drive a persistent table (players, bets, spins, replays, audit)",
        description="A table kept in a SQLite file: every action is one transaction and is "
        "written to an append-only audit log.",
    )
    t.add_argument(
        "--table", metavar="FILE", help=f"table file (default: $CALLBETS_TABLE or {default_path()})"
    )
    acts = t.add_subparsers(dest="action", required=True, metavar="ACTION")
    o = acts.add_parser("open", help="open a new table with a house and a language")
    o.add_argument("--house", default=DEFAULT_HOUSE, metavar="NAME")
    o.add_argument("--lang", choices=LANGUAGES, default="fr")
    acts.add_parser("player", help="seat a player (a colour or a name)").add_argument(
        "name", type=text_argument
    )
    for name, helptext in (
        ("bet", "announce and place a bet"),
        ("announce", "announce, to confirm later"),
    ):
        b = acts.add_parser(name, help=helptext)
        b.add_argument("player", type=text_argument)
        b.add_argument("text", nargs="+", metavar="ANNOUNCEMENT", type=text_argument)
        b.add_argument(
            "--id",
            metavar="KEY",
            type=text_argument,
            help="idempotency key: a retry with the same key places nothing twice",
        )
    acts.add_parser("confirm", help="confirm an announcement").add_argument("id", type=int)
    acts.add_parser("cancel", help="cancel an announcement").add_argument("id", type=int)
    acts.add_parser("undo", help="take back the last confirmed announcement")
    acts.add_parser("clear", help="remove a player's bets").add_argument(
        "player", type=text_argument
    )
    acts.add_parser("close", help="rien ne va plus: close betting")
    sp = acts.add_parser("spin", help="enter the winning number and settle")
    sp.add_argument("number", type=int)
    sp.add_argument("--round", type=int, help="the round this spin belongs to (repeat-safe)")
    sp.add_argument(
        "--choice",
        action="append",
        metavar="BET=CHOICE",
        type=_choice,
        help="on zero: prison, half or move:<chance> for a bet id",
    )
    sp.add_argument("--last", action="store_true", help="the session's last spin")
    sp.add_argument("--json", action="store_true")
    r = acts.add_parser("replay", help="replay a winning called bet")
    r.add_argument("id", metavar="ANNOUNCEMENT[.CALL]", type=_call_id)
    r.add_argument("kind", choices=["refaire", "completer", "tout"])
    sh = acts.add_parser("show", help="the table's state")
    sh.add_argument("--json", action="store_true")
    au = acts.add_parser("audit", help="export the audit log as JSON lines")
    au.add_argument("--output", metavar="FILE")
    acts.add_parser(
        "verify",
        help="check the audit log's hash chain and the books (read-only)",
        description="Recompute the audit log's hash chain (an HMAC if $CALLBETS_AUDIT_KEY is "
        "set) and the books: every spin settled once, totals consistent with the bets. "
        "Exit 1 and the first bad row if anything does not verify.",
    )
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


def run_guarded(args: argparse.Namespace) -> int:
    """Run a command, turning callbets errors into one clear line (exit 1; 2 for a bad house)."""
    try:
        code: int = args.run(args)
    except InputError as err:
        print(f"callbets: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (e.g. piped into head)
        return 0
    except (CallbetsError, OSError) as err:
        print(f"callbets: {err}", file=sys.stderr)
        return EXIT_REFUSED
    return code
