"""Parser benchmark: cold start of `callbets parse`, in-process parse rate and the rate of
lines through `callbets parse --jsonl`, per language.

Reports rates and ratios, not pass/fail timings.  Run: python bench/parse_bench.py

Every announcement is read once per pass, each one new to the parser: the parser keeps
what it has read (a table hears the same phrasings all evening), so the same lines fed
again would time that memory, not the parser.  The lines are the project's corpus, the
shared sample and the phrasing sets (`bench/phrasings`), each distinct line once.

`--against CHECKOUT` times another checkout (a git worktree of an older commit, say) on
the same announcements, the two taking turns, and prints medians and the median of the
paired ratios: the machine's speed varies from day to day and minute to minute, so only
runs side by side compare versions.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from callbets import AnnouncementError, parse
from callbets.language import parse as parse_module
from callbets.language.grammar import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
CORPUS = sorted((ROOT / "tests" / "corpus").glob("*.jsonl"))
PHRASINGS = sorted((ROOT / "bench" / "phrasings").glob("*.jsonl"))
SAMPLE = ROOT.parent / "shared" / "corpus" / "sample.jsonl"


def announcements(known: Path = ROOT) -> dict[str, list[str]]:
    """Typical announcements per language, from the project's corpus and the shared sample
    (the languages ``known`` has a grammar for: another checkout may have fewer)."""
    langs = sorted(p.stem for p in (known / "grammar").glob("*.lark") if p.stem != "shared")
    texts: dict[str, list[str]] = {lang: [] for lang in LANGUAGES if lang in langs}
    for path in [*CORPUS, SAMPLE, *PHRASINGS]:
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    case = json.loads(line)
                    if case["lang"] in texts:
                        texts[case["lang"]].append(case["text"])
    return {lang: list(dict.fromkeys(said)) for lang, said in texts.items()}


def forget_parsed() -> None:
    """Empty the parser's memory of what it has read, so that the next pass times reading."""
    kept = getattr(parse_module, "_parse_cached", None)  # absent in an older checkout
    if kept is not None:
        kept.cache_clear()


def cold_start(lang: str, runs: int = 5) -> float:
    """Median seconds for a fresh `python -m callbets parse` of one announcement."""
    args = ["parse", "--lang", lang, "--json", "tiers à 5"]
    return statistics.median(_timed(ROOT, args) for _ in range(runs))


def rate(lang: str, texts: list[str], seconds: float = 2.0) -> float:
    """Announcements parsed per second, in process, on one core (grammar already loaded),
    each new to the parser."""
    for text in texts:  # the grammar loaded and the number words' caches warm
        with contextlib.suppress(AnnouncementError):
            parse(text, lang)
    done, took = 0, 0.0
    while took < seconds:
        forget_parsed()
        start = time.perf_counter()
        for text in texts:
            with contextlib.suppress(AnnouncementError):
                parse(text, lang)
        took += time.perf_counter() - start
        done += len(texts)
    return done / took


def jsonl_rate(lang: str, texts: list[str], cold: float) -> float:
    """Lines per second through one `callbets parse --jsonl` process, each line once, its
    start-up (the cold start of one announcement) taken out."""
    took = _timed(ROOT, ["parse", "--jsonl", "--lang", lang], _feed(texts))
    return len(texts) / max(took - cold, 1e-9)


def _feed(texts: list[str]) -> bytes:
    return ("\n".join(texts) + "\n").encode()


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


WORKER = """
import contextlib, json, sys, time
from callbets import AnnouncementError, parse
from callbets.language import parse as parse_module
with open(sys.argv[1], encoding="utf-8") as said:
    texts = json.load(said)
def one(lang):
    kept = getattr(parse_module, "_parse_cached", None)
    if kept is not None:
        kept.cache_clear()
    for text in texts[lang]:
        with contextlib.suppress(AnnouncementError):
            parse(text, lang)
for lang in texts:
    one(lang)
print("ready", flush=True)
for lang in sys.stdin:
    start = time.perf_counter()
    one(lang.strip())
    print(time.perf_counter() - start, flush=True)
"""
"""A process that parses one language's announcements each time it is asked, and says
how long it took: two of them, one per checkout, take turns."""


def _env(checkout: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # each start reads compiled sources, as installed
    return env


def _timed(checkout: Path, args: list[str], feed: bytes | None = None) -> float:
    """Seconds for one ``python -m callbets`` of ``checkout`` (run from its folder, so
    that it is that checkout's callbets that starts)."""
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "callbets", *args], input=feed, capture_output=True,
        check=False, cwd=checkout, env=_env(checkout),
    )  # fmt: skip
    return time.perf_counter() - start


def compare(other: Path, rounds: int) -> None:
    """Take turns between this checkout and ``other`` (the first to go alternates), on
    this checkout's announcements; print medians and the median of the paired ratios."""
    texts = announcements(other)
    # a file: the announcements outgrew one argument (128 KB)
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8", delete=False) as kept:
        json.dump(texts, kept)
    workers = {
        name: subprocess.Popen(
            [sys.executable, "-c", WORKER, kept.name],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=checkout,
            env=_env(checkout),
        )
        for name, checkout in (("other", other), ("this", ROOT))
    }
    for worker in workers.values():
        assert worker.stdout is not None and worker.stdout.readline().strip() == "ready"
    os.unlink(kept.name)  # both have read it
    seen: dict[tuple[str, str, str], list[float]] = {}
    for n in range(rounds):
        order = [("other", other), ("this", ROOT)][:: 1 if n % 2 == 0 else -1]
        for lang, said in texts.items():
            feed = _feed(said)
            for name, checkout in order:
                worker = workers[name]
                assert worker.stdin is not None and worker.stdout is not None
                worker.stdin.write(lang + "\n")
                worker.stdin.flush()
                parsed = len(said) / float(worker.stdout.readline())
                cold = _timed(checkout, ["parse", "--lang", lang, "--json", "tiers à 5"])
                lines = len(said) / max(
                    _timed(checkout, ["parse", "--jsonl", "--lang", lang], feed) - cold, 1e-9
                )
                for key, value in (("cold", cold), ("rate", parsed), ("jsonl", lines)):
                    seen.setdefault((name, lang, key), []).append(value)
        print(f"round {n + 1}/{rounds} done", file=sys.stderr, flush=True)
    for worker in workers.values():
        worker.terminate()
    _print_comparison(seen, texts, other, rounds)


def _print_comparison(
    seen: dict[tuple[str, str, str], list[float]], texts: dict[str, list[str]],
    other: Path, rounds: int,
) -> None:  # fmt: skip
    print(f"{rounds} rounds taking turns; this = {ROOT}, other = {other}")
    print("lang  measure            other      this   this is (median of paired ratios)")
    for lang in texts:
        for key, label in (
            ("cold", "cold start (s)"),
            ("rate", "parses/s"),
            ("jsonl", "--jsonl lines/s"),
        ):
            a, b = seen[("other", lang, key)], seen[("this", lang, key)]
            pairs = [x / y if key == "cold" else y / x for x, y in zip(a, b, strict=True)]
            print(
                f"{lang:4}  {label:15} {statistics.median(a):9.3f} {statistics.median(b):9.3f}"
                f"   {statistics.median(pairs):.2f}x as fast"
            )


def main() -> None:
    """Print one line per language (or compare with another checkout)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--against", metavar="CHECKOUT", type=Path,
        help="also time another checkout, taking turns with this one, and print ratios",
    )  # fmt: skip
    ap.add_argument("--rounds", type=int, default=7, help="turns each (default 7)")
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
