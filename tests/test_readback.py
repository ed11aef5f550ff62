"""The readback reads back: what the croupier says back, parsed in the same language,
places exactly the same chips.  Shown for every call the catalogue can make at every
house, for the whole corpus, for announcements generated from the grammar, and for the
lines ``callbets settle`` and the console print."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from callbets import AnnouncementError, find_house, parse, parse_notation
from callbets.language.grammar import LANGUAGES
from callbets.language.readback import call_line, readback
from callbets.language.vocabulary import sample_phrases
from callbets.roulette.announcement import Announcement
from callbets.roulette.house import house_names
from callbets.roulette.layout import INSIDE

LANGS = LANGUAGES
CORPUS = Path(__file__).resolve().parent / "corpus"


def summary(a: Announcement, lang: str, house_name: str) -> str:
    """The readback without the chip lines: each call's line, then the total."""
    text = readback(a, lang, find_house(house_name))
    return "\n".join(line for line in text.splitlines() if not line.startswith(" "))


def reads_back(a: Announcement, lang: str, house_name: str) -> None:
    house = find_house(house_name)
    back = parse(summary(a, lang, house_name), lang, house)
    assert back.merged() == a.merged(), (summary(a, lang, house_name), back.notation())
    for call in a.calls:
        alone = parse(call_line(call, lang, house), lang, house)
        assert alone.merged() == Announcement("", (call,)).merged()


def catalogue() -> list[str]:
    """A notation for every kind of call with every number it takes."""
    out = [f"{p.kind.value} {'/'.join(map(str, p.numbers))}" for p in INSIDE.values()]
    out += ["red", "black", "even", "odd", "low", "high"]
    out += [f"dozen {i}" for i in (1, 2, 3)] + [f"column {i}" for i in (34, 35, 36)]
    out += ["two_dozens 1-2", "two_dozens 2-3", "two_columns 34-35", "two_columns 35-36"]
    out += ["voisins", "tiers", "orphelins", "orphelins_plein", "jeu_zero", "nassa",
            "tiers_5_8_10_11", "gioco_ferrari", "tiers_plein"]  # fmt: skip
    for n in range(37):
        out += [f"complete {n}", f"neighbours {n}"] + [f"neighbours {n} n{k}" for k in (1, 3, 4)]
    out += [f"finale_plein {d}" for d in range(10)]
    out += [f"finale_cheval {a}/{a + gap}" for a in range(10) for gap in (1, 3)]
    return [*out, "neighbours 1+9+14", "neighbours 0+32 n1"]


@pytest.mark.parametrize("house_name", house_names())
@pytest.mark.parametrize("lang", LANGS)
def test_every_call_of_the_catalogue_reads_back(lang: str, house_name: str) -> None:
    house, checked = find_house(house_name), 0
    for notation in catalogue():
        for unit in (1, 25):
            try:
                a = parse_notation(f"{notation} x{unit}", house)
            except AnnouncementError:
                continue  # not played at this house
            reads_back(a, lang, house_name)
            checked += 1
    assert checked > 400


@pytest.mark.parametrize("house_name", house_names())
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("value", ["house", 5])
def test_a_stake_said_as_a_count_of_pieces_is_read_back_as_said(
    lang: str, house_name: str, value: str | int
) -> None:
    """ "3 pièces sur le 17" is read back "3 pièces sur plein 17 = 3", not "1 pièce à 3",
    and "3 pièces de 5 sur le 17" "3 pièces de 5 sur plein 17 = 15": every call of the
    catalogue, staked by a count of pieces (of the house's value, or of a value said),
    reads back with that count, and its line, parsed again, is the same count on the same
    chips."""
    house, checked = find_house(house_name), 0
    piece = house.piece_value if value == "house" else int(value)
    for notation in catalogue():
        try:
            plain = parse_notation(f"{notation} x{piece * 2}", house).calls[0]
        except AnnouncementError:
            continue  # not played at this house
        counted = replace(plain, counted=piece)
        line = call_line(counted, lang, house)
        count = counted.total // piece
        assert line.startswith(f"{count} "), line
        assert line != call_line(plain, lang, house)
        again = parse(line, lang, house)
        assert again.merged() == Announcement("", (counted,)).merged(), line
        assert [c.counted for c in again.calls] == [piece], line
        assert call_line(again.calls[0], lang, house) == line
        checked += 1
    assert checked > 200


def _corpus() -> list[dict[str, object]]:
    return [
        json.loads(line)
        for path in sorted(CORPUS.glob("*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_every_accepted_corpus_announcement_reads_back_in_each_language(lang: str) -> None:
    checked = 0
    for case in _corpus():
        house_name = str(case.get("house", "venice-french"))
        try:
            a = parse(str(case["text"]), str(case["lang"]), find_house(house_name))
        except AnnouncementError:
            continue
        reads_back(a, lang, house_name)
        checked += 1
    assert checked > 500


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(LANGS), st.integers(0, 10_000))
def test_generated_announcements_read_back(lang: str, seed: int) -> None:
    for text in sample_phrases(lang, 3, seed):
        reads_back(parse(text, lang, find_house()), lang, "venice-french")


def test_settle_names_each_call_by_a_line_that_reads_back() -> None:
    text = "voisins du zéro à 5 et le 17 et 3 voisins à 2"
    proc = subprocess.run(
        [sys.executable, "-m", "callbets", "settle", "--spin", "26", "--lang", "fr", text],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    names = [line.strip().rsplit(":", 1)[0] for line in proc.stdout.splitlines()
             if line.startswith("  ") and not line.startswith("    ")]  # fmt: skip
    assert len(names) == 2
    back = parse(" ; ".join(names), "fr", find_house())
    assert back.merged() == parse(text, "fr", find_house()).merged()
