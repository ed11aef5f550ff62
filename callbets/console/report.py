"""What the console shows: readbacks, pictures, settlements and the status line.

Everything here returns *fragments*: a list of ``(style, text)`` pairs, the form
prompt_toolkit prints, so the words stay testable as plain text (:func:`plain`).  Style
names are classes of the console's style sheet (``class:error`` …).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from ..language.readback import call_line, called_name, position_name, readback, replay_name
from ..pictures.drawing import CHIP, draw
from ..roulette.announcement import Announcement, PlacedCall
from ..roulette.house import House
from ..roulette.layout import RED, BetKind, Position, simple_chance
from ..roulette.replay import Replay
from ..roulette.settle import Bet, Outcome
from ..table import SpinReport, money
from .words import say

Fragments = list[tuple[str, str]]

PLAIN_KINDS = frozenset(k.value for k in BetKind)


def plain(fragments: Fragments) -> str:
    """The text of fragments without their styles."""
    return "".join(text for _, text in fragments)


def line(text: str, style: str = "") -> Fragments:
    """One line of text in one style."""
    return [(style, text + "\n")]


def error(message: str) -> Fragments:
    """A refusal: one line, starting with a cross."""
    return line(f"✗ {message}", "class:error")


def amount(value: Fraction | int) -> str:
    """An amount as a croupier writes it: 45, 2.5."""
    return str(money(value))


def signed(value: Fraction | int) -> str:
    """A net amount with its sign: +45, -9, 0."""
    return f"+{amount(value)}" if value > 0 else amount(value)


# ---- pictures ----------------------------------------------------------------------
_MARK = re.compile(r"(\[[^\]]+\]|" + CHIP + ")")


def picture(positions: Iterable[Position], lang: str) -> Fragments:
    """The text drawing of the tableau, chip marks highlighted, labelled in ``lang``."""
    out: Fragments = []
    for text in draw(positions, lang):
        for i, part in enumerate(_MARK.split(text)):
            out.append(("class:mark" if i % 2 else "class:cloth", part))
        out.append(("", "\n"))
    return out


# ---- announcements -------------------------------------------------------------------
def height(fragments: Fragments) -> int:
    """How many lines the fragments take on the screen."""
    return sum(text.count("\n") for _, text in fragments)


def announcement(
    player: str, a: Announcement, lang: str, house: House, rows: int | None = None
) -> Fragments:
    """The readback of an announcement, every chip, and where the chips go.

    With ``rows`` (the lines the screen has for it), what does not fit is folded so that
    the start of the readback never scrolls away before Enter: first the picture goes,
    then the chips (the calls and their totals stay; ``/chips`` shows them all)."""
    head: Fragments = line(f"{player}:", "class:player")
    every: Fragments = []
    calls: Fragments = []
    for text in readback(a, lang, house).splitlines():
        chip = text.startswith(" ")
        every += line(f"  {text}", "class:chip" if chip else "class:call")
        calls += [] if chip else line(f"  {text}", "class:call")
    drawing = picture((p.position for c in a.calls for p in c.placements), lang)
    full = head + every
    if rows is None or height(full) + height(drawing) <= rows:
        return full + drawing
    if height(full) <= rows:
        return full
    folded = say(lang, "chips_folded", count=height(every) - height(calls))
    return head + calls + line(f"  {folded}", "class:dim")


def placed_call(c: PlacedCall, lang: str, house: House) -> str:
    """A call as read back, with its stake: ``voisins du zéro, 9 pièces à 5 = 45``."""
    return call_line(c, lang, house)


def replay(player: str, done: Replay, lang: str, house: House, drawing: bool = True) -> Fragments:
    """What a replay puts on the layout and hands to the player (and where, drawn)."""
    out = line(
        f"{player}: {replay_name(done.kind, lang)} {placed_call(done.placed, lang, house)}",
        "class:ok",
    )
    if done.left_in_place:
        out += line(say(lang, "left_in_place", amount=done.left_in_place), "class:chip")
    out += line(say(lang, "from_win", amount=amount(done.from_win)), "class:chip")
    out += line(say(lang, "hand", player=player, amount=amount(done.handed)), "class:pay")
    return out + picture((p.position for p in done.placed.placements), lang) if drawing else out


# ---- the spin --------------------------------------------------------------------
def number_title(n: int, round_no: int, lang: str) -> Fragments:
    """``17  noir · impair · manque``: the number and its simple chances."""
    if n == 0:
        words = say(lang, "zero")
    else:
        kinds = (
            BetKind.RED if n in RED else BetKind.BLACK,
            BetKind.EVEN if n % 2 == 0 else BetKind.ODD,
            BetKind.LOW if n <= 18 else BetKind.HIGH,
        )
        words = " · ".join(position_name(simple_chance(k), lang) for k in kinds)
    return line(say(lang, "title", number=n, words=words, round=round_no), "class:title")


def bet_name(bet: Bet, lang: str) -> str:
    """A bet on the layout: ``cheval 4/7 = 5 (voisins)``; the call only for a called bet."""
    called = "" if bet.call in PLAIN_KINDS else f" ({called_name(bet.call, lang)})"
    return f"{position_name(bet.position, lang)} = {bet.amount}{called}"


def _outcome(o: Outcome, lang: str) -> Fragments:
    bet = o.bet
    what = bet_name(bet, lang)
    back = amount(o.returned)
    out: Fragments = []
    if bet.prison and o.result == "won":
        out += line(say(lang, "out_of_prison", what=what, back=back), "class:pay")
    elif o.result == "won":
        out += line(say(lang, "wins", what=what, paid=amount(o.paid), back=back), "class:pay")
    elif o.result == "shared":
        out += line(say(lang, "shared", what=what, back=back), "class:pay")
    elif bet.prison and o.result == "lost":
        out += line(say(lang, "lost_in_prison", what=what), "class:dim")
    if o.excess:
        out += line(say(lang, "over_max", amount=o.excess), "class:warn")
    if o.kept is not None:
        kept = bet_name(o.kept, lang)
        out += line(say(lang, "to_prison", level=o.kept.prison, what=kept), "class:prison")
    return out


def spin(report: SpinReport, house: House, lang: str) -> Fragments:
    """The settlement, player by player, each in the house's payout order."""
    s = report.settlement
    out = number_title(s.number, report.round, lang)
    if not s.outcomes:
        return out + line(say(lang, "no_bets"), "class:dim")
    for player in s.players():
        out += _player_totals(
            player, s.staked(player), s.returned(player), s.net(player), s.in_prison(player),
            lang,
        )  # fmt: skip
        for o in s.outcomes:
            if o.bet.player == player:
                out += _outcome(o, lang)
        for c in report.calls:
            if c.player == player and c.to_place:
                placed = ", ".join(f"{position_name(p, lang)} = {a}" for p, a in c.to_place)
                call = called_name(c.call, lang)
                out += line(say(lang, "to_place", call=call, placed=placed), "class:chip")
    return out + _table_totals(s.staked(), s.returned(), s.in_prison(), lang)


