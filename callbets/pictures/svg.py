"""An SVG picture of the French layout with the chips on it, and the wheel beside it.

The tableau is drawn as in :mod:`callbets.pictures.drawing`, as a croupier sees it from the long
side: the zero on the left, column 36 on top.  Each chip is a circle where
:mod:`callbets.roulette.tableau` puts it (the middle of a number, on a line, on the outer edge, on
a crossing) with its amount on it; the wheel shows every pocket in wheel order and
highlights the numbers the chips cover.  Machine-readable attributes let tests and
other programs check the picture: ``data-number`` on each number and pocket,
``data-kind``/``data-numbers``/``data-amount`` on each chip, and the class ``covered`` on
the highlighted pockets.

Pure: it returns the document as a string.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import cache, lru_cache
from html import escape

from ..language.readback import layout_labels
from ..roulette.announcement import Announcement
from ..roulette.layout import BLACK, RED, WHEEL, BetKind, Position, column, row
from ..roulette.tableau import covered, slot, spot

CELL_W, CELL_H = 56, 44
"""One number's box: width along the layout, height across it."""
LEFT, TOP = 30 + CELL_W, 50
"""Where the line between the zero and row 1 meets the top edge of column 36."""
STRIP_H = 36
WHEEL_R = 150
WHEEL_CX, WHEEL_CY = LEFT + 13 * CELL_W + 60 + WHEEL_R, TOP + WHEEL_R + 6
WIDTH, HEIGHT = WHEEL_CX + WHEEL_R + 30, WHEEL_CY + WHEEL_R + 30
CHIP_R = 13
LABEL_AT, CHIP_AT = 0.36, 0.78
"""Where, along an outside box, its label and its chip go (so neither hides the other)."""
HALO = 'stroke="#000" stroke-width="3" paint-order="stroke" font-weight="bold" '
"""A dark outline that keeps a label readable over a chip."""


def lattice_xy(along: float, across: float) -> tuple[float, float]:
    """Drawing coordinates of a point of the tableau's half-cell lattice."""
    return LEFT + along * CELL_W / 2, TOP + (6 - across) * CELL_H / 2


def _colour(n: int) -> str:
    return "#c0392b" if n in RED else "#1c1c1c" if n in BLACK else "#1e8449"


def _rect(x: float, y: float, w: float, h: float, fill: str, extra: str = "") -> str:
    return (
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="{fill}" '
        f'stroke="#f4f1e8" stroke-width="2"{extra}/>'
    )


def _text(
    x: float, y: float, label: str, size: int = 16, fill: str = "#fff",
    anchor: str = "middle", extra: str = "",
) -> str:  # fmt: skip
    return (
        f'<text {extra}x="{x:g}" y="{y:g}" font-size="{size}" fill="{fill}" '
        f'text-anchor="{anchor}" dominant-baseline="central" font-family="sans-serif">'
        f"{escape(label, quote=False)}</text>"
    )


@lru_cache(maxsize=256)
def _numbers(straights: frozenset[int]) -> tuple[str, ...]:
    """The numbers; one holding a straight-up chip has its label in its corner."""
    out = []
    x0, y0 = lattice_xy(-2, 6)
    out.append(_rect(x0, y0, CELL_W, 3 * CELL_H, _colour(0), ' data-number="0"'))
    out.append(_text(*lattice_xy(-1, 3 if 0 not in straights else 5), "0", 20))
    for n in range(1, 37):
        x, y = lattice_xy(2 * row(n) - 2, 2 * column(n))
        out.append(_rect(x, y, CELL_W, CELL_H, _colour(n), f' data-number="{n}"'))
        if n not in straights:
            out.append(_text(x + CELL_W / 2, y + CELL_H / 2, str(n)))
    for i in range(3):
        x, y = lattice_xy(24, 2 * i + 2)
        out.append(_rect(x, y, CELL_W, CELL_H, "#2d6a4f", f' data-box="column-{i}"'))
        out.append(_text(x + CELL_W / 2, y + CELL_H / 2, "col", 13))
    return tuple(out)


def _corner_labels(straights: frozenset[int]) -> list[str]:
    """Labels of numbers under a straight-up chip, drawn over the chips in a corner."""
    out = []
    for n in sorted(straights - {0}):
        x, y = lattice_xy(2 * row(n) - 2, 2 * column(n))
        out.append(_text(x + 10, y + 10, str(n), 11, extra=HALO))
    return out


def _strip_box(strip: str, index: int) -> tuple[float, float, float, float]:
    """(x, y, w, h) of box ``index`` of the ``dozen`` or ``chance`` strip."""
    rows_per_box = 4 if strip == "dozen" else 2
    x, y = lattice_xy(2 * rows_per_box * index, 0)
    if strip == "chance":
        y += STRIP_H
    return x, y, rows_per_box * CELL_W, STRIP_H


