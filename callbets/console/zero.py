"""A zero with simple chances on the layout: each player may choose before it is settled.

Where the house offers a choice (``[zero] choices`` in its profile: Venice and France
let a player take half back, "à partager", instead of going en prison), entering 0 does
not settle at once: the console lists the simple chances caught, takes each player's
choice ("bleu: à partager", "rouge: en prison"; the words are in
``grammar/dialogue.toml``), and settles on Enter.  Whoever says nothing gets the house
default.  Esc drops the 0, in case it was typed by mistake.
"""

from __future__ import annotations

from ..dialogue import phrase, zero_choice
from ..errors import CallbetsError
from ..layout import SIMPLE_CHANCES
from ..readback import position_name
from ..settle import Bet
from ..store import SpinReport, Table
from .report import Fragments, line


def caught(table: Table) -> list[Bet]:
    """The simple-chance bets a zero would catch."""
    return [b for b in table.open_bets() if b.position.kind in SIMPLE_CHANCES]


def offers_choice(table: Table) -> bool:
    """True when a zero now needs the players' choices before it is settled."""
    return len(table.house.zero.choices & {"prison", "half"}) > 1 and bool(caught(table))


class ZeroCall:
    """The players' choices for a zero, until it is settled or dropped."""

    def __init__(self, table: Table, lang: str) -> None:
        self.table, self.lang = table, lang
        self.choices: dict[str, str] = {}
        """Player → ``prison`` or ``half``."""

    def opening(self) -> Fragments:
        """What the croupier sees on entering 0."""
        default = phrase(self.table.house.zero.default_choice, self.lang)
        out = line(f"zéro: simple chances caught (house rule: {default})", "class:title")
        for b in caught(self.table):
            level = f", en prison level {b.prison}" if b.prison else ""
            out += line(f"  {b.player}: {position_name(b.position, self.lang)} = {b.amount}{level}")
        half, prison = phrase("half", self.lang), phrase("prison", self.lang)
        return out + line(
            f"each player may say 'NAME: {half}' or 'NAME: {prison}'; Enter settles the zero, "
            "Esc if 0 is not the number",
            "class:dim",
        )

    def choose(self, player: str, text: str) -> Fragments:
        """Record a player's choice ("à partager", "en prison").

        :raises CallbetsError: not a choice, not offered here, or nothing caught.
        """
        choice = zero_choice(text, self.lang)
        if choice is None:
            half, prison = phrase("half", self.lang), phrase("prison", self.lang)
            raise CallbetsError(f"zero: say '{half}' or '{prison}' for {player}, or Enter")
        if choice not in self.table.house.zero.choices:
            raise CallbetsError(f"this house does not offer '{text}' on zero")
        if not any(b.player == player for b in caught(self.table)):
            raise CallbetsError(f"{player} has no simple chance on the layout")
        self.choices[player] = choice
        return line(f"{player}: {phrase(choice, self.lang)}", "class:ok")

    def settle(self) -> SpinReport:
        """Settle the zero with the choices made."""
        per_bet = {b.id: self.choices[b.player] for b in caught(self.table)
                   if b.player in self.choices}  # fmt: skip
        return self.table.spin(0, choices=per_bet)
