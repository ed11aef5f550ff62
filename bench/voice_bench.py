"""Voice benchmark: PocketSphinx on the English fixtures.

Reports the real-time factor (decoding time / audio time) and the delay from the end of
the audio to the decision (recognition of the whole utterance, then parse and decide).
Run: python bench/voice_bench.py
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

from callbets.speech.audio import duration, read_wav
from callbets.speech.decide import decide
from callbets.speech.engines import PocketSphinxEngine

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "audio"


def main() -> None:
    """Print the median real-time factor and decision delay."""
    cases = [json.loads(x) for x in (FIXTURES / "manifest.jsonl").read_text().splitlines()]
    started = time.perf_counter()
    engine = PocketSphinxEngine("en")
    load = time.perf_counter() - started
    factors, delays = [], []
    for case in (c for c in cases if c["lang"] == "en"):
        pcm = read_wav(FIXTURES / case["file"])
        start = time.perf_counter()
        decide(engine.hear(pcm), "en")
        spent = time.perf_counter() - start
        delays.append(spent)
        factors.append(spent / duration(pcm))
    print(f"pocketsphinx en: engine load {load:.2f} s; {len(delays)} utterances")
    print(f"real-time factor: median {statistics.median(factors):.2f}, max {max(factors):.2f}")
    print(f"end of audio to decision: median {statistics.median(delays):.2f} s, "
          f"max {max(delays):.2f} s")  # fmt: skip


if __name__ == "__main__":
    main()