def _player_totals(
    player: str, staked: Fraction, back: Fraction, net: Fraction, prison: Fraction, lang: str
) -> Fragments:
    """A player's line of a settlement: staked, back, net, and what stays in prison."""
    totals = say(lang, "player_totals", player=player, staked=amount(staked),
                 back=amount(back), net=signed(net))  # fmt: skip
    if prison:
        totals += say(lang, "player_prison", amount=amount(prison))
    return line(totals, "class:player")


def _table_totals(staked: Fraction, back: Fraction, prison: Fraction, lang: str) -> Fragments:
    """The table's line of a settlement."""
    totals = say(lang, "table_totals", staked=amount(staked), back=amount(back),
                 prison=amount(prison))  # fmt: skip
    return line(totals, "class:dim")


def spin_summary(data: dict[str, Any], lang: str) -> Fragments:
    """A spin as the table stored it when it settled it (``{"round", "spin", "players":
    {name: {"staked", "returned", "net", "prison"}}}``): the number, each player's totals
    and the table's, without settling the round again (a screen of many tables).

    :raises KeyError, TypeError, ValueError: a stored settlement that cannot be read.
    """
    out = number_title(int(data["spin"]), int(data["round"]), lang)
    players: dict[str, dict[str, Any]] = data["players"]
    if not players:
        return out + line(say(lang, "no_bets"), "class:dim")
    sums = {"staked": Fraction(0), "returned": Fraction(0), "prison": Fraction(0)}
    for player, entry in players.items():
        got = {k: Fraction(str(entry[k])) for k in ("staked", "returned", "net", "prison")}
        for k in sums:
            sums[k] += got[k]
        out += _player_totals(player, got["staked"], got["returned"], got["net"],
                              got["prison"], lang)  # fmt: skip
    return out + _table_totals(sums["staked"], sums["returned"], sums["prison"], lang)


