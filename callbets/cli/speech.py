"""``callbets transcribe``, ``listen`` and ``models``: the voice doors onto the parser."""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..language.dialogue import confirmation
from ..language.grammar import LANGUAGES
from ..language.readback import readback, reading_line
from ..messages import message_in, say_in
from ..roulette.house import DEFAULT_HOUSE, House, find_house
from ..speech import BadSpeechFile, SpeechUnavailable
from ..speech.audio import BLOCK_SECONDS, RATE, duration, microphone_blocks, read_wav
from ..speech.croupiers import resolve
from ..speech.decide import Decision, decide
from ..speech.dictation import Dictation, Heard, Partial, in_place
from ..speech.engines import ENGINES, Engine, Hearing, make_engine
from .options import json_line, lang_code


def _json(hearing: Hearing, decision: Decision, lang: str) -> dict[str, Any]:
    """The parse contract for what was heard, plus the recogniser's side of it; messages
    and reasons in the table's language."""
    chosen = decision.chosen
    base: dict[str, Any] = chosen.to_json() if chosen else {"input": "", "ok": False, "error": None}
    base["input"] = hearing.best.text if hearing.best else ""
    if chosen is None:
        first = next((r.error for r in decision.readings if r.error), None)
        base["error"] = (
            first.to_json(lang)
            if first
            else {
                "kind": "unrecognized",
                "message": message_in(decision.reason, lang),
                "column": None,
            }
        )
    base.update(
        heard=hearing.best.text if hearing.best else "",
        alternatives=[c.text for c in hearing.candidates[1:]],
        second_look=hearing.second_look,
        words=[
            {"word": w, "conf": round(c, 3)}
            for w, c in (hearing.best.words if hearing.best else ())
        ],
        decision=decision.to_json(lang),
        engine=hearing.engine,
        snr_db=None if hearing.snr_db is None else round(hearing.snr_db, 1),
        notes=list(hearing.notes),
    )
    return base


def _blocks(pcm: bytes, block_ms: int, real_time: bool) -> Iterator[bytes]:
    """A recording in blocks, at the pace a microphone would give them (or at once)."""
    size = 2 * RATE * block_ms // 1000
    start = time.perf_counter()
    for k, i in enumerate(range(0, len(pcm), size)):
        if real_time:
            due = start + k * block_ms / 1000
            time.sleep(max(0.0, due - time.perf_counter()))
        yield pcm[i : i + size]


def utterance_json(dictation: Dictation, heard: Heard, house: House, n: int) -> dict[str, Any]:
    """The JSON of the ``n``-th utterance heard (``transcribe`` and ``listen --json``);
    ``noise_suppression`` names what suppressed the noise first (null: nothing)."""
    engine = dictation.engine
    out = _json(heard.hearing, decide(heard.hearing, engine.lang, house), engine.lang)
    out.update(model=engine.model_name, noise_suppression=suppression(dictation),
               utterance=n, start_s=round(heard.start, 2),
               end_s=round(heard.speech_end, 2))  # fmt: skip
    if heard.continues:  # it went on from the utterance before, and holds it
        out["continues"] = n - 1
    return out


def suppression(dictation: Dictation) -> str | None:
    """What suppresses the noise before the dictation hears it (None: nothing, the
    room being quiet or no suppression installed)."""
    denoiser = dictation.gate.denoiser if dictation.gate is not None else None
    return denoiser.name if denoiser is not None else None


def transcribe_file(
    engine: Engine, path: str, house: House, block_ms: int, real_time: bool
) -> Iterator[dict[str, Any]]:
    """One JSON object per utterance of a file (one refusal when nothing was said).

    Fed as a stream (``real_time``), an utterance that continues the one before is given
    as it is heard, marked ``"continues"``.  Otherwise the whole file is known, so the
    line it continues is left out: each line is an announcement as a whole (as
    ``regress`` hears a recording), never one that a later line takes the place of."""
    lines = _utterance_lines(engine, path, house, block_ms, real_time)
    return lines if real_time else _in_place(lines)


