"""A compact text drawing of the tableau with its chips, for a terminal.

The layout is drawn as a croupier sees it from the long side of the table: the zero on
the left, the twelve rows running to the right, column 36 (3, 6 … 36) on top, and the
column boxes at the end.  Under the grid come the dozens (P12, M12, D12) and the six
simple chances in the cloth's order.  A chip is marked where :mod:`callbets.roulette.tableau`
puts it: ``[17]`` for a straight, ``●`` on a line or a crossing for a split, street,
corner or six-line, and brackets around a box for an outside bet.

>>> from callbets.roulette.layout import straight, from_pair
>>> lines = draw([straight(17), from_pair(17, 20)])
>>> print(next(line for line in lines if "[17]" in line)[:40])
│ 0 │  2 │  5 │  8 │ 11 │ 14 │[17]● 20 │
"""

from __future__ import annotations

from collections.abc import Iterable

from ..language.readback import layout_labels
from ..roulette.layout import BetKind, Position, column, row
from ..roulette.tableau import Slot, Spot, slot, spot

CHIP = "●"
FIRST_ALONG, LAST_ALONG = -2, 26
"""The zero box starts at -2; the column boxes end at 26 (see :func:`_width`)."""
GRID_LINES = 7


def _width(along: int) -> int:
    if along == -1:
        return 3  # the zero
    if along == 25:
        return 5  # the column boxes
    return 4 if along % 2 else 1


_START = {a: sum(_width(b) for b in range(FIRST_ALONG, a)) for a in range(-2, 28)}
WIDTH = _START[LAST_ALONG + 1]


def _line_of(across: int) -> int:
    return GRID_LINES - 1 - across


class _Canvas:
    """A grid of characters with box lines that join up when drawn."""

    def __init__(self, height: int) -> None:
        self.rows = [[" "] * WIDTH for _ in range(height)]

    def put(self, line: int, along: int, text: str) -> None:
        col = _START[along]
        self.rows[line][col : col + len(text)] = list(text)

    def hline(self, line: int, first: int, last: int) -> None:
        for a in range(first, last + 1):
            self.put(line, a, "─" * _width(a))

    def vline(self, along: int, top: int, bottom: int) -> None:
        for line in range(top, bottom + 1):
            self.put(line, along, "│")

    def text(self) -> list[str]:
        lines = range(len(self.rows))
        return ["".join(self._joined(r, c) for c in range(WIDTH)).rstrip() for r in lines]

    def _joined(self, r: int, c: int) -> str:
        ch = self.rows[r][c]
        if ch not in "─│":
            return ch

        def at(dr: int, dc: int) -> str:
            rr, cc = r + dr, c + dc
            if 0 <= rr < len(self.rows) and 0 <= cc < WIDTH:
                return self.rows[rr][cc]
            return " "

        up, down = at(-1, 0) in "│" + CHIP, at(1, 0) in "│" + CHIP
        left, right = at(0, -1) in "─" + CHIP, at(0, 1) in "─" + CHIP
        if ch == "─" and not (up or down):
            return ch
        if ch == "│" and not (left or right):
            return ch
        return _JUNCTIONS.get((up, down, left, right), ch)


_JUNCTIONS = {
    (True, True, True, True): "┼", (False, True, True, True): "┬",
    (True, False, True, True): "┴", (True, True, False, True): "├",
    (True, True, True, False): "┤", (False, True, False, True): "┌",
    (False, True, True, False): "┐", (True, False, False, True): "└",
    (True, False, True, False): "┘", (True, True, False, False): "│",
    (False, False, True, True): "─",
}  # fmt: skip


def _grid(c: _Canvas) -> None:
    bottom = GRID_LINES - 1
    for across in range(0, 7, 2):
        c.hline(_line_of(across), 1, 25)
    c.hline(0, -1, -1)
    c.hline(bottom, -1, -1)
    for along in (-2, *range(0, 25, 2), 26):
        c.vline(along, 0, bottom)
    c.put(_line_of(3), -1, " 0 ")
    for n in range(1, 37):
        c.put(_line_of(2 * column(n) - 1), 2 * row(n) - 1, f"{n:>3} ")
    for across in (1, 3, 5):
        c.put(_line_of(across), 25, " col ")


def _strips(c: _Canvas, dozens: tuple[str, ...], chances: tuple[str, ...]) -> None:
    bottom = GRID_LINES - 1
    c.hline(bottom + 2, 0, 24)
    c.hline(bottom + 4, 0, 24)
    for along in range(0, 25, 8):
        c.vline(along, bottom + 1, bottom + 1)
    for along in range(0, 25, 4):
        c.vline(along, bottom + 3, bottom + 3)
    for i, label in enumerate(dozens):
        _label(c, bottom + 1, 8 * i, 8, label, False)
    for i, label in enumerate(chances):
        _label(c, bottom + 3, 4 * i, 4, label, False)


def _label(c: _Canvas, line: int, first: int, span: int, label: str, chip: bool) -> None:
    start, end = _START[first + 1], _START[first + span]
    text = f"[{label}]" if chip else label
    col = start + (end - start - len(text)) // 2
    c.rows[line][col : col + len(text)] = list(text)


def _mark_spot(c: _Canvas, s: Spot, p: Position) -> None:
    line = _line_of(s.across)
    if p.kind is BetKind.STRAIGHT:  # the middle of the number
        c.put(line, s.along, f"[{p.numbers[0]}]".rjust(_width(s.along)))
    elif s.along % 2:  # on a line across a row: one chip in the middle of the segment
        c.rows[line][_START[s.along] + 1] = CHIP
    else:
        c.put(line, s.along, CHIP)


def _mark_slot(c: _Canvas, s: Slot, dozens: tuple[str, ...], chances: tuple[str, ...]) -> None:
    bottom = GRID_LINES - 1
    box, between = divmod(s.half, 2)
    if s.strip == "column":
        across = s.half + 1
        if between:
            c.rows[_line_of(across)][_START[25] + 2] = CHIP
        else:
            c.put(_line_of(across), 25, "[col]")
    elif s.strip == "dozen":
        if between:
            c.put(bottom + 1, 8 * (box + 1), CHIP)
        else:
            _label(c, bottom + 1, 8 * box, 8, dozens[box], True)
    else:
        _label(c, bottom + 3, 4 * box, 4, chances[box], True)


def draw(positions: Iterable[Position], lang: str = "fr") -> list[str]:
    """The tableau as lines of text, with a mark wherever one of the positions has a chip
    (its outside boxes labelled in ``lang``)."""
    dozens, chances = layout_labels(lang)
    c = _Canvas(GRID_LINES + 4)
    _grid(c)
    _strips(c, dozens, chances)
    for p in sorted(set(positions)):
        s = spot(p)
        if s is not None:
            _mark_spot(c, s, p)
            continue
        outside = slot(p)
        assert outside is not None, p
        _mark_slot(c, outside, dozens, chances)
    return c.text()
