"""A zero with simple chances on the layout: each player may choose before it is settled.

Where the house offers a choice (``[zero] choices`` in its profile: Venice and France
let a player take half back, "à partager", instead of going en prison), entering 0 does
not settle at once: the console lists the simple chances caught, takes each player's
choice ("bleu: à partager", "rouge: en prison"; the words are in
``grammar/dialogue.toml``), and settles on Enter.  Whoever says nothing gets the house
default.  Esc drops the 0, in case it was typed by mistake.
"""

from __future__ import annotations

from ..errors import CallbetsError
from ..language.dialogue import phrase, zero_choice
from ..language.readback import position_name
from ..roulette.layout import SIMPLE_CHANCES
from ..roulette.settle import Bet
from ..table import SpinReport, Table
from .report import Fragments, line
from .words import say


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
        lang = self.lang
        default = phrase(self.table.house.zero.default_choice, lang)
        out = line(say(lang, "zero_caught", default=default), "class:title")
        for b in caught(self.table):
            level = say(lang, "in_prison_level", level=b.prison) if b.prison else ""
            out += line(f"  {b.player}: {position_name(b.position, lang)} = {b.amount}{level}")
        half, prison = phrase("half", lang), phrase("prison", lang)
        return out + line(say(lang, "zero_choose", half=half, prison=prison), "class:dim")

    def choose(self, player: str, text: str) -> Fragments:
        """Record a player's choice ("à partager", "en prison").

        :raises CallbetsError: not a choice, not offered here, or nothing caught.
        """
        lang = self.lang
        choice = zero_choice(text, lang)
        if choice is None:
            half, prison = phrase("half", lang), phrase("prison", lang)
            raise CallbetsError(say(lang, "zero_say", half=half, prison=prison, player=player))
        if choice not in self.table.house.zero.choices:
            raise CallbetsError(say(lang, "zero_not_offered", text=text))
        if not any(b.player == player for b in caught(self.table)):
            raise CallbetsError(say(lang, "zero_nothing", player=player))
        self.choices[player] = choice
        return line(f"{player}: {phrase(choice, self.lang)}", "class:ok")

    def settle(self) -> SpinReport:
        """Settle the zero with the choices made."""
        per_bet = {b.id: self.choices[b.player] for b in caught(self.table)
                   if b.player in self.choices}  # fmt: skip
        return self.table.spin(0, choices=per_bet)
