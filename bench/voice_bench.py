"""Score the voice front-end on a split made by ``bench/voice_data.py``, per condition.

Each condition (clean, pink20 … babble5) is one session at a table: one engine and one
dictation stream, its files fed one after the other in the microphone's blocks (30 ms)
(the room's noise level and the cepstral mean carry over).  For each
it reports the first reading exact (what the croupier is shown), the right bet among
the readings offered, wrong bets accepted unasked (must be 0), the share accepted
unasked, compute per second of audio, and the latency from the end of speech to the
decision (the pause the endpointer waits for, the last block, the end of the search,
the parse and the decision).

    python bench/voice_bench.py SPLIT_FOLDER [--conditions clean,pink15] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from callbets import find_house, parse_notation
from callbets.speech.audio import BLOCK_SECONDS, RATE, duration, read_wav
from callbets.speech.decide import Decision, bet_words, decide
from callbets.speech.dictation import Dictation, Heard

BLOCK = 2 * round(RATE * BLOCK_SECONDS)  # bytes: the microphone's block (30 ms)
ENGINE = os.environ.get("CALLBETS_BENCH_ENGINE", "pocketsphinx")


def weakest(decision: Decision, lang: str) -> float | None:
    """The weakest confidence of the chosen reading's bet words (for calibration)."""
    first = decision.readings[0].candidate if decision.readings else None
    words = bet_words(first, lang) if first is not None else ()
    return min((c for _, c in words), default=None)


def chips(notation: str) -> dict[tuple[int, ...], int]:
    return parse_notation(notation, find_house()).merged()


def session(condition: str, items: list[dict[str, Any]], folder: str) -> list[dict[str, Any]]:
    """Feed one condition's files through one dictation; score each file."""
    from callbets.speech.engines import make_engine

    lang = items[0]["lang"] if items else "en"
    engine = make_engine(ENGINE, lang)
    dictation = Dictation(engine)
    out = []
    for item in items:
        pcm = read_wav(Path(folder) / item["audio"])
        spent = 0.0
        results: list[tuple[Heard, Decision, float]] = []
        lat: float | None
        blocks = [pcm[i : i + BLOCK] for i in range(0, len(pcm), BLOCK)]
        offset = dictation.segmenter.now
        for k, block in enumerate([*blocks, b""]):
            start = time.perf_counter()
            events = list(dictation.feed(block) if block else dictation.flush())
            for e in events:
                if isinstance(e, Heard):
                    if e.continues and results:  # it holds the one it went on from
                        results.pop()
                    d = decide(e.hearing, lang)
                    took = time.perf_counter() - start
                    arrived = offset + min(len(pcm), (k + 1) * BLOCK) / (2 * RATE)
                    results.append((e, d, arrived - e.speech_end + took))
            spent += time.perf_counter() - start
        kept = [(h, d, lat) for h, d, lat in results if d.kind != "refuse"]
        want = chips(item["expect"])
        heard = " | ".join(h.hearing.best.text if h.hearing.best else "" for h, _, _ in results)
        if len(kept) == 1:
            _, d, lat = kept[0]
            first = d.chosen is not None and d.chosen.merged() == want
            offered = first or any(c.merged() == want for c in d.choices)
            kind, wrong = d.kind, d.kind == "accept" and not first
        else:
            first = offered = False
            kind = "refuse" if not kept else "split"
            wrong = any(d.kind == "accept" and d.chosen is not None and d.chosen.merged() != want
                        for _, d, _ in kept)  # fmt: skip
            lat = kept[-1][2] if kept else None
        out.append({
            "id": item["id"], "condition": condition, "voice": item.get("voice", ""),
            "kind": kind, "first": first, "offered": offered, "wrong_accepted": wrong,
            "heard": heard, "text": item["text"], "seconds": duration(pcm), "compute": spent,
            "latency": lat, "utterances": len(results),
            "reason": kept[0][1].reason if len(kept) == 1 else "",
            "weakest": weakest(kept[0][1], lang) if len(kept) == 1 else None,
            "snr": kept[0][0].hearing.snr_db if len(kept) == 1 else None,
        })  # fmt: skip
    return out


def rate(rs: list[dict[str, Any]], key: str) -> str:
    return f"{sum(bool(r[key]) for r in rs) / len(rs):6.0%}" if rs else "     -"


def row(name: str, rs: list[dict[str, Any]]) -> str:
    """One line of the table: items, first exact, offered, accepted, WRONG, xRT, latency."""
    n = len(rs)
    rt = sum(r["compute"] for r in rs) / sum(r["seconds"] for r in rs)
    lats = sorted(r["latency"] for r in rs if r["latency"] is not None)
    p50 = statistics.median(lats) if lats else float("nan")
    p95 = lats[int(0.95 * (len(lats) - 1))] if lats else float("nan")
    accepted = sum(r["kind"] == "accept" for r in rs) / n
    wrong = sum(r["wrong_accepted"] for r in rs)
    return (
        f"{name:16} {n:5} {rate(rs, 'first')} {rate(rs, 'offered'):>8} {accepted:9.0%} "
        f"{wrong:6} {rt:5.3f} {p50:6.2f} {p95:6.2f}"
    )


def groups(results: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The lines of the summary: clean by kind of voice, then each noise level."""
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in results:
        if r["condition"] == "clean":
            family = "espeak-ng" if r["voice"].startswith("espeak") else "flite/festival"
            out[f"clean {family}"].append(r)
        else:
            noise, snr = re.fullmatch(r"([a-z]+)(\d+)", r["condition"]).groups()  # type: ignore[union-attr]
            out[f"{noise} {snr} dB"].append(r)
            out[f"noise {snr} dB"].append(r)
    out["all"] = results
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--conditions", default="")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--dump", type=Path, help="write every file's result here (JSON lines)")
    ap.add_argument("--show", type=int, default=0, help="print this many misses per condition")
    args = ap.parse_args()
    items = [json.loads(x) for x in (args.folder / "manifest.jsonl").read_text().splitlines()]
    wanted = set(args.conditions.split(",")) if args.conditions else None
    by_cond: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for i in items:
        if wanted is None or i["condition"] in wanted:
            by_cond[i["condition"]].append(i)
    conds = sorted(by_cond, key=lambda c: (c != "clean", c))
    print(f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"{len(conds)} sessions over {args.jobs} processes")  # fmt: skip
    with ProcessPoolExecutor(args.jobs) as pool:
        folders = [str(args.folder)] * len(conds)
        runs = pool.map(session, conds, [by_cond[c] for c in conds], folders)
        by = dict(zip(conds, runs, strict=True))
    head = f"{'':16} {'items':>5} {'first':>6} {'offered':>8} {'accepted':>9} {'WRONG':>6}"
    print(f"{head} {'xRT':>5} {'lat50':>6} {'lat95':>6}")
    for cond in conds:
        print(row(cond, by[cond]))
        for r in [r for r in by[cond] if not r["first"]][: args.show]:
            print(f"    {r['kind']:6} {r['voice']:28} {r['text']!r} heard {r['heard']!r}")
    results = [r for rs in by.values() for r in rs]
    print("summary")
    for name, rs in sorted(groups(results).items(), key=lambda kv: (kv[0] == "all", kv[0])):
        print(row(name, rs))
    if args.dump:
        args.dump.write_text("".join(json.dumps(r) + "\n" for r in results))
    return 1 if any(r["wrong_accepted"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
