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

from ..announcement import Announcement, PlacedCall
from ..drawing import CHIP, draw
from ..house import House
from ..layout import BLACK, RED, BetKind, Position
from ..readback import call_name, position_name, readback, replay_name
from ..replay import Replay
from ..settle import Bet, Outcome
from ..store import SpinReport, money

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


def picture(positions: Iterable[Position]) -> Fragments:
    """The text drawing of the tableau, chip marks highlighted."""
    out: Fragments = []
    for text in draw(positions):
        for i, part in enumerate(_MARK.split(text)):
            out.append(("class:mark" if i % 2 else "class:cloth", part))
        out.append(("", "\n"))
    return out


# ---- announcements -------------------------------------------------------------------
def announcement(player: str, a: Announcement, lang: str, house: House) -> Fragments:
    """The readback of an announcement, every chip, and where the chips go."""
    out: Fragments = line(f"{player}:", "class:player")
    for text in readback(a, lang, house).splitlines():
        style = "class:chip" if text.startswith(" ") else "class:call"
        out += line(f"  {text}", style)
    return out + picture(p.position for c in a.calls for p in c.placements)


def placed_call(c: PlacedCall, lang: str, house: House) -> str:
    """A call as named in the readback, with its stake: ``voisins du zéro à 5 = 45``."""
    return f"{call_name(c, lang, house)} ×{c.unit} = {c.total}"


def replay(player: str, done: Replay, lang: str, house: House) -> Fragments:
    """What a replay puts on the layout and hands to the player."""
    out = line(
        f"{player}: {replay_name(done.kind, lang)} {placed_call(done.placed, lang, house)}",
        "class:ok",
    )
    if done.left_in_place:
        out += line(f"  left in place from the win: {done.left_in_place}", "class:chip")
    out += line(f"  placed from the win: {amount(done.from_win)}", "class:chip")
    out += line(f"  hand to {player}: {amount(done.handed)}", "class:pay")
    return out + picture(p.position for p in done.placed.placements)


# ---- the spin --------------------------------------------------------------------
def number_title(n: int, round_no: int) -> Fragments:
    """``17  rouge · impair · manque`` (the cloth's words)."""
    if n == 0:
        words = "zéro"
    else:
        colour = "rouge" if n in RED else "noir" if n in BLACK else ""
        words = " · ".join(
            (colour, "pair" if n % 2 == 0 else "impair", "manque" if n <= 18 else "passe")
        )
    return line(f"━━ {n}  {words} ━━ round {round_no}", "class:title")


def bet_name(bet: Bet, lang: str) -> str:
    """A bet on the layout: ``cheval 4/7 = 5 (voisins)``; the call only for a called bet."""
    called = "" if bet.call in PLAIN_KINDS else f" ({bet.call})"
    return f"{position_name(bet.position, lang)} = {bet.amount}{called}"


def _outcome(o: Outcome, lang: str) -> Fragments:
    bet = o.bet
    what = bet_name(bet, lang)
    out: Fragments = []
    if bet.prison and o.result == "won":
        out += line(f"  out of prison: {what}, back {bet.amount}", "class:pay")
    elif o.result == "won":
        out += line(
            f"  wins {what}: pay {amount(o.paid)}, back with the stake {amount(o.returned)}",
            "class:pay",
        )
    elif o.result == "shared":
        out += line(f"  à partager {what}: back {amount(o.returned)}", "class:pay")
    elif bet.prison and o.result == "lost":
        out += line(f"  lost in prison: {what}", "class:dim")
    if o.excess:
        out += line(f"    over the maximum: {o.excess} handed back", "class:warn")
    if o.kept is not None:
        out += line(
            f"  en prison (level {o.kept.prison}): {bet_name(o.kept, lang)}", "class:prison"
        )
    return out


def spin(report: SpinReport, house: House, lang: str) -> Fragments:
    """The settlement, player by player, each in the house's payout order."""
    s = report.settlement
    out = number_title(s.number, report.round)
    if not s.outcomes:
        return out + line("no bets on the layout", "class:dim")
    for player in s.players():
        out += line(
            f"{player}: staked {amount(s.staked(player))} · back {amount(s.returned(player))}"
            f" · net {signed(s.net(player))}"
            + (f" · in prison {amount(s.in_prison(player))}" if s.in_prison(player) else ""),
            "class:player",
        )
        for o in s.outcomes:
            if o.bet.player == player:
                out += _outcome(o, lang)
        for c in report.calls:
            if c.player == player and c.to_place:
                placed = ", ".join(f"{position_name(p, lang)} = {a}" for p, a in c.to_place)
                out += line(f"  to place ({c.call}, paid to place): {placed}", "class:chip")
    out += line(
        f"table: staked {amount(s.staked())} · back {amount(s.returned())}"
        f" · in prison {amount(s.in_prison())}",
        "class:dim",
    )
    return out


# ---- the status line ---------------------------------------------------------------
def status(state: dict[str, Any], player: str | None, pending: bool, voice: str) -> str:
    """One line: betting open or closed, players, total staked, spins so far, prison."""
    betting = "BETTING OPEN" if state["betting"] == "open" else "RIEN NE VA PLUS"
    players = " ".join(f"{p} {e['staked']}" for p, e in state["players"].items()) or "no players"
    spins = state["spins"]
    last = f", last {spins[-1]['number']}" if spins else ""
    parts = [
        f"round {state['round']}",
        betting,
        players,
        f"staked {state['staked']}",
        f"prison {state['prison']}",
        f"{len(spins)} spins{last}",
    ]
    if player:
        parts.append(f"→ {player}")
    if pending:
        parts.append("Enter/Esc")
    if voice:
        parts.append(voice)
    return " │ ".join(parts)
