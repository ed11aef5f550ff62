"""Parser benchmark: cold start of `callbets parse`, in-process parse rate and the rate of
lines through `callbets parse --jsonl`, per language.

Reports rates and ratios, not pass/fail timings.  Run: python bench/parse_bench.py

`--against CHECKOUT` times another checkout (a git worktree of an older commit, say) on
the same announcements, alternating runs of the two, and prints medians and ratios: the
machine's speed varies from day to day, so only runs side by side compare versions.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from callbets import AnnouncementError, parse

ROOT = Path(os.environ.get("CALLBETS_BENCH_CORPUS_ROOT", Path(__file__).resolve().parent.parent))
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
    for text in texts:  # the grammar loaded and its caches warm
        with contextlib.suppress(AnnouncementError):
            parse(text, lang)
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


def figures() -> dict[str, dict[str, float]]:
    """Cold start, parses/s and --jsonl lines/s per language, for the code on sys.path."""
    out = {}
    for lang, texts in announcements().items():
        cold = cold_start(lang)
        out[lang] = {
            "cold": cold,
            "rate": rate(lang, texts),
            "jsonl": jsonl_rate(lang, texts, cold),
            "count": len(texts),
        }
    return out


def figures_of(checkout: Path) -> dict[str, dict[str, float]]:
    """:func:`figures` for the callbets of another checkout, on this checkout's corpus."""
    env = {**os.environ, "PYTHONPATH": str(checkout), "CALLBETS_BENCH_CORPUS_ROOT": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # each start reads compiled sources, as installed
    proc = subprocess.run(
        [sys.executable, __file__, "--json"], env=env, capture_output=True, text=True, check=True
    )
    result: dict[str, dict[str, float]] = json.loads(proc.stdout)
    return result


def compare(other: Path, rounds: int) -> None:
    """Alternate runs of this checkout and ``other``; print medians and ratios."""
    runs: dict[str, list[dict[str, dict[str, float]]]] = {"this": [], "other": []}
    for n in range(rounds):
        for name, checkout in (("other", other), ("this", ROOT)):
            runs[name].append(figures_of(checkout))
            print(f"round {n + 1}/{rounds}: {name} done", file=sys.stderr, flush=True)
    print(f"medians of {rounds} alternating runs; this = {ROOT}, other = {other}")
    print("lang  measure           other     this  this/other")
    for lang in runs["this"][0]:
        for key, label in (
            ("cold", "cold start (s)"),
            ("rate", "parses/s"),
            ("jsonl", "--jsonl lines/s"),
        ):
            a = statistics.median(r[lang][key] for r in runs["other"])
            b = statistics.median(r[lang][key] for r in runs["this"])
            better = a / b if key == "cold" else b / a  # > 1: this checkout is faster
            print(f"{lang:4}  {label:15} {a:8.3f} {b:8.3f}  {better:8.2f}x faster")


def main() -> None:
    """Print one line per language (or compare with another checkout)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--against", metavar="CHECKOUT", type=Path,
        help="also time another checkout, alternating runs, and print ratios",
    )  # fmt: skip
    ap.add_argument("--rounds", type=int, default=3, help="alternating runs (default 3)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    if args.against:
        compare(args.against.resolve(), args.rounds)
        return
    if args.json:
        print(json.dumps(figures()))
        return
    print("lang  cold start (s)  parses/s  --jsonl lines/s  announcements")
    for lang, f in figures().items():
        print(
            f"{lang:4}  {f['cold']:14.3f}  {f['rate']:8.0f}  {f['jsonl']:15.0f}  {f['count']:13.0f}"
        )


if __name__ == "__main__":
    main()