def _in_place(lines: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The lines without those a later line continues (it holds them), numbered again."""
    for count, line in enumerate(in_place(lines, lambda later: "continues" in later)):
        yield {**{k: v for k, v in line.items() if k != "continues"}, "utterance": count}


def _utterance_lines(
    engine: Engine, path: str, house: House, block_ms: int, real_time: bool
) -> Iterator[dict[str, Any]]:
    """One JSON object per utterance heard, as it is heard."""
    pcm = read_wav(Path(path))
    dictation = Dictation(engine, house, hear_joined=not real_time)
    if not real_time:  # the whole file is known; a microphone's stream is not
        dictation.prime(pcm)
    start = time.perf_counter()
    found = 0
    compute = 0.0

    def record(e: Heard, spent: float) -> dict[str, Any]:
        out = utterance_json(dictation, e, house, found)
        out.update(file=path, audio_seconds=round(duration(pcm), 2),
                   compute_seconds=round(spent, 3))  # fmt: skip
        if real_time:  # from the end of speech, as the microphone gave it, to now
            out["latency_s"] = round(time.perf_counter() - start - e.speech_end, 3)
        return out

    for block in itertools.chain(_blocks(pcm, block_ms, real_time), [b""]):
        began = time.perf_counter()
        events = list(dictation.feed(block) if block else dictation.flush())
        compute += time.perf_counter() - began
        for e in events:
            if isinstance(e, Heard):
                yield record(e, compute)
                found += 1
    if not found:
        empty = Hearing((), engine.name)
        out = _json(empty, decide(empty, engine.lang, house), engine.lang)
        out.update(model=engine.model_name, noise_suppression=suppression(dictation),
                   file=path, utterance=0,
                   audio_seconds=round(duration(pcm), 2),
                   compute_seconds=round(compute, 3))  # fmt: skip
        yield out


def _engine(args: argparse.Namespace) -> Engine:
    """The engine the options name (with an enrolled croupier's model where one is)."""
    croupier = resolve(args.croupier, args.lang)
    return make_engine(args.engine, args.lang, args.model, args.accept_missing_words, croupier)


def cmd_transcribe(args: argparse.Namespace) -> int:
    """Recognise WAV files; one JSON line per utterance."""
    engine = _engine(args)
    house = find_house(args.house)
    for path in args.files:
        for line in transcribe_file(engine, path, house, args.block_ms, args.stream):
            print(json_line(line))
            sys.stdout.flush()
    return 0


def say_decision(decision: Decision, lang: str, house: House) -> list[str]:
    """What ``listen`` tells the croupier of a decision, in the table's language: the
    reason of a refusal, or the readings offered in words, and the readback."""
    reason = message_in(decision.reason, lang)
    if decision.kind == "refuse":
        return [say_in(lang, "listen_refused", reason=reason)]
    lines = []
    if decision.kind == "ask":
        lines.append(say_in(lang, "listen_unsure", reason=reason))
        lines += [f"  {i}. {reading_line(choice.notation(), lang, house)}"
                  for i, choice in enumerate(decision.choices, 1)]  # fmt: skip
    if decision.chosen is not None:
        lines += [readback(decision.chosen, lang, house), say_in(lang, "listen_confirm")]
    return lines


def listen_json(engine: Engine, house: House, blocks: Iterable[bytes]) -> Iterator[dict[str, Any]]:
    """One JSON object per utterance heard on a stream of blocks (the microphone's), the
    ``transcribe`` contract, until the stream ends or Ctrl-C.  ``latency_s`` runs from
    the end of speech to the decision: the stream's clock is set against the wall clock
    by the block that arrived soonest (opening a microphone takes up to 2 s here, which
    is no latency of the decision)."""
    dictation = Dictation(engine, house)
    found, start, heard_s, lag = 0, time.perf_counter(), 0.0, float("inf")
    stream = iter(blocks)
    while True:
        try:
            block = next(stream, b"")
        except KeyboardInterrupt:
            block = b""
        heard_s += duration(block)
        lag = min(lag, time.perf_counter() - start - heard_s)
        for e in dictation.feed(block) if block else dictation.flush():
            if isinstance(e, Heard):
                out = utterance_json(dictation, e, house, found)
                out["latency_s"] = round(time.perf_counter() - start - lag - e.speech_end, 3)
                yield out
                found += 1
        if not block:
            return


def _announced(blocks: Iterable[bytes], message: str) -> Iterator[bytes]:
    """The blocks, with ``message`` on stderr once the first has arrived: the microphone
    is open and listening only then (opening it takes up to 2 s here)."""
    for n, block in enumerate(blocks):
        if n == 0:
            print(message, file=sys.stderr, flush=True)
        yield block


def cmd_listen(args: argparse.Namespace) -> int:
    """Listen on the microphone: live partial text, then read-back, decision, confirmation
    (or, with --json, one JSON line per utterance)."""
    engine = _engine(args)
    house = find_house(args.house)
    listening = say_in(args.lang, "listen_start", engine=engine.name, lang=args.lang,
                       model=engine.model_name)  # fmt: skip
    blocks = _announced(microphone_blocks(), listening)
    if args.json:
        try:
            for line in listen_json(engine, house, blocks):
                print(json_line(line), flush=True)
        except KeyboardInterrupt:  # while an utterance was being decoded
            pass
        return 0
    dictation = Dictation(engine, house)
    pending: Decision | None = None
    try:
        for block in blocks:
            for event in dictation.feed(block):
                if isinstance(event, Partial):
                    sys.stderr.write(f"\r… {event.text[-70:]:70}")
                    sys.stderr.flush()
                    continue
                heard = event.hearing.best.text if event.hearing.best else ""
                sys.stderr.write("\r" + " " * 72 + "\r")
                answer = confirmation(heard, args.lang)
                if pending is not None and answer:
                    done = "cli_placed" if answer == "confirm" else "listen_cancelled"
                    print(say_in(args.lang, done))
                    pending = None
                    continue
                decision = decide(event.hearing, args.lang, house)
                print(say_in(args.lang, "listen_heard", text=heard))
                print("\n".join(say_decision(decision, args.lang, house)))
                pending = decision if decision.chosen is not None else None
    except KeyboardInterrupt:
        print("", file=sys.stderr)
    return 0


def cmd_models(args: argparse.Namespace) -> int:
    """List the Vosk models callbets finds, check them, or install one from its archive."""
    from ..speech import models  # start-up time: about 6 ms here, for this command only

    if args.action == "install":
        archive = Path(args.archive)
        if not archive.exists():  # said before anything is asked of it
            raise BadSpeechFile(f"{archive}: no such file")
        args.lang = args.lang or models.language_of(archive)  # says errors in it
        target = models.install(Path(args.archive), args.lang)
        print(f"installed {Path(args.archive).name} as {target}")
        report = models.check(target.name, str(target))
        print("\n".join(report.lines()))
        return 0 if report.usable or not report.checked_words else 1
    models.clean_leftovers()  # of an install killed midway
    print("searched: " + ", ".join(str(p) for p in models.search_path()))
    langs = [args.lang] if args.lang else list(LANGUAGES)
    reports = [models.check(lang) for lang in langs]
    for report in reports:
        print("\n".join(report.lines()))
    print("PocketSphinx: inside the pocketsphinx package (no download); used for English, "
          "and for French and Italian where no Vosk model is installed")  # fmt: skip
    found = [r for r in reports if r.found]
    return 0 if all(r.usable or not r.checked_words for r in found) else 1


def _engine_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--engine",
        choices=ENGINES,
        default=None,
        help="recogniser (default: pocketsphinx for English; for French and Italian vosk "
        "where a model is installed, else pocketsphinx; whisper: Whisper base led through "
        "the grammar's words, trained on real speech, about 0.7 s more after speech)",
    )
    p.add_argument("--lang", type=lang_code, choices=LANGUAGES, default="fr",
                   help="the language spoken (default: fr, as the table commands)")  # fmt: skip
    p.add_argument(
        "--model",
        metavar="PATH",
        help="Vosk model folder (default: see 'callbets models')",
    )
    p.add_argument("--house", default=DEFAULT_HOUSE, metavar="NAME")
    p.add_argument(
        "--croupier",
        metavar="NAME",
        help="hear with this croupier's enrolled model ('callbets enrol'; default: "
        "$CALLBETS_CROUPIER where enrolled for the language)",
    )
    p.add_argument(
        "--accept-missing-words",
        action="store_true",
        help="run a Vosk model that lacks words of the table's bets (refused otherwise, "
        "exit 2); every bet it hears is then asked, never accepted",
    )


def add_commands(sub: Any) -> None:
    """Register ``transcribe``, ``listen`` and ``models``."""
    p = sub.add_parser(
        "transcribe",
        help="recognise WAV files into announcements (JSON lines)",
        description="Recognise WAV files: each utterance is cut by voice activity, decoded "
        "and decided (accept, ask or refuse); one JSON line per utterance, with "
        "audio_seconds, compute_seconds and, with --stream, latency_s (end of speech to "
        "decision).  Without --stream each file is heard on its own: the room and the "
        "voice are learned from the whole file first.",
    )
    _engine_options(p)
    p.add_argument(
        "--stream",
        action="store_true",
        help="feed each file at real-time pace, as a microphone would, and report latency_s",
    )
    p.add_argument(
        "--block-ms",
        type=int,
        choices=range(20, 101, 10),
        default=round(BLOCK_SECONDS * 1000),
        metavar="MS",
        help="block length fed to the recogniser, 20 to 100 ms "
        "(default %(default)s, the microphone's)",
    )
    p.add_argument("files", nargs="+", metavar="FILE.wav")
    p.set_defaults(run=cmd_transcribe)

    p = sub.add_parser(
        "listen",
        help="listen on the microphone, read back, and wait for confirmation",
        description="Listen on the microphone: the words heard so far show live; each "
        "utterance is read back and waits for a spoken confirm or cancel phrase.",
    )
    _engine_options(p)
    p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON line per utterance, as transcribe does (with latency_s), and "
        "no confirmation dialogue; Ctrl-C ends it after the utterance being said",
    )
    p.set_defaults(run=cmd_listen)

    p = sub.add_parser(
        "models",
        help="list and check the Vosk models, or install one from its archive",
        description="Vosk models are looked for in $CALLBETS_MODELS/<lang>, then "
        "~/.local/share/callbets/models/<lang>, then models/<lang> of a checkout. "
        "'callbets models' lists and checks them (runtime grammars, the grammar's words in "
        "the lexicon, size); 'callbets models install FILE.zip' unpacks a downloaded model.",
    )
    p.add_argument("--lang", type=lang_code, choices=LANGUAGES, default=None,
                   help="the language of the models listed or of the archive")  # fmt: skip
    acts = p.add_subparsers(dest="action", metavar="ACTION")
    acts.add_parser("list", help="list and check the models found (the default)")
    i = acts.add_parser("install", help="install a downloaded model from its archive")
    i.add_argument(
        "archive", metavar="FILE.zip", help="the archive, e.g. vosk-model-small-fr-0.22.zip"
    )
    i.add_argument("--lang", type=lang_code, choices=LANGUAGES, default=argparse.SUPPRESS,
                   help="its language (default: from its name, vosk-model-…-fr-…)")  # fmt: skip
    p.set_defaults(run=cmd_models, action="list")


__all__ = ["SpeechUnavailable", "add_commands", "transcribe_file"]
