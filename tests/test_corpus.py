"""The project's own corpus: every announcement with its exact chips, or its refusal."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from callbets import AnnouncementError, find_house, parse
from callbets.language.grammar import LANGUAGES

HERE = Path(__file__).resolve().parent / "corpus"
CASES = [
    json.loads(line)
    for path in sorted(HERE.glob("*.jsonl"))
    for line in path.read_text(encoding="utf-8").splitlines()
    if line.strip()
]


def test_corpus_is_large_and_covers_three_languages():
    langs = Counter(c["lang"] for c in CASES)
    assert len(CASES) >= 300 and set(langs) == set(LANGUAGES), langs
    assert sum(c["spoken"] for c in CASES) >= 60
    assert sum("refuse" in c["expect"] for c in CASES) >= 30


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['lang']}:{c['text']}")
def test_corpus_case(case):
    expect = case["expect"]
    try:
        got = parse(case["text"], case["lang"], find_house(case.get("house", "venice-french")))
    except AnnouncementError as err:
        assert "refuse" in expect, (
            f"refused ({err.kind}: {err.message}); wanted {expect['notation']}"
        )
        assert err.kind == expect["refuse"], f"{err.kind}: {err.message}"
        return
    assert "refuse" not in expect, f"accepted as {got.notation()}; wanted a refusal"
    want = {tuple(nums): amount for nums, amount in expect["placements"]}
    assert got.merged() == want, f"got {got.notation()}; wanted {expect['notation']}"
