"""A zero with simple chances on the layout: each player may choose before it is settled.

Where the house offers a choice (``[zero] choices`` in its profile: Venice and France
let a player take half back, "à partager", instead of going en prison; Venice also lets
the stake move to another simple chance, "déplacer sur noir"), entering 0 does not
settle at once: the console lists the simple chances caught and what the house offers,
takes each player's choice ("bleu: à partager", "rouge: en prison", "vert: déplacer sur
noir"; the words are in ``grammar/dialogue.toml``), and settles on Enter.  Whoever says
nothing gets the house default.  Esc drops the 0, in case it was typed by mistake.
"""

from __future__ import annotations

from ..errors import AnnouncementError, CallbetsError
from ..language.dialogue import phrase, zero_choice, zero_move
from ..language.parse import parse
from ..language.readback import position_name
from ..roulette.layout import SIMPLE_CHANCES, Position
from ..roulette.settle import Bet
from ..table import SpinReport, Table
from .report import Fragments, line
from .words import say


def caught(table: Table) -> list[Bet]:
    """The simple-chance bets a zero would catch."""
    return [b for b in table.open_bets() if b.position.kind in SIMPLE_CHANCES]


def offers_choice(table: Table) -> bool:
    """True when a zero now needs the players' choices before it is settled."""
    return len(table.house.zero.choices) > 1 and bool(caught(table))


def offered(table: Table, lang: str) -> str:
    """What a player may say at this house's zero, in the table's words."""
    shown = {"prison": phrase("prison", lang), "half": phrase("half", lang),
             "move": f"{phrase('move', lang)} …"}  # fmt: skip
    kinds = [k for k in ("half", "prison", "move") if k in table.house.zero.choices]
    return " | ".join(f"'{shown[k]}'" for k in kinds)


class ZeroCall:
    """The players' choices for a zero, until it is settled or dropped."""

    def __init__(self, table: Table, lang: str, last_spin: bool = False) -> None:
        self.table, self.lang, self.last_spin = table, lang, last_spin
        self.choices: dict[str, str] = {}
        """Player → ``prison``, ``half`` or ``move:<chance>``."""

    def opening(self) -> Fragments:
        """What the croupier sees on entering 0."""
        lang = self.lang
        default = phrase(self.table.house.zero.default_choice, lang)
        out = line(say(lang, "zero_caught", default=default), "class:title")
        for b in caught(self.table):
            level = say(lang, "in_prison_level", level=b.prison) if b.prison else ""
            out += line(f"  {b.player}: {position_name(b.position, lang)} = {b.amount}{level}")
        return out + line(say(lang, "zero_choose", options=offered(self.table, lang)), "class:dim")

    def choose(self, player: str, text: str) -> Fragments:
        """Record a player's choice ("à partager", "en prison", "déplacer sur noir").

        :raises CallbetsError: not a choice, not offered here, or nothing caught.
        """
        lang, house = self.lang, self.table.house
        target = zero_move(text, lang)
        choice = "move" if target is not None else zero_choice(text, lang)
        if choice is None:
            options = offered(self.table, lang)
            raise CallbetsError(say(lang, "zero_say", options=options, player=player))
        if choice not in house.zero.choices:
            raise CallbetsError(say(lang, "zero_not_offered", text=text))
        if not any(b.player == player for b in caught(self.table)):
            raise CallbetsError(say(lang, "zero_nothing", player=player))
        shown = phrase(choice, lang)
        if target is not None:
            chance = self._chance(target)
            choice, shown = f"move:{chance.kind.value}", f"{shown} {position_name(chance, lang)}"
        self.choices[player] = choice
        return line(f"{player}: {shown}", "class:ok")

    def _chance(self, said: str) -> Position:
        """The simple chance a stake is moved to (as the parser reads it).

        :raises CallbetsError: not one simple chance.
        """
        try:
            calls = parse(said, self.lang, self.table.house).calls
        except AnnouncementError:
            calls = ()
        found = [p.position for c in calls for p in c.placements]
        if len(found) != 1 or found[0].kind not in SIMPLE_CHANCES:
            raise CallbetsError(say(self.lang, "zero_move_what", text=said))
        return found[0]

    def settle(self) -> SpinReport:
        """Settle the zero with the choices made."""
        per_bet = {b.id: self.choices[b.player] for b in caught(self.table)
                   if b.player in self.choices}  # fmt: skip
        return self.table.spin(0, choices=per_bet, last_spin=self.last_spin)
