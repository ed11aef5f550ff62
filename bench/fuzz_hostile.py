"""The long fuzz run of issue 11: many random and hostile inputs through the parser API and
the ``--jsonl`` contract, reporting rates and the worst time per kilobyte.

Run: python bench/fuzz_hostile.py [--inputs 100000] [--seed 1]
Reports figures, not pass/fail timings; exits 1 only if an input raised anything but
callbets' own errors, or a --jsonl stream did not answer every line.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from callbets import AnnouncementError, parse
from callbets.language.grammar import language

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("fr", "it", "en")


def corpus() -> list[tuple[str, str]]:
    out = []
    for path in sorted((ROOT / "tests" / "corpus").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            case = json.loads(line)
            out.append((case["lang"], case["text"]))
    return out


def generator(seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    cases = corpus()
    vocab = {lang: language(lang).lexicon.vocabulary() for lang in LANGS}
    extra = ["17", "5/8", "-", "=", "€", "×", ",", "0", "100", "9" * 12, "\x1b[31m", "\u202e"]

    def soup(lang: str) -> str:
        return " ".join(rng.choice(vocab[lang] + extra) for _ in range(rng.randrange(1, 60)))

    def mutant(lang: str) -> str:
        text = rng.choice([t for lg, t in cases if lg == lang])
        words = text.split()
        for _ in range(rng.randrange(1, 4)):
            op = rng.randrange(4)
            i = rng.randrange(len(words)) if words else 0
            if op == 0 and words:
                del words[i]
            elif op == 1 and words:
                words.insert(i, words[i])
            elif op == 2 and len(words) > 1:
                j = min(i + 1, len(words) - 1)
                words[i], words[j] = words[j], words[i]
            else:
                words.insert(i, rng.choice(vocab[lang]))
        return " ".join(words)

    def garbage(_: str) -> str:
        size = rng.choice([10, 100, 500, 2000])
        return "".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0x80, 0x3000)]))
                       for _ in range(size))  # fmt: skip

    def repeated(lang: str) -> str:
        word = rng.choice(vocab[lang] + ["trentatre", "vingt", "dix", "un", "rouge et"])
        return (word + rng.choice(["", " "])) * rng.randrange(10, 400)

    kinds = {"soup": soup, "mutant": mutant, "garbage": garbage, "repeated": repeated}
    while True:
        lang = rng.choice(LANGS)
        kind = rng.choice(list(kinds))
        yield kind, lang, kinds[kind](lang)


def run_api(n: int, seed: int) -> int:
    kinds: Counter[str] = Counter()
    outcome: Counter[str] = Counter()
    per_kb: list[float] = []
    worst = (0.0, "")
    bad = 0
    start = time.perf_counter()
    for _, (kind, lang, text) in zip(range(n), generator(seed), strict=False):
        t0 = time.perf_counter()
        try:
            parse(text, lang)
            outcome["accepted"] += 1
        except AnnouncementError as err:
            outcome[err.kind] += 1
        except Exception as err:
            bad += 1
            print(f"NOT OUR ERROR {type(err).__name__}: {err} on {text[:80]!r}")
        dt = time.perf_counter() - t0
        kinds[kind] += 1
        size = len(text.encode("utf-8"))
        if size >= 256:  # below, the fixed cost of a call dominates
            per_kb.append(dt / size * 1024)
        if dt > worst[0]:
            worst = (dt, text[:60])
    elapsed = time.perf_counter() - start
    per_kb.sort()
    print(f"API: {n} inputs in {elapsed:.1f} s ({n / elapsed:,.0f}/s); kinds {dict(kinds)}")
    print(f"     outcomes {dict(outcome)}; not callbets' own errors: {bad}")
    print(f"     time per kilobyte (inputs of 256 bytes or more): "
          f"median {statistics.median(per_kb) * 1000:.2f} ms, "
          f"p99 {per_kb[int(0.99 * len(per_kb))] * 1000:.2f} ms, max {per_kb[-1] * 1000:.1f} ms; "
          f"slowest input {worst[0] * 1000:.1f} ms ({worst[1]!r})")  # fmt: skip
    return bad


def run_stream(lines: int, seed: int) -> int:
    rng = random.Random(seed)
    chunks = []
    for _ in range(lines):
        size = rng.choice([0, 5, 30, 200, 5000])
        chunks.append(bytes(rng.randrange(256) for _ in range(size)).replace(b"\n", b" "))
    data = b"\n".join(chunks) + b"\n"
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "callbets", "parse", "--jsonl"], input=data,
                          capture_output=True, check=False)  # fmt: skip
    elapsed = time.perf_counter() - start
    out = proc.stdout.decode("utf-8").split("\n")[:-1]
    expected = sum(1 for c in chunks if c.removesuffix(b"\r").decode("utf-8", "replace").strip())
    kinds = Counter(json.loads(line).get("error", {}).get("kind", "ok") for line in out)
    print(
        f"--jsonl: {lines} random byte lines ({len(data) / 1e6:.1f} MB) in {elapsed:.1f} s, "
        f"{len(out)} answers for {expected} non-blank lines, exit {proc.returncode}, "
        f"kinds {dict(kinds)}"
    )
    return int(len(out) != expected or proc.returncode != 0 or b"Traceback" in proc.stderr)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--inputs", type=int, default=100_000)
    ap.add_argument("--lines", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    bad = run_api(args.inputs, args.seed) + run_stream(args.lines, args.seed)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
