"""Make development and test audio for the voice front-end (English, French, Italian).

Synthesises announcements with several engines (espeak-ng voices and variants, Debian's
flite voices, festival's diphone and HTS voices), at several speeds, and makes noisy
copies at 20, 15, 10 and 5 dB SNR with pink, brown and babble noise (babble: other
utterances of the same split, mixed).  Texts and voices are split: the test half uses
texts the dev half never has, and voices the dev half never hears.  Tune on dev only;
report test figures only.

English texts are :data:`TEXTS`; French and Italian ones are ``bench/voice_texts/<lang>.txt``
(written by a helper who saw only rules.md and the seeds, never the grammar).

Needs the Debian packages espeak-ng, flite, festival (with festvox-kallpc16k,
festvox-kdlpc16k, festvox-us-slt-hts, festvox-italp16k, festvox-itapc16k) and sox.  Writes
``OUT/<split>/manifest.jsonl`` (a ``callbets regress`` suite) and
``OUT/<split>/<condition>/<id>.wav``.

    python bench/voice_data.py OUT [--lang fr] [--conditions clean,pink15,babble10]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import subprocess
import sys
import tempfile
import wave
from array import array
from pathlib import Path

import kokoro_voice
import piper_voice

from callbets import AnnouncementError, parse

ROOT = Path(__file__).resolve().parent.parent
RATE = 16000

# Spoken announcements as croupiers and players say them (numbers in words): every family,
# stakes per piece and in total, several calls, politeness.
TEXTS = [
    "voisins by five", "the voisins by two", "voisins du zero by ten", "neighbours of zero",
    "voisins for forty five", "voisins five each", "tiers by five", "tiers for sixty",
    "tiers at two", "the tiers ten each", "orphans by five", "orphans straight up",
    "orphelins for twenty five", "orphans straight up by two", "zero game by five",
    "zero spiel", "zero game for twenty", "nassa by two", "seventeen and the neighbours",
    "seventeen and the neighbours by five", "twenty six and the neighbours by two",
    "zero and the neighbours", "thirty two and the neighbours for twenty five",
    "eight with the neighbours by ten", "four and one neighbour by five",
    "nineteen and three neighbours by two", "eleven and two neighbours",
    "neighbours of thirty two", "the neighbours of seventeen by five",
    "one nine and fourteen and the neighbours", "final seven", "final three by five",
    "final zero for forty", "split final eight nine", "split final three six by five",
    "split final zero one by two", "complete seventeen", "seventeen complete by two",
    "complete thirty five", "complete zero by one", "straight seventeen",
    "seventeen straight up by ten", "thirty two straight up five each",
    "zero straight up by twenty", "split five eight", "split seventeen twenty by two",
    "split zero three", "split thirteen fourteen by five", "street sixteen eighteen",
    "street thirty four thirty six by five", "street one three at five",
    "corner twenty five twenty nine", "corner one five by ten", "first four",
    "first four by five", "six line thirteen eighteen", "double street thirty one thirty six",
    "first dozen", "middle dozen by ten", "last dozen by fifty", "second dozen",
    "first column", "second column by twenty", "third column", "red", "red by ten",
    "black by fifty", "even at twenty", "odd by five", "low", "high by one hundred",
    "voisins and tiers by five", "tiers and orphans by two",
    "voisins tiers and orphans by one", "red by five and black by ten",
    "seventeen and the neighbours and tiers by five", "voisins by two and zero game by five",
    "twenty two and the neighbours by two", "eleven and two neighbours by five",
    "thirty three and the neighbours fifty each", "orphans at five and zero game at ten",
    "can i have the tiers by five please", "voisins by two please",
    "nine and the neighbours for fifty", "zero game five each",
    "final four and final five by two", "split final four seven by ten",
    "tiers for one hundred twenty", "voisins for ninety", "orphelins by twenty",
    "twenty one and the neighbours by ten", "five and the neighbours by one",
    "fourteen and four neighbours", "zero spiel by three", "twenty seven straight up",
    "split eleven fourteen at five", "street twenty eight thirty by two",
    "corner seventeen twenty one by five", "six line one six by ten",
    "thirty six straight up by two", "split thirty two thirty five", "black", "odd",
    "even", "high", "low by twenty", "first dozen by twenty five", "last column by ten",
]  # fmt: skip

VOICES_BY_LANG: dict[str, dict[str, list[tuple[str, str, float]]]] = {}
VOICES = {
    # (engine, voice, speed factor or espeak words per minute)
    "dev": [
        ("espeak", "en-us", 150),
        ("espeak", "en-gb+m3", 175),
        ("espeak", "en-gb-x-rp+f2", 160),
        ("flite", "kal16", 1.0),
        ("flite", "slt", 1.1),
        ("festival", "kal_diphone", 0.95),
    ],
    "test": [
        ("espeak", "en-gb-scotland+m5", 165),
        ("espeak", "en-029+f4", 155),
        ("espeak", "en-gb-x-gbcwmd", 185),
        ("flite", "awb", 1.0),
        ("flite", "rms", 0.9),
        ("festival", "ked_diphone", 1.05),
        ("festival", "cmu_us_slt_arctic_hts", 1.0),
    ],
}
VOICES_BY_LANG["en"] = VOICES
VOICES_BY_LANG["fr"] = {
    # espeak-ng is the only French synthesiser Debian ships (mbrola's voices are not there)
    "dev": [("espeak", "fr+m1", 150), ("espeak", "fr-be+f2", 165), ("espeak", "fr+m3", 175),
            ("espeak", "fr-ch+f3", 145)],
    "test": [("espeak", "fr+m6", 160), ("espeak", "fr+f4", 150), ("espeak", "fr-be+m4", 180),
             ("espeak", "fr-ch", 155)],
}  # fmt: skip
VOICES_BY_LANG["it"] = {
    "dev": [("espeak", "it+m2", 150), ("espeak", "it+f3", 165), ("festival", "lp_diphone", 1.0)],
    "test": [("espeak", "it+m6", 160), ("espeak", "it+f5", 145), ("festival", "pc_diphone", 1.0)],
}  # fmt: skip
NOISES = ("pink", "brown", "babble")
SNRS = (20, 15, 10, 5)


def split_of(text: str) -> str:
    """Half the texts go to test, by a hash of the text (stable across runs)."""
    return "test" if hashlib.sha256(text.encode()).digest()[0] % 2 else "dev"


def synthesise(engine: str, voice: str, speed: float, text: str, out: Path) -> None:
    """Speak ``text`` into a 16 kHz mono 16-bit WAV."""
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "raw.wav"
        if engine == "espeak":
            subprocess.run(["espeak-ng", "-v", voice, "-s", str(int(speed)), "-w", str(raw),
                            text], check=True)  # fmt: skip
            tempo: list[str] = []
        elif engine == "kokoro":  # a neural voice (bench/kokoro_voice.py)
            kokoro_voice.say(voice, text, speed, raw)
            tempo = []
        elif engine == "piper":  # another neural family (bench/piper_voice.py)
            piper_voice.say(voice, text, speed, raw, random.Random(f"{voice} {out.name}"))
            tempo = []
        elif engine == "flite":
            subprocess.run(["flite", "-voice", voice, "-t", text, "-o", str(raw)], check=True)
            tempo = [] if speed == 1.0 else ["tempo", str(speed)]
        else:
            subprocess.run(["text2wave", "-eval", f"(voice_{voice})", "-o", str(raw)],
                           input=text.encode("latin-1", "replace"), check=True)  # fmt: skip
            tempo = [] if speed == 1.0 else ["tempo", str(speed)]
        out.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["sox", str(raw), "-r", str(RATE), "-c", "1", "-b", "16", str(out),
                        *tempo, "pad", "0.3", "0.5"], check=True)  # fmt: skip


def read(path: Path) -> array[int]:
    with wave.open(str(path)) as w:
        samples = array("h")
        samples.frombytes(w.readframes(w.getnframes()))
    return samples


def write(path: Path, samples: array[int]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(samples.tobytes())


def power(samples: array[int]) -> float:
    return sum(s * s for s in samples) / max(1, len(samples))


def mix(speech: array[int], noise: array[int], snr: float, offset: int) -> array[int]:
    """Speech plus noise scaled to ``snr`` dB against the speech's power (speech frames)."""
    voiced = array("h", (s for s in speech if abs(s) > 300)) or speech
    scale = (power(voiced) / max(1.0, power(noise)) / 10 ** (snr / 10)) ** 0.5
    out = array("h", bytes(2 * len(speech)))
    for i, s in enumerate(speech):
        v = s + scale * noise[(i + offset) % len(noise)]
        out[i] = max(-32768, min(32767, int(v)))
    return out


