"""Build the corpus files (tests/corpus/<lang>.jsonl) from the authored cases.txt.

cases.txt holds ``lang | text | expected`` lines, where expected is the canonical notation
decided by reading rules.md (``neighbours 17 x10 ; tiers x5``) or ``REFUSE:<kind>``, and an
optional fourth field names the house when it is not the default (``| france``).  This
script writes every case with its exact chips (merged by number set, like the shared
sample) so that the corpus states chips, not notation.  Run it after editing cases.txt.
"""

from __future__ import annotations

import json
from pathlib import Path

from callbets import find_house, parse_notation
from callbets.roulette.house import DEFAULT_HOUSE

HERE = Path(__file__).resolve().parent


def cases() -> list[tuple[str, str, str, str]]:
    """(lang, text, expected, house) for each line of cases.txt."""
    out = []
    for line in (HERE / "cases.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            lang, text, expected, *house = (part.strip() for part in line.split("|", 3))
            out.append((lang, text, expected, house[0] if house else DEFAULT_HOUSE))
    return out


def expectation(expected: str, house: str = DEFAULT_HOUSE) -> object:
    """The corpus ``expect`` object for an expected notation or refusal."""
    if expected.startswith("REFUSE:"):
        return {"refuse": expected.removeprefix("REFUSE:")}
    merged = parse_notation(expected, find_house(house)).merged()
    return {"notation": expected, "placements": [[list(k), v] for k, v in sorted(merged.items())]}


def main() -> None:
    """Write one JSONL file per language."""
    by_lang: dict[str, list[str]] = {}
    for lang, text, expected, house in cases():
        spoken = text == text.lower() and not any(c.isdigit() or c in ",/-" for c in text)
        case = {
            "lang": lang,
            "text": text,
            "spoken": spoken,
            "expect": expectation(expected, house),
        }
        if house != DEFAULT_HOUSE:
            case["house"] = house
        by_lang.setdefault(lang, []).append(json.dumps(case, ensure_ascii=False))
    for lang, lines in by_lang.items():
        (HERE / f"{lang}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{lang}: {len(lines)} cases")


if __name__ == "__main__":
    main()
