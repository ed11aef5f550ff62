"""Audio for adapting on many voices and for scoring on a voice family left out.

A model adapted on one synthesiser learns that synthesiser (voice.md, fourth round):
its figures on other voices of the same family say nothing of a croupier's voice.  Two
kinds of folder, both ``callbets regress`` suites that ``bench/voice_bench.py`` scores
and ``bench/adapt_base.py`` adapts on:

* ``adapt``: the *dev* texts of ``bench/voice_data.py``, each said several times by
  voices drawn from the list given, every copy changed at random as rooms and people
  change a voice: pitch and vocal-tract length (sox ``pitch``), speed, reverberation,
  tone (bass and treble), and pink or brown noise at 10-20 dB in two copies of five;
* ``held-out``: the *test* texts said by every voice of one family, clean, with pink
  noise and with babble at 15 dB, to score a model that never heard that family.

    python bench/voice_families.py adapt OUT --lang it --copies 8 \\
        --voices espeak:it+m1,espeak:it+f2,espeak:it+klatt,...
    python bench/voice_families.py held-out OUT --lang it \\
        --voices festival:lp_diphone,festival:pc_diphone

A voice is ``engine:name`` (engines as in ``bench/voice_data.py``: espeak, flite,
festival, and the neural voices of kokoro, ``kokoro:fr.jf_alpha``: ``bench/kokoro_voice.py``,
and piper, ``piper:fr.joe``: ``bench/piper_voice.py``);
espeak-ng voices speak at a speed drawn from 130-190 words a minute.  ``--per-text N``
has each test text said by N of the voices in turn instead of all.
Needs espeak-ng, festival (and its voices), flite and sox.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from array import array
from pathlib import Path
from typing import Any

from voice_data import (
    RATE,
    TEXTS,
    babble,
    coloured_noise,
    mix,
    read,
    split_of,
    synthesise,
    texts_of,
    write,
)

from callbets import AnnouncementError, parse

ESPEAK_SPEEDS = (130, 145, 160, 175, 190)
NOISY_SHARE = 0.4
"""Of the adaptation copies, the share with noise mixed in."""


def texts(lang: str, split: str) -> list[tuple[str, str]]:
    """The split's texts that parse, with their notation."""
    out = []
    for text in TEXTS if lang == "en" else texts_of(lang):
        try:
            notation = parse(text, lang).notation()
        except AnnouncementError:
            continue
        if split_of(text) == split:
            out.append((text, notation))
    return out


def say(voice: str, text: str, out: Path, rng: random.Random) -> None:
    """``text`` said by ``engine:name`` into a 16 kHz WAV."""
    engine, name = voice.split(":", 1)
    speed = float(rng.choice(ESPEAK_SPEEDS)) if engine == "espeak" else 1.0
    if engine == "piper":
        speed = rng.uniform(0.85, 1.15)
    synthesise(engine, name, speed, text, out)


def changed(raw: Path, out: Path, rng: random.Random, noises: list[array[int]]) -> None:
    """A copy of ``raw`` with another pitch, speed, room and tone, sometimes noise."""
    effects = ["pitch", str(rng.randint(-400, 400)), "speed", f"{rng.uniform(0.88, 1.12):.3f}"]
    if rng.random() < 0.5:
        effects += ["reverb", str(rng.randint(10, 60)), "50", str(rng.randint(20, 100))]
    if rng.random() < 0.5:
        effects += ["bass", str(rng.randint(-6, 6)), "treble", str(rng.randint(-6, 6))]
    subprocess.run(["sox", str(raw), "-r", str(RATE), "-c", "1", "-b", "16", str(out),
                    *effects, "rate", str(RATE), "norm", "-3"],
                   check=True, capture_output=True)  # fmt: skip
    if rng.random() < NOISY_SHARE:
        noisy = mix(read(out), rng.choice(noises), rng.choice([10, 15, 20]),
                    rng.randrange(10 * RATE))  # fmt: skip
        write(out, noisy)


def noise_samples(colours: tuple[str, ...]) -> list[array[int]]:
    with tempfile.TemporaryDirectory() as tmp:
        out = []
        for colour in colours:
            path = Path(tmp) / f"{colour}.wav"
            coloured_noise(colour, 20, path)
            out.append(read(path))
        return out


def adaptation_set(lang: str, out: Path, voices: list[str], copies: int, seed: int) -> int:
    rng = random.Random(seed)
    noises = noise_samples(("pink", "brown"))
    manifest: list[dict[str, Any]] = []
    (out / "adapt").mkdir(parents=True, exist_ok=True)
    for n, (text, notation) in enumerate(texts(lang, "dev")):
        for k in range(copies):
            voice = rng.choice(voices)
            name = f"{n:03d}-{k}"
            with tempfile.TemporaryDirectory() as tmp:
                raw = Path(tmp) / "raw.wav"
                say(voice, text, raw, rng)
                changed(raw, out / "adapt" / f"{name}.wav", rng, noises)
            manifest.append({"id": name, "lang": lang, "text": text, "expect": notation,
                             "voice": voice, "audio": f"adapt/{name}.wav",
                             "condition": "clean"})  # fmt: skip
    (out / "manifest.jsonl").write_text("".join(json.dumps(m) + "\n" for m in manifest))
    return len(manifest)


def held_out_set(lang: str, out: Path, voices: list[str], seed: int, per_text: int) -> int:
    """The test texts said by every voice, clean, with pink noise and with babble (other
    utterances of the set on top of each other, as a crowded table sounds), at 15 dB."""
    rng = random.Random(seed)
    manifest: list[dict[str, Any]] = []
    for n, (text, notation) in enumerate(texts(lang, "test")):
        for k in range(per_text):
            voice = voices[(n * per_text + k) % len(voices)]
            name = f"{voice.split(':', 1)[1].replace('+', '_')}-{n:03d}"
            say(voice, text, out / "clean" / f"{name}.wav", rng)
            item = {"lang": lang, "text": text, "expect": notation, "voice": voice}
            manifest.append({**item, "id": name, "audio": f"clean/{name}.wav",
                             "condition": "clean"})  # fmt: skip
    clean = [read(out / m["audio"]) for m in manifest]
    (pink,) = noise_samples(("pink",))
    noises = {"pink15": pink, "babble15": babble(clean, rng, 20)}
    for item, speech in list(zip(manifest, clean, strict=True)):
        for condition, noise in noises.items():
            audio = f"{condition}/{item['id']}.wav"
            write(out / audio, mix(speech, noise, 15, rng.randrange(10 * RATE)))
            manifest.append({**item, "id": f"{item['id']}-{condition}", "audio": audio,
                             "condition": condition})  # fmt: skip
    (out / "manifest.jsonl").write_text("".join(json.dumps(m) + "\n" for m in manifest))
    return len(manifest)


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("kind", choices=["adapt", "held-out"])
    ap.add_argument("out", type=Path)
    ap.add_argument("--lang", choices=["en", "fr", "it"], default="it")
    ap.add_argument("--voices", required=True, help="comma-separated engine:name")
    ap.add_argument("--copies", type=int, default=8, help="adapt: copies of each text")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--per-text", type=int, help="held-out: voices per text (default: all)")
    args = ap.parse_args()
    voices = args.voices.split(",")
    if args.kind == "adapt":
        n = adaptation_set(args.lang, args.out, voices, args.copies, args.seed)
    else:
        n = held_out_set(args.lang, args.out, voices, args.seed, args.per_text or len(voices))
    print(f"{n} files in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
