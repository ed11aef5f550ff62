"""``callbets regress record SUITE --lang L``: build a suite from the microphone."""

from __future__ import annotations

import argparse
import json
import wave
from pathlib import Path

from ..language.parse import parse
from ..speech.audio import RATE, microphone_blocks
from ..speech.endpoint import record_one


def record(args: argparse.Namespace) -> int:
    """Prompt for an announcement, record it, and append the item to the suite."""
    folder = Path(args.suites[1]) if len(args.suites) > 1 else Path(".")
    folder.mkdir(parents=True, exist_ok=True)
    manifest = folder / "manifest.jsonl"
    blocks = microphone_blocks(0.05)
    count = sum(1 for _ in manifest.open(encoding="utf-8")) if manifest.exists() else 0
    while True:
        try:
            text = input("announcement to say (empty to stop): ").strip()
        except EOFError:
            return 0
        if not text:
            return 0
        expect = parse(text, args.lang).notation()
        print(f"say it now: {text!r}")
        pcm = record_one(blocks)
        if not pcm:
            print("nothing was heard; stopping")
            return 0
        count += 1
        name = f"{args.lang}-{count:03d}.wav"
        with wave.open(str(folder / name), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(RATE)
            w.writeframes(pcm)
        item = {"id": name[:-4], "lang": args.lang, "audio": name, "text": text, "expect": expect}
        with manifest.open("a", encoding="utf-8") as f:
            f.write(json.dumps(item, ensure_ascii=False) + "\n")
        print(f"added {name} ({expect})")
