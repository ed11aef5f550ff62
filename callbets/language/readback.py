"""What the croupier says back, in the table's language, with every chip.

>>> from callbets import find_house, parse
>>> print(readback(parse("voisins du zéro à 5", "fr"), "fr", find_house()))
voisins du zéro, 9 pièces à 5 = 45
    transversale 0/2/3 ×2 = 10
    cheval 4/7 = 5
    cheval 12/15 = 5
    cheval 18/21 = 5
    cheval 19/22 = 5
    carré 25/26/28/29 ×2 = 10
    cheval 32/35 = 5

The words are data (``grammar/readback.toml``); this module only fills them in.
"""

from __future__ import annotations

from typing import Any

from .._resources import language_words
from ..errors import AnnouncementError
from ..roulette.announcement import Announcement, PlacedCall, parse_notation
from ..roulette.house import House
from ..roulette.layout import Position


def _words(lang: str) -> dict[str, Any]:
    return language_words("readback.toml", lang)


def call_name(call: PlacedCall, lang: str, house: House) -> str:
    """The call as a croupier names it: ``le 17 et 2 voisins``."""
    return call.call.named(house).in_language(lang)


def position_name(p: Position, lang: str) -> str:
    """A position as the croupier names it in the table's language: ``cheval 4/7``."""
    return p.named().in_language(lang)


def called_name(call: str, lang: str) -> str:
    """A called bet's name without its numbers (``voisins``, ``finale en plein``), as
    shown after a chip it put down; the name itself when it has no numbers."""
    words = _words(lang)
    found: str = words.get("called", {}).get(call) or words["names"].get(call, call)
    return found


def layout_labels(lang: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The labels of the layout's outside boxes in a language: the three dozens, and the
    six simple chances in the cloth's order (1-18, even, red, black, odd, 19-36)."""
    labels = tuple(str(_words(lang)["layout"]).split("|"))
    return labels[:3], labels[3:]


def reading_line(notation: str, lang: str, house: House) -> str:
    """One reading of an ambiguous announcement, in the table's words: "voisins du zéro,
    9 pièces à 5 = 45" (the notation itself if it does not read as a bet here)."""
    try:
        calls = parse_notation(notation, house).calls
    except (AnnouncementError, ValueError):
        return notation
    return " ; ".join(call_line(c, lang, house) for c in calls)


def replay_name(kind: str, lang: str) -> str:
    """A replay as said in the table's language: ``à compléter``, ``a completare``."""
    name: str = _words(lang)["replays"][kind]
    return name


def call_line(call: PlacedCall, lang: str, house: House) -> str:
    """One call as the croupier reads it back: ``voisins du zéro, 9 pièces à 5 = 45``.

    It reads back: parsed in the same language, it places the same chips.
    """
    words = _words(lang)
    pieces, form = call.pieces, "line"
    if call.counted and call.total % call.counted == 0:  # "3 pièces sur plein 17 = 3"
        pieces = call.total // call.counted
        form = "counted" if call.counted == house.piece_value else "counted_of"
    line: str = words[form].format(
        name=call_name(call, lang, house),
        pieces=pieces,
        pieces_word=words["pieces"] if pieces > 1 else words["piece"],
        piece=call.counted,
        unit=call.unit,
        total=call.total,
    )
    return line


def readback(announcement: Announcement, lang: str, house: House) -> str:
    """Several lines: each call with its pieces and total, then each chip."""
    words = _words(lang)
    lines = []
    for call in announcement.calls:
        lines.append(call_line(call, lang, house))
        for p in call.placements:
            times = f" ×{p.pieces}" if p.pieces > 1 else ""
            lines.append(f"    {position_name(p.position, lang)}{times} = {p.amount}")
    if len(announcement.calls) > 1:
        lines.append(f"{words['total']} {announcement.total}")
    return "\n".join(lines)
