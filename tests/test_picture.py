"""The pictures of the chips: the tableau geometry, the text drawing and the SVG."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from callbets.language.parse import parse
from callbets.pictures.drawing import CHIP, draw
from callbets.pictures.svg import svg
from callbets.roulette.layout import (
    INSIDE,
    WHEEL,
    BetKind,
    Position,
    column_bet,
    dozen,
    from_pair,
    inside,
    simple_chance,
    straight,
    two_columns,
    two_dozens,
)
from callbets.roulette.tableau import covered, spot

NS = {"s": "http://www.w3.org/2000/svg"}
Box = tuple[float, float, float, float]  # x0, y0, x1, y1


# ---- geometry ---------------------------------------------------------------------
def test_every_inside_position_has_its_own_spot() -> None:
    spots = {p: spot(p) for p in INSIDE.values()}
    assert None not in spots.values()
    assert len(set(spots.values())) == len(spots) == 145


def test_outside_positions_have_no_grid_spot() -> None:
    for p in (dozen(1), column_bet(2), two_dozens(1), simple_chance(BetKind.RED)):
        assert spot(p) is None


# ---- the SVG ----------------------------------------------------------------------
def _picture(chips: list[tuple[Position, int]]) -> ET.Element:
    return ET.fromstring(svg(chips, "test"))  # raises on invalid XML


def _boxes(root: ET.Element, attr: str) -> dict[str, Box]:
    out = {}
    for r in root.iterfind(f".//s:rect[@{attr}]", NS):
        x, y = float(r.get("x", 0)), float(r.get("y", 0))
        w, h = float(r.get("width", 0)), float(r.get("height", 0))
        out[r.get(attr, "")] = (x, y, x + w, y + h)
    return out


def _chip(root: ET.Element) -> tuple[float, float]:
    (group,) = root.iterfind(".//s:g[@class='chip']", NS)
    circle = group.find("s:circle", NS)
    assert circle is not None
    return float(circle.get("cx", 0)), float(circle.get("cy", 0))


def _meet(boxes: list[Box]) -> Box:
    """Where closed rectangles all meet: a box, a segment or a point."""
    x0, y0 = max(b[0] for b in boxes), max(b[1] for b in boxes)
    x1, y1 = min(b[2] for b in boxes), min(b[3] for b in boxes)
    assert x0 <= x1 and y0 <= y1, "the rectangles do not meet"
    return x0, y0, x1, y1


def _middle(b: Box) -> tuple[float, float]:
    return (b[0] + b[2]) / 2, (b[1] + b[3]) / 2


def _drawn(p: Position) -> tuple[tuple[float, float], dict[str, Box], dict[str, Box]]:
    root = _picture([(p, 5)])
    return _chip(root), _boxes(root, "data-number"), _boxes(root, "data-box")


@pytest.mark.parametrize(
    "position",
    [straight(17), straight(0), from_pair(17, 18), from_pair(17, 20), from_pair(0, 2),
     from_pair(25, 29), from_pair(1, 5), inside((0, 1, 2)), inside((0, 2, 3))],
    ids=str,
)  # fmt: skip
def test_chip_where_its_numbers_meet(position: Position) -> None:
    """Straight in the middle, split on the line, corner and trios on the crossing."""
    chip, numbers, _ = _drawn(position)
    assert chip == pytest.approx(_middle(_meet([numbers[str(n)] for n in position.numbers])))


def test_street_sits_on_the_outer_edge_of_its_row() -> None:
    chip, numbers, _ = _drawn(from_pair(16, 18))
    row_box = numbers["16"]  # column 34 holds the outer edge
    assert chip == pytest.approx(((row_box[0] + row_box[2]) / 2, row_box[3]))
    assert all(numbers[n][3] < row_box[3] for n in ("17", "18"))


def test_sixline_sits_on_the_outer_edge_between_its_rows() -> None:
    chip, numbers, _ = _drawn(from_pair(13, 18))
    line = _meet([numbers["13"], numbers["16"]])
    assert chip == pytest.approx((line[0], line[3]))
    assert line[3] == max(b[3] for b in numbers.values() if b is not numbers["0"])


def test_first_four_sits_where_the_outer_edge_crosses_the_zero_line() -> None:
    chip, numbers, _ = _drawn(inside((0, 1, 2, 3)))
    zero_line = _meet([numbers["0"], numbers["1"]])
    assert chip == pytest.approx((zero_line[0], zero_line[3]))


@pytest.mark.parametrize(
    ("position", "box"),
    [(dozen(2), "dozen-1"), (column_bet(1), "column-0"), (column_bet(3), "column-2"),
     (simple_chance(BetKind.RED), "chance-2"), (simple_chance(BetKind.HIGH), "chance-5"),
     (simple_chance(BetKind.LOW), "chance-0")],
    ids=str,
)  # fmt: skip
def test_outside_chip_inside_its_box(position: Position, box: str) -> None:
    chip, _, boxes = _drawn(position)
    x0, y0, x1, y1 = boxes[box]
    assert x0 < chip[0] < x1 and y0 < chip[1] < y1
    others = [b for name, b in boxes.items() if name != box]
    assert not any(b[0] < chip[0] < b[2] and b[1] < chip[1] < b[3] for b in others)


def test_column_box_lies_beside_its_column() -> None:
    _, numbers, boxes = _drawn(column_bet(1))
    x0, y0, _, y1 = boxes["column-0"]
    assert (y0, y1) == (numbers["34"][1], numbers["34"][3]) and x0 == numbers["34"][2]


@pytest.mark.parametrize(
    ("position", "a", "b"),
    [(two_dozens(1), "dozen-0", "dozen-1"), (two_columns(2), "column-1", "column-2")],
    ids=str,
)
def test_two_dozens_or_columns_sit_on_the_line_between(position: Position, a: str, b: str) -> None:
    chip, _, boxes = _drawn(position)
    assert chip == pytest.approx(_middle(_meet([boxes[a], boxes[b]])))


def _lit(root: ET.Element) -> set[int]:
    return {
        int(p.get("data-number", -1))
        for p in root.iterfind(".//s:path", NS)
        if "covered" in (p.get("class") or "").split()
    }


def test_wheel_highlights_the_voisins_numbers() -> None:
    a = parse("voisins du zéro à 5", "fr")
    root = _picture([(p.position, p.amount) for c in a.calls for p in c.placements])
    voisins = {0, 2, 3, 4, 7, 12, 15, 18, 19, 21, 22, 25, 26, 28, 29, 32, 35}  # rules.md 3.1
    assert _lit(root) == voisins
    pockets = [int(p.get("data-number", -1)) for p in root.iterfind(".//s:path", NS)]
    assert tuple(pockets) == WHEEL


@pytest.mark.parametrize(
    ("text", "lang"),
    [("le 17 et les voisins par 10", "fr"), ("finale 8/9 à 2", "fr"),
     ("orfanelli da 1", "it"), ("red at 10 and twenty-nine at 5", "en")],
)  # fmt: skip
def test_wheel_highlights_what_the_call_covers(text: str, lang: str) -> None:
    a = parse(text, lang)
    positions = [p.position for c in a.calls for p in c.placements]
    root = _picture([(p, 1) for p in positions])
    assert _lit(root) == covered(positions)
    assert len(list(root.iterfind(".//s:g[@class='chip']", NS))) == len(set(positions))


def test_chips_on_one_position_add_up() -> None:
    root = _picture([(straight(2), 2), (straight(2), 5)])
    (group,) = root.iterfind(".//s:g[@class='chip']", NS)
    assert group.get("data-amount") == "7"


def _parse_svg(out: Path, text: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "callbets", "parse", "--svg", str(out), text],
        capture_output=True, text=True, check=False,
    )  # fmt: skip


def test_parse_svg_writes_the_picture(tmp_path: Path) -> None:
    out = tmp_path / "v.svg"
    run = _parse_svg(out, "voisins du zéro à 5")
    assert run.returncode == 0, run.stderr
    assert "voisins du zéro, 9 pièces à 5 = 45" in run.stdout
    root = ET.parse(out).getroot()
    chips = {g.get("data-numbers"): g.get("data-amount") for g in root.iter(f"{{{NS['s']}}}g")}
    assert chips["0-2-3"] == "10" and chips["25-26-28-29"] == "10" and chips["4-7"] == "5"


def test_parse_svg_writes_nothing_for_a_refused_announcement(tmp_path: Path) -> None:
    out = tmp_path / "v.svg"
    run = _parse_svg(out, "cheval 5/9 à 5")
    assert run.returncode == 1 and not out.exists()


# ---- the text drawing -------------------------------------------------------------
def _marks(lines: list[str]) -> set[tuple[int, int]]:
    return {(r, c) for r, line in enumerate(lines) for c, ch in enumerate(line) if ch in CHIP + "["}


def test_empty_layout_has_no_marks() -> None:
    lines = draw([])
    assert not _marks(lines)
    assert len(lines) == 11 and max(map(len, lines)) <= 80


def test_each_inside_position_marks_its_own_place() -> None:
    empty = draw([])
    seen: dict[tuple[int, int], Position] = {}
    for p in INSIDE.values():
        lines = draw([p])
        changed = {
            (r, c) for r, (a, b) in enumerate(zip(empty, lines, strict=True))
            for c, (x, y) in enumerate(zip(a.ljust(80), b.ljust(80), strict=True)) if x != y
        }  # fmt: skip
        assert changed, p
        first = min(changed)
        assert first not in seen, (p, seen.get(first))
        seen[first] = p


def test_drawing_marks_straights_lines_and_boxes() -> None:
    lines = draw(
        [straight(17), from_pair(0, 2), dozen(2), simple_chance(BetKind.RED), column_bet(1)]
    )
    text = "\n".join(lines)
    assert "[17]" in text and "[M12]" in text and "[rouge]" in text and "[col]" in text
    zero_row = next(line for line in lines if " 0 " in line or "[0]" in line)
    assert zero_row.startswith("│ 0 " + CHIP + "  2 ")
    assert "[34]" not in text and "[P12]" not in text


def test_street_and_sixline_marks_are_on_the_outer_edge() -> None:
    street, sixline = draw([from_pair(16, 18)]), draw([from_pair(13, 18)])
    assert CHIP in street[6] and CHIP in sixline[6]  # the line under column 34
    assert street[6].index(CHIP) > sixline[6].index(CHIP)  # in the row, not between rows


def test_the_readme_picture_is_current() -> None:
    """The documentation shows docs/pictures/layout.svg; it must be what callbets draws."""
    text = "voisins du zéro à 5, le 17 et les voisins à 2, sixain 31/36 à 5, rouge à 10"
    a = parse(text, "fr")
    drawn = svg([(p.position, p.amount) for c in a.calls for p in c.placements], text)
    shown = Path(__file__).parent.parent / "docs" / "pictures" / "layout.svg"
    assert shown.read_text(encoding="utf-8") == drawn, (
        f"regenerate it: callbets parse --lang fr --svg {shown} '{text}'"
    )


@pytest.mark.parametrize(("lang", "word", "not_there"),
                         [("en", "1st 12", "MANQUE"), ("it", "DISPARI", "IMPAIR"),
                          ("es", "FALTA", "MANQUE"), ("fr", "MANQUE", "FALTA")])  # fmt: skip
def test_the_layouts_boxes_are_labelled_in_the_tables_language(lang, word, not_there):
    """The console's drawing and the SVG said MANQUE, PAIR, P12 at every table (issue 42)."""
    from callbets.pictures.drawing import draw
    from callbets.pictures.svg import svg
    from callbets.roulette.layout import straight

    drawn = "\n".join(draw([straight(17)], lang)).upper()
    picture = svg([(straight(17), 5)], "t", lang)
    assert word.upper() in drawn and word in picture
    assert not_there not in drawn.upper() and not_there not in picture
