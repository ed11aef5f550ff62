"""``callbets regress record SUITE --lang L``: build a suite from the microphone.

The microphone is opened first, and named, before anyone is asked to speak (opening it
takes up to 2 s, and a machine without one is told at once).  Each announcement is typed,
then said; one the parser refuses or finds ambiguous may be kept as an item that must be
refused, as a suite needs those too ("tiers par douze").  A suite made so is what
``callbets enrol`` adapts a croupier's model on.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import wave
from pathlib import Path

from ..errors import AnnouncementError, InputError
from ..files import open_regular
from ..language.parse import parse
from ..messages import said
from ..speech.audio import RATE, open_microphone
from ..speech.endpoint import record_one

ROOM_BLOCKS = 20
"""Blocks (1 s) of the room heard before "say it now": the segmenter learns the room's
level from them, so an announcement said at once is not taken for the room."""


def _expect(text: str, lang: str) -> str | None:
    """The expected chips of a typed announcement; for one the parser refuses, "refuse"
    if the user keeps it as a must-refuse item, else None (type it again)."""
    try:
        return parse(text, lang).notation()
    except AnnouncementError as err:
        print(f"the parser does not place it: {err.message}")
        answer = input("keep it as an announcement that must be refused? [y/N] ")
        return "refuse" if answer.strip().lower() in ("y", "yes") else None


def record(args: argparse.Namespace) -> int:
    """Prompt for an announcement, record it, and append the item to the suite."""
    if len(args.suites) < 2:  # never into the current folder by default
        raise InputError(said("regress_name_suite"))
    folder = Path(args.suites[1])
    folder.mkdir(parents=True, exist_ok=True)
    manifest = folder / "manifest.jsonl"
    microphone = open_microphone()
    print(f"microphone: {microphone.name}", flush=True)
    blocks = microphone.blocks()
    count = 0
    if os.path.lexists(manifest):  # never a pipe or a device
        with open_regular(manifest) as f:
            count = sum(1 for _ in f)
    while True:
        try:
            text = input("announcement to say (empty to stop): ").strip()
            if not text:
                return 0
            expect = _expect(text, args.lang)
        except EOFError:
            return 0
        if expect is None:
            continue
        microphone.drain()  # what it heard while the announcement was typed
        room = list(itertools.islice(blocks, ROOM_BLOCKS))  # the room, before he speaks
        print(f"say it now: {text!r}", flush=True)
        pcm = record_one(itertools.chain(room, blocks))
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
        print(f"added {name} ({expect})", flush=True)