# ---- the status line ---------------------------------------------------------------
def status(state: dict[str, Any], player: str | None, waiting: bool, voice: str, lang: str) -> str:
    """One line: betting open or closed, players, total staked, spins so far, prison."""
    players = " ".join(f"{p} {e['staked']}" for p, e in state["players"].items())
    spins = state["spins"]
    last = say(lang, "status_last", number=spins[-1]["number"]) if spins else ""
    parts = [
        say(lang, "status_round", round=state["round"]),
        say(lang, f"status_{state['betting']}"),
        players or say(lang, "status_no_players"),
        say(lang, "status_staked", amount=state["staked"]),
        say(lang, "status_prison", amount=state["prison"]),
        say(lang, "status_spins", count=len(spins)) + last,
    ]
    if player:
        parts.append(f"→ {player}")
    if waiting:
        parts.append(say(lang, "status_waiting"))
    if voice:
        parts.append(voice)
    return " │ ".join(parts)


# ---- the end of the evening ------------------------------------------------------------
def evening(data: dict[str, Any], lang: str) -> Fragments:
    """The evening's report (:func:`callbets.table.evening.evening`) as a pit boss reads
    and signs it, in the table's language."""
    none = say(lang, "report_none")
    ended = say(lang, "report_ended") if data["ended"] else ""
    title = "report_title" if data["ended"] else "report_title_so_far"  # not "the end" yet
    out = line(say(lang, title, table=data["table"], house=data["house"],
                   spins=data["spins"], ended=ended), "class:title")  # fmt: skip
    for player, p in data["players"].items():
        out += line(say(lang, "report_player", player=player, staked=p["staked"],
                        returned=p["returned"], net=_signed(p["net"])))  # fmt: skip
    out += line(say(lang, "report_table", staked=data["staked"], returned=data["returned"],
                    bank=_signed(-data["net"])), "class:ok")  # fmt: skip
    prison = {k: data["prison"].get(k, 0) for k in ("imprisoned", "freed", "lost", "handed_back")}
    out += line(say(lang, "report_prison", still=data["prison"]["still"], **prison))
    closing = data["prison"].get("at_close")
    if closing:
        rule = say(lang, f"report_close_{closing['rule']}")
        out += line(say(lang, "report_prison_close", rule=rule, back=closing["handed_back"],
                        bank=closing["bank"]))  # fmt: skip
    handed = ", ".join(f"{p} {a}" for p, a in data["handed_back"].items())
    out += line(say(lang, "report_handed", who=handed or none))
    replays = ", ".join(f"{replay_name(k, lang)} {n}" for k, n in data["replays"].items())
    out += line(say(lang, "report_replays", replays=replays or none))
    out += line(say(lang, "report_croupiers", names=", ".join(data["croupiers"]) or none))
    audit = data["audit"]
    if audit["verifies"]:
        return out + line(say(lang, "report_audit_ok", rows=audit["rows"], head=audit["head"]))
    return out + line(say(lang, "report_audit_bad"), "class:error")


def _signed(amount: int | float) -> str:
    return f"+{amount}" if amount > 0 else str(amount)
