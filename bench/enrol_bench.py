"""What ``callbets enrol`` does for one voice: record a "croupier" (a synthetic voice the
shipped model was not adapted on) saying 80 announcements, enrol him on 60, and read
his other 20 before and after.

    python bench/enrol_bench.py OUT --lang it --voice festival:pc_diphone:1.0
    python bench/enrol_bench.py OUT --lang fr --voice espeak:fr+m7:170

Texts are ``bench/voice_texts/<lang>.txt`` (written without reading the grammar), those
the parser reads; the suite is written to ``OUT/manifest.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from voice_data import synthesise, texts_of

from callbets import AnnouncementError, parse


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--lang", choices=["fr", "it", "en"], required=True)
    ap.add_argument("--voice", required=True, help="ENGINE:VOICE:SPEED (see voice_data.py)")
    ap.add_argument("--count", type=int, default=80)
    ap.add_argument("--croupier", default="bench")
    args = ap.parse_args()
    engine, voice, speed = args.voice.split(":")
    lines: list[dict[str, str]] = []
    for text in texts_of(args.lang):
        try:
            expect = parse(text, args.lang).notation()
        except AnnouncementError:
            continue
        n = len(lines)
        synthesise(engine, voice, float(speed), text, args.out / f"{n:03d}.wav")
        lines.append({"id": f"{args.croupier}-{n:03d}", "lang": args.lang, "text": text,
                      "audio": f"{n:03d}.wav", "expect": expect})  # fmt: skip
        if len(lines) == args.count:
            break
    (args.out / "manifest.jsonl").write_text(
        "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8"
    )
    print(f"{len(lines)} recordings of {args.voice} in {args.out}", file=sys.stderr)
    cmd = [sys.executable, "-m", "callbets", "enrol", str(args.out), "--lang", args.lang,
           "--croupier", args.croupier]  # fmt: skip
    return subprocess.run(cmd, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
