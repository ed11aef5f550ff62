"""``callbets transcribe`` and ``callbets listen``: the voice doors onto the parser."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from ._cliopts import json_line
from .dialogue import confirmation
from .grammar import LANGUAGES
from .house import DEFAULT_HOUSE, find_house
from .readback import readback
from .speech import SpeechUnavailable
from .speech.audio import duration, microphone_blocks, read_wav, utterances
from .speech.decide import Decision, decide
from .speech.engines import Engine, Hearing, make_engine


def _json(path: str, hearing: Hearing, decision: Decision, seconds: float) -> dict[str, Any]:
    chosen = decision.chosen
    base: dict[str, Any] = chosen.to_json() if chosen else {"input": "", "ok": False, "error": None}
    base["input"] = hearing.best.text if hearing.best else ""
    if chosen is None:
        first = next((r.error for r in decision.readings if r.error), None)
        base["error"] = (
            first.to_json()
            if first
            else {
                "kind": "unrecognized",
                "message": decision.reason,
                "column": None,
            }
        )
    base.update(
        file=path,
        heard=hearing.best.text if hearing.best else "",
        alternatives=[c.text for c in hearing.candidates[1:]],
        words=[
            {"word": w, "conf": round(c, 3)}
            for w, c in (hearing.best.words if hearing.best else ())
        ],
        decision=decision.to_json(),
        engine=hearing.engine,
        audio_seconds=round(seconds, 2),
        notes=list(hearing.notes),
    )
    return base


def _words(hearing: Hearing) -> tuple[tuple[str, float], ...]:
    return hearing.best.words if hearing.best else ()


def cmd_transcribe(args: argparse.Namespace) -> int:
    """Recognise WAV files; one JSON line each."""
    engine = make_engine(args.engine, args.lang, args.model)
    house = find_house(args.house)
    for path in args.files:
        pcm = read_wav(Path(path))
        hearing = engine.hear(pcm)
        decision = decide(hearing, args.lang, house)
        print(json_line(_json(path, hearing, decision, duration(pcm))))
        sys.stdout.flush()
    return 0


def _say(decision: Decision, lang: str, engine: Engine) -> None:
    house = find_house()
    if decision.kind == "refuse":
        print(f"refused: {decision.reason}")
        return
    if decision.kind == "ask":
        print(f"not sure ({decision.reason}); did you mean:")
        for i, choice in enumerate(decision.choices, 1):
            print(f"  {i}. {choice.notation()}")
    if decision.chosen is not None:
        print(readback(decision.chosen, lang, house))
        print("say the confirmation phrase to place it, or cancel")


def cmd_listen(args: argparse.Namespace) -> int:
    """Listen on the microphone: live level, then read-back, decision and confirmation."""
    engine = make_engine(args.engine, args.lang, args.model)
    pending: Decision | None = None

    def level(block: bytes, loud: bool) -> None:
        sys.stderr.write("\r" + ("speaking…" if loud else "listening ") + " ")
        sys.stderr.flush()

    print(f"listening ({engine.name}, {args.lang}); Ctrl-C to stop", file=sys.stderr)
    try:
        for pcm in utterances(microphone_blocks(), on_block=level):
            started = time.perf_counter()
            hearing = engine.hear(pcm)
            heard = hearing.best.text if hearing.best else ""
            answer = confirmation(heard, args.lang)
            if pending is not None and answer:
                print("placed" if answer == "confirm" else "cancelled")
                pending = None
                continue
            decision = decide(hearing, args.lang)
            print(f"\nheard: {heard!r} ({time.perf_counter() - started:.2f} s)")
            _say(decision, args.lang, engine)
            pending = decision if decision.chosen is not None else None
    except KeyboardInterrupt:
        print("", file=sys.stderr)
    return 0


def add_commands(sub: Any) -> None:
    """Register ``transcribe`` and ``listen``."""
    for name, helptext in (
        ("transcribe", "recognise WAV files into announcements (JSON lines)"),
        ("listen", "listen on the microphone, read back, and wait for confirmation"),
    ):
        p = sub.add_parser(name, help=helptext, description=helptext)
        p.add_argument("--engine", choices=["vosk", "pocketsphinx"], default="pocketsphinx")
        p.add_argument("--lang", choices=LANGUAGES, default="en")
        p.add_argument(
            "--model",
            metavar="PATH",
            help="Vosk model folder (default: $CALLBETS_VOSK_MODEL_<LANG>, models/<lang>)",
        )
        p.add_argument("--house", default=DEFAULT_HOUSE, metavar="NAME")
        if name == "transcribe":
            p.add_argument("files", nargs="+", metavar="FILE.wav")
            p.set_defaults(run=cmd_transcribe)
        else:
            p.set_defaults(run=cmd_listen)


__all__ = ["SpeechUnavailable", "add_commands"]
