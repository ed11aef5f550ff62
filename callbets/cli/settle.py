"""``callbets settle``: one announcement against one winning number, without a table."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import AnnouncementError, InputError
from ..language.parse import parse
from ..language.readback import call_line
from ..messages import message_in, said, say_in
from ..roulette.announcement import Announcement
from ..roulette.house import House, find_house
from ..roulette.layout import BetKind, Position
from ..roulette.limits import LimitError, check_limits
from ..roulette.settle import bets_for, call_results, settle
from ..table import money
from .options import (
    EXIT_OK,
    EXIT_REFUSED,
    add_json_modes,
    add_lang_house,
    answer_lines,
    echo,
    json_line,
    text_argument,
    zero_choice_in,
)


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
                if o.kept.position != o.bet.position:  # moved to another chance as it went
                    placement["moved_to"] = o.kept.position.kind.value
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
        return {"input": text, "ok": False, "error": err.to_json(args.lang)}
    except LimitError as err:
        return {"input": text, "ok": False,
                "error": {"kind": "limit", "message": message_in(err, args.lang)}}  # fmt: skip
    choice = zero_choice_in(args.choice, args.lang, house) if args.choice else None
    data = settle_json(a, args.spin, house, choice, args.last_spin)
    if warnings:
        data["warnings"] = [message_in(w, args.lang) for w in warnings]
    return data


def _describe_settlement(data: dict[str, Any], names: list[str], lang: str) -> str:
    """The settlement as text in the language asked; each call named by its readback
    line (which reads back)."""

    def say(key: str, **fields: object) -> str:
        return say_in(lang, key, **fields)

    def where(p: dict[str, Any]) -> Position:
        return Position(BetKind(p["bet"]), tuple(p["numbers"]))

    lines = [say("settle_spin", n=data["spin"]), *(f"  ! {w}" for w in data.get("warnings", []))]
    for name, call in zip(names, data["calls"], strict=True):
        lines.append("  " + say("settle_call", call=name, amount=call["returned"]))
        for p in call["placements"]:
            if p["result"] != "lost":
                key = "settle_moved" if "moved_to" in p else f"settle_{p['result']}"
                target = Position(BetKind(p["moved_to"]), ()) if "moved_to" in p else ""
                lines.append("    " + say(key, position=where(p), target=target,
                                          paid=p["paid"], back=p["returned"]))  # fmt: skip
        for p in call.get("to_place", []):
            lines.append("    " + say("settle_to_place", position=where(p), amount=p["amount"]))
    key = "settle_totals_prison" if data["prison"] else "settle_totals"
    lines.append(say(key, staked=data["staked"], back=data["returned"], net=data["net"],
                     prison=data["prison"]))  # fmt: skip
    return "\n".join(lines)


def cmd_settle(args: argparse.Namespace) -> int:
    """``callbets settle``: one announcement (or a file of them) against one number."""
    if not 0 <= args.spin <= 36:
        raise InputError(said("cli_not_on_wheel", number=args.spin))
    house = find_house(args.house)
    if args.jsonl is not None:
        return answer_lines(args.jsonl, "settle", lambda t: _settle_one(t, args, house), args.lang)
    text = " ".join(args.text)
    data = _settle_one(text, args, house)
    if args.json:
        print(json_line(data))
    elif data["ok"]:
        calls = parse(text, args.lang, house).calls
        names = [call_line(c, args.lang, house) for c in calls]
        print(_describe_settlement(data, names, args.lang))
    else:
        echo(f"refused ({data['error']['kind']}): {data['error']['message']}", sys.stderr)
    return EXIT_OK if data["ok"] else EXIT_REFUSED


def add_commands(sub: Any) -> None:
    """Register ``settle`` on the top-level parser."""
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
