"""Parser benchmark: cold start of `callbets parse` and in-process parse rate per language.

Reports rates and ratios, not pass/fail timings.  Run: python bench/parse_bench.py
"""

from __future__ import annotations

import contextlib
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from callbets import AnnouncementError, parse
from callbets.language.grammar import language

ROOT = Path(__file__).resolve().parent.parent
CORPUS = sorted((ROOT / "tests" / "corpus").glob("*.jsonl"))
SAMPLE = ROOT.parent / "shared" / "corpus" / "sample.jsonl"


def announcements() -> dict[str, list[str]]:
    """Typical announcements per language, from the project's corpus and the shared sample."""
    texts: dict[str, list[str]] = {"fr": [], "it": [], "en": []}
    for path in [*CORPUS, SAMPLE]:
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    case = json.loads(line)
                    texts[case["lang"]].append(case["text"])
    return texts


def cold_start(lang: str, runs: int = 5) -> float:
    """Median seconds for a fresh `python -m callbets parse` of one announcement."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "callbets", "parse", "--lang", lang, "--json", "tiers à 5"],
            capture_output=True, check=False,
        )  # fmt: skip
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def rate(lang: str, texts: list[str], seconds: float = 2.0) -> float:
    """Announcements parsed per second, in process, on one core (grammar already loaded)."""
    language(lang)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for text in texts:
            with contextlib.suppress(AnnouncementError):
                parse(text, lang)
        done += len(texts)
    return done / (time.perf_counter() - start)


def jsonl_rate(lang: str, texts: list[str], cold: float, lines: int = 5000) -> float:
    """Lines per second through one `callbets parse --jsonl` process, its start-up (the
    cold start of one announcement) taken out."""
    feed = "\n".join(texts[i % len(texts)] for i in range(lines)) + "\n"
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "callbets", "parse", "--jsonl", "--lang", lang],
        input=feed.encode(), capture_output=True, check=False,
    )  # fmt: skip
    return lines / max(time.perf_counter() - start - cold, 1e-9)


def main() -> None:
    """Print one line per language."""
    print("lang  cold start (s)  parses/s  --jsonl lines/s  announcements")
    for lang, texts in announcements().items():
        cold = cold_start(lang)
        print(
            f"{lang:4}  {cold:14.3f}  {rate(lang, texts):8.0f}  "
            f"{jsonl_rate(lang, texts, cold):15.0f}  {len(texts):13}"
        )


if __name__ == "__main__":
    main()
