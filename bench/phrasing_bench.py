"""Phrasings written by people who never read the grammar: how many the parser places
exactly, and whether any becomes a wrong bet.

Each set in ``bench/phrasings/`` was written from rules.md and the seeds only (never the
grammar or the corpus), a quarter of it must-refuse, each line with its chips (the
``check_corpus.py`` format).  ``set1`` was written before the fixes of issue 20 and used
to find their causes; ``set2`` after them, and was not looked at while fixing: its figure
is the honest one.  Run: python bench/phrasing_bench.py
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

from callbets import Announcement, AnnouncementError, parse

HERE = Path(__file__).resolve().parent / "phrasings"

Chips = dict[tuple[int, ...], int]


def chips(announcement: Announcement) -> Chips:
    """Every position's total, merged by its numbers."""
    out: Chips = defaultdict(int)
    for call in announcement.calls:
        for p in call.placements:
            out[tuple(p.position.numbers)] += p.amount
    return dict(out)


def outcome(case: dict[str, object]) -> str:
    """``exact``, ``refused`` (a valid bet refused or asked about), ``wrong`` (other
    chips) or ``placed`` (a must-refuse case placed)."""
    expect = case["expect"]
    try:
        got: Chips | None = chips(parse(str(case["text"]), str(case["lang"])))
    except AnnouncementError:
        got = None
    if expect == "reject":
        return "exact" if got is None else "placed"
    assert isinstance(expect, dict)
    want = {tuple(sorted(n)): a for n, a in expect["placements"]}
    if got is None:
        return "refused"
    return "exact" if got == want else "wrong"


def main() -> None:
    print("set   lang   cases  exact  refused  wrong  placed-must-refuse")
    for path in sorted(HERE.glob("*.jsonl")):
        counts: dict[str, Counter[str]] = defaultdict(Counter)
        for line in path.read_text(encoding="utf-8").splitlines():
            case = json.loads(line)
            result = outcome(case)
            counts[case["lang"]][result] += 1
            counts["all"][result] += 1
        for lang in [*sorted(k for k in counts if k != "all"), "all"]:
            c = counts[lang]
            n = sum(c.values())
            print(
                f"{path.stem:5} {lang:4} {n:6} {100 * c['exact'] / n:6.1f} %"
                f" {c['refused']:7} {c['wrong']:6} {c['placed']:6}"
            )


if __name__ == "__main__":
    main()
