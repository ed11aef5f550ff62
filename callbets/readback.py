"""What the croupier says back, in the table's language, with every chip.

The words are data (``grammar/readback.toml``); this module only fills them in.
"""

from __future__ import annotations

import tomllib
from functools import cache
from typing import Any

from ._resources import grammar_dir
from .announcement import Announcement, PlacedCall
from .house import House
from .layout import describe_outside


@cache
def _words(lang: str) -> dict[str, Any]:
    data = tomllib.loads((grammar_dir() / "readback.toml").read_text(encoding="utf-8"))
    if lang not in data:
        raise ValueError(f"no readback words for language '{lang}'")
    words: dict[str, Any] = data[lang]
    return words


def call_name(call: PlacedCall, lang: str, house: House) -> str:
    """The call as a croupier names it: ``le 17 et 2 voisins``."""
    words = _words(lang)
    c = call.call
    if c.name in ("dozen", "column", "two_dozens", "two_columns"):
        args = describe_outside(c.position())
    elif c.name == "neighbours":
        args = ", ".join(map(str, c.numbers))
    else:
        args = "/".join(map(str, c.numbers))
    side = c.each_side if c.each_side is not None else house.neighbours_default
    template: str = words["names"][c.name]
    return template.format(args=args, side=side)


def readback(announcement: Announcement, lang: str, house: House) -> str:
    """Several lines: each call with its pieces and total, then each chip."""
    words = _words(lang)
    lines = []
    for call in announcement.calls:
        plural = words["pieces"] if call.pieces > 1 else words["piece"]
        lines.append(
            words["line"].format(
                name=call_name(call, lang, house),
                pieces=call.pieces,
                pieces_word=plural,
                unit=call.unit,
                total=call.total,
            )
        )
        for p in call.placements:
            times = f" ×{p.pieces}" if p.pieces > 1 else ""
            lines.append(f"    {p.position}{times} = {p.amount}")
    if len(announcement.calls) > 1:
        lines.append(f"{words['total']} {announcement.total}")
    return "\n".join(lines)