def coloured_noise(colour: str, seconds: float, out: Path) -> None:
    subprocess.run(["sox", "-n", "-r", str(RATE), "-c", "1", "-b", "16", str(out), "synth",
                    str(seconds), f"{colour}noise"], check=True)  # fmt: skip


def babble(utterances: list[array[int]], rng: random.Random, seconds: float) -> array[int]:
    """Several other utterances on top of each other, as a crowded table sounds."""
    n = int(seconds * RATE)
    acc = [0.0] * n
    for _ in range(6):
        start = rng.randrange(n)
        for u in rng.sample(utterances, k=min(4, len(utterances))):
            for i, s in enumerate(u):
                acc[(start + i) % n] += s
            start = (start + len(u)) % n
    peak = max(1.0, max(abs(x) for x in acc))
    return array("h", (int(x * 12000 / peak) for x in acc))


def texts_of(lang: str) -> list[str]:
    """A language's texts from ``bench/voice_texts/<lang>.txt`` (one per line)."""
    path = ROOT / "bench" / "voice_texts" / f"{lang}.txt"
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--lang", choices=sorted(VOICES_BY_LANG), default="en")
    ap.add_argument("--conditions", default="", help="comma-separated (default: all)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    lang = args.lang
    conditions = [f"{n}{snr}" for n in NOISES for snr in SNRS]
    if args.conditions:
        conditions = [c for c in args.conditions.split(",") if c != "clean"]
    said = TEXTS if lang == "en" else texts_of(lang)
    texts = []
    for text in said:
        try:
            texts.append((text, parse(text, lang).notation()))
        except AnnouncementError as err:
            print(f"skipped {text!r}: {err}", file=sys.stderr)
    for split in ("dev", "test"):
        folder = args.out / split
        items = []
        mine = [(t, e) for t, e in texts if split_of(t) == split]
        for n, (text, expect) in enumerate(mine):
            voices = VOICES_BY_LANG[lang][split]
            engine, voice, speed = voices[n % len(voices)]
            name = f"{split}-{n:03d}"
            synthesise(engine, voice, speed, text, folder / "clean" / f"{name}.wav")
            items.append({"id": name, "lang": lang, "text": text, "expect": expect,
                          "voice": f"{engine}:{voice}", "speed": speed})  # fmt: skip
        clean = {i["id"]: read(folder / "clean" / f"{i['id']}.wav") for i in items}
        noises = {}
        with tempfile.TemporaryDirectory() as tmp:
            for colour in ("pink", "brown"):
                path = Path(tmp) / f"{colour}.wav"
                coloured_noise(colour, 20, path)
                noises[colour] = read(path)
        noises["babble"] = babble(list(clean.values()), rng, 20)
        manifest = []
        for item in items:
            manifest.append({**item, "audio": f"clean/{item['id']}.wav", "condition": "clean"})
            for cond in conditions:
                noise, snr = (
                    cond.rstrip("0123456789"),
                    int(cond.lstrip("abcdefghijklmnopqrstuvwxyz")),
                )
                mixed = mix(clean[item["id"]], noises[noise], snr, rng.randrange(10 * RATE))
                write(folder / cond / f"{item['id']}.wav", mixed)
                manifest.append(
                    {
                        **item,
                        "id": f"{item['id']}-{cond}",
                        "audio": f"{cond}/{item['id']}.wav",
                        "condition": cond,
                    }
                )
        (folder / "manifest.jsonl").write_text(
            "".join(json.dumps(m) + "\n" for m in manifest), encoding="utf-8"
        )
        print(f"{split}: {len(items)} texts, {len(manifest)} files in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
