"""PocketSphinx, Whisper led through the grammar, and the two together, on one split.

Each file is heard as ``callbets transcribe`` hears a file: PocketSphinx learns the
recording's cepstral mean, then decodes it; Whisper hears it whole
(:mod:`callbets.speech.engines.whisper`); :func:`~callbets.speech.engines.whisper.together`
puts the two readings together.  For each, the first reading exact and the wrong bets
accepted unasked, by condition and voice family, and Whisper's compute per file.

    python bench/whisper_bench.py SPLIT_FOLDER [--conditions clean,pink15] [--voices festival]

``CALLBETS_BENCH_CROUPIER=NAME`` hears with an enrolled croupier's PocketSphinx model (to
score a model adapted without a family on that family: bench/voice_families.py).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from callbets import find_house, parse_notation
from callbets.speech.audio import read_wav
from callbets.speech.decide import decide
from callbets.speech.denoise import RoomMeter
from callbets.speech.engines import Candidate, Hearing, hear_whole
from callbets.speech.engines.sphinx import PocketSphinxEngine
from callbets.speech.engines.whisper import WhisperEngine, together

WAYS = ("pocketsphinx", "whisper", "together")


def score(hearing: Hearing, lang: str, want: dict[tuple[int, ...], int]) -> tuple[bool, bool]:
    """(first reading exact, a wrong bet accepted unasked)."""
    decision = decide(hearing, lang)
    right = decision.chosen is not None and decision.chosen.merged() == want
    return right, decision.kind == "accept" and not right


def margin_of(pcm: bytes) -> float | None:
    """How far the recording's loud frames stand above its quiet ones (dB): the noise
    suppression's measure of a noisy room (:class:`~callbets.speech.denoise.RoomMeter`)."""
    meter = RoomMeter()
    meter.feed(np.frombuffer(pcm[: len(pcm) - len(pcm) % 2], np.int16))
    margin = meter.margin()
    return None if margin is None else round(float(margin), 1)


def as_json(hearing: Hearing) -> dict[str, Any]:
    """A hearing as the dump keeps it (``hearing_of`` reads it back), to try other ways
    of putting the two together without hearing the files again."""
    return {"engine": hearing.engine, "second_look": hearing.second_look,
            "candidates": [[c.text, float(c.score), [[w, float(p)] for w, p in c.words]]
                           for c in hearing.candidates]}  # fmt: skip


def hearing_of(data: dict[str, Any]) -> Hearing:
    """A hearing from the dump."""
    candidates = tuple(Candidate(t, s, tuple((w, c) for w, c in words))
                       for t, s, words in data["candidates"])  # fmt: skip
    return Hearing(candidates, data["engine"], second_look=data["second_look"])


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--conditions", default="clean,pink15")
    ap.add_argument("--voices", default="", help="comma-separated voice name prefixes")
    ap.add_argument("--dump", type=Path, help="write every file's result here (JSON lines)")
    args = ap.parse_args()
    items = [json.loads(x) for x in (args.folder / "manifest.jsonl").read_text().splitlines()]
    conditions = args.conditions.split(",")
    voices = tuple(args.voices.split(",")) if args.voices else ("",)
    items = [i for i in items if i["condition"] in conditions and i["voice"].startswith(voices)]
    if not items:
        print("no files", file=sys.stderr)
        return 2
    lang = items[0]["lang"]
    croupier = os.environ.get("CALLBETS_BENCH_CROUPIER") or None
    engine = WhisperEngine(lang, croupier)
    stream: PocketSphinxEngine = engine.stream
    results: list[dict[str, Any]] = []
    for item in items:
        pcm = read_wav(args.folder / item["audio"])
        want = parse_notation(item["expect"], find_house()).merged()
        stream.learn(pcm)
        streamed = hear_whole(stream, pcm)
        start = time.perf_counter()
        led = engine.hear(pcm)
        spent = time.perf_counter() - start
        row: dict[str, Any] = {"id": item["id"], "voice": item["voice"]}
        row.update(condition=item["condition"], whisper_seconds=spent, margin=margin_of(pcm))
        for way, hearing in zip(WAYS, (streamed, led, together(streamed, led)), strict=True):
            row[way], row[f"{way}_wrong"] = score(hearing, lang, want)
        row["hearings"] = [as_json(streamed), as_json(led)]
        row["want"] = item["expect"]
        results.append(row)
    if args.dump:
        args.dump.write_text("".join(json.dumps(r) + "\n" for r in results))
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in results:
        family = r["voice"].split(":")[0]
        groups[f"{r['condition']} {family}"].append(r)
        groups[r["condition"]].append(r)
    groups["all"] = results
    print(f"{lang} {args.folder}: first readings exact (wrong accepted unasked)")
    print(f"{'':18} {'files':>5} " + " ".join(f"{w:>16}" for w in WAYS) + "  whisper s/file")
    for name in sorted(groups, key=lambda g: (g == "all", g)):
        rs = groups[name]
        cells = [f"{sum(r[w] for r in rs) / len(rs):9.0%} ({sum(r[w + '_wrong'] for r in rs)})"
                 for w in WAYS]  # fmt: skip
        mean = sum(r["whisper_seconds"] for r in rs) / len(rs)
        print(f"{name:18} {len(rs):5} " + " ".join(f"{c:>16}" for c in cells) + f"  {mean:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