@cache
def _strips(lang: str) -> tuple[str, ...]:
    """The dozens and the simple chances, labelled in ``lang`` (the chances in capitals,
    as printed on the cloth)."""
    dozens, chances = layout_labels(lang)
    out = []
    for strip, labels in (("dozen", dozens), ("chance", tuple(c.upper() for c in chances))):
        for i, label in enumerate(labels):
            x, y, w, h = _strip_box(strip, i)
            out.append(_rect(x, y, w, h, "#2d6a4f", f' data-box="{strip}-{i}"'))
            out.append(_text(x + w * LABEL_AT, y + h / 2, label, 14))
    return tuple(out)


@cache  # a layout has a few hundred positions
def chip_xy(p: Position) -> tuple[float, float]:
    """Where the chip of a position is drawn."""
    s = spot(p)
    if s is not None:
        return lattice_xy(s.along, s.across)
    outside = slot(p)
    assert outside is not None, p
    box, between = divmod(outside.half, 2)
    if outside.strip == "column":
        x, y = lattice_xy(25, outside.half + 1)
        return x, y
    x, y, w, h = _strip_box(outside.strip, box)
    return (x + w if between else x + w * CHIP_AT), y + h / 2


@lru_cache(maxsize=4096)
def _chip(p: Position, amount: int) -> str:
    x, y = chip_xy(p)
    return (
        f'<g class="chip" data-kind="{p.kind.value}" '
        f'data-numbers="{"-".join(map(str, p.numbers))}" data-amount="{amount}">'
        f'<circle cx="{x:g}" cy="{y:g}" r="{CHIP_R}" fill="#f1c40f" stroke="#7d6608" '
        f'stroke-width="2"/>{_text(x, y, str(amount), 11, "#1c1c1c")}</g>'
    )


def _chips(amounts: dict[Position, int]) -> list[str]:
    return [_chip(p, amount) for p, amount in sorted(amounts.items())]


@lru_cache(maxsize=256)
def _wheel(lit: frozenset[int]) -> tuple[str, ...]:
    out = [f'<circle cx="{WHEEL_CX}" cy="{WHEEL_CY}" r="{WHEEL_R + 6}" fill="#5d4037"/>']
    step = 2 * math.pi / len(WHEEL)
    for i, n in enumerate(WHEEL):
        a0, a1 = (i - 0.5) * step - math.pi / 2, (i + 0.5) * step - math.pi / 2
        r_in = WHEEL_R * 0.62
        pts = [
            (WHEEL_CX + r * math.cos(a), WHEEL_CY + r * math.sin(a))
            for r, a in ((WHEEL_R, a0), (WHEEL_R, a1), (r_in, a1), (r_in, a0))
        ]
        d = (
            f"M{pts[0][0]:.1f},{pts[0][1]:.1f} A{WHEEL_R},{WHEEL_R} 0 0 1 "
            f"{pts[1][0]:.1f},{pts[1][1]:.1f} L{pts[2][0]:.1f},{pts[2][1]:.1f} "
            f"A{r_in:.1f},{r_in:.1f} 0 0 0 {pts[3][0]:.1f},{pts[3][1]:.1f} Z"
        )
        cls = "pocket covered" if n in lit else "pocket"
        stroke = ' stroke="#f1c40f" stroke-width="3"' if n in lit else ' stroke="#d7ccc8"'
        opacity = "" if n in lit or not lit else ' fill-opacity="0.35"'
        out.append(
            f'<path class="{cls}" data-number="{n}" d="{d}" fill="{_colour(n)}"{stroke}{opacity}/>'
        )
        mid, r_text = i * step - math.pi / 2, WHEEL_R * 0.81
        tx, ty = WHEEL_CX + r_text * math.cos(mid), WHEEL_CY + r_text * math.sin(mid)
        out.append(_text(tx, ty, str(n), 11))
    out.append(f'<circle cx="{WHEEL_CX}" cy="{WHEEL_CY}" r="{WHEEL_R * 0.6:.1f}" fill="#8d6e63"/>')
    return tuple(out)


def svg(chips: Iterable[tuple[Position, int]], title: str = "", lang: str = "fr") -> str:
    """The layout and the wheel with these chips (position, amount) as an SVG document,
    its boxes labelled in ``lang``."""
    amounts: dict[Position, int] = {}
    for p, amount in chips:
        amounts[p] = amounts.get(p, 0) + amount
    lit = covered(list(amounts))
    straights = frozenset(p.numbers[0] for p in amounts if p.kind is BetKind.STRAIGHT)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}">',
        f"<title>{escape(title, quote=False)}</title>",
        _rect(0, 0, WIDTH, HEIGHT, "#14532d"),
        *_numbers(straights),
        *_strips(lang),
        *_chips(amounts),
        *_corner_labels(straights),
        *_wheel(lit),
        _text(LEFT, 24, title, 16, anchor="start"),
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


def announcement_svg(announcement: Announcement, title: str, lang: str = "fr") -> str:
    """The picture of an announcement's chips."""
    chips = [(p.position, p.amount) for c in announcement.calls for p in c.placements]
    return svg(chips, title, lang)
