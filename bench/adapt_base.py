"""Adapt PocketSphinx's US-English model to French, Italian or English speech, for the
means and variances callbets ships (``callbets/speech/engines/acoustic/<lang>/``).

The recordings are the dev splits of ``bench/voice_data.py`` (clean and with pink noise
at 15 dB): synthetic voices, so the shipped model has learnt those voices' French,
Italian or English, not a croupier's; ``callbets enrol`` adapts it to a croupier's own
recordings.  Measure it on the test split, whose texts and voices it never heard.

    python bench/voice_data.py /tmp/vd/fr --lang fr --conditions clean,pink15
    python bench/adapt_base.py fr /tmp/vd/fr/dev

``--out`` writes elsewhere than the shipped folder (to compare variants), ``--voices``
keeps only the recordings of voices whose name starts with one of its prefixes
(``--voices flite,festival``).

English ships no adapted model: the wheel's model was trained on real English, and
adapting it to synthetic voices only teaches it those voices.  Measured 2026-12-02 on
the English test split (6 conditions, 300 files): unadapted 30 % first readings exact;
MAP on the dev split (114 recordings) 25 % (flite/festival clean 86 -> 64 %); MLLR 29 %;
MAP with ``--tau 100`` 28 %; MAP on ~900 recordings of 14 dev-only voices 26 % (unseen
espeak-ng voices clean 32 -> 45 %, festival clean 93 -> 57 %).  On the only real human
English on the machine (TIMIT's sa1.wav in sphinxtrain's tests and alsa-utils' 8 spoken
channel names, 27 words, general language model) word errors were 11 unadapted, 10 MAP,
12 MLLR, 21 with the broad set; phone errors 45, 65, 49 and 74 of 95.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from callbets.language.normalize import words
from callbets.speech.adapt import Recording, adapt
from callbets.speech.engines.sphinx import PocketSphinxEngine, shipped_model, wheel_model

CONDITIONS = ("clean", "pink15")


def recordings(split: Path, known: set[str], voices: tuple[str, ...] = ("",)) -> list[Recording]:
    """The split's recordings whose every word the dictionary spells (of the voices whose
    name starts with one of ``voices``)."""
    out = []
    for line in (split / "manifest.jsonl").read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        said = tuple(w.text for w in words(item["text"]) if w.text.replace("'", "").isalpha())
        heard = item.get("voice", "").startswith(voices)
        if item["condition"] in CONDITIONS and set(said) <= known and heard:
            out.append(Recording(split / item["audio"], said))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("lang", choices=["en", "fr", "it"])
    ap.add_argument("splits", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, help="folder to write (default: the shipped one)")
    ap.add_argument("--voices", default="", help="comma-separated voice name prefixes")
    ap.add_argument("--method", choices=["map", "mllr"], default="map")
    ap.add_argument("--tau", type=float, help="MAP: a fixed prior weight (default: Bayesian)")
    args = ap.parse_args()
    voices = tuple(args.voices.split(",")) if args.voices else ("",)
    engine = PocketSphinxEngine(args.lang)
    dictionary = engine.dictionary
    known = {line.split()[0].split("(")[0] for line in dictionary.read_text().splitlines()}
    recs = [r for split in args.splits for r in recordings(split, known, voices)]
    out = args.out or shipped_model(args.lang)
    adapt(wheel_model(), dictionary, recs, out,
          step=lambda name: print(f"{name}…", file=sys.stderr),
          method=args.method, tau=args.tau)  # fmt: skip
    (out / "adapt.log").unlink()
    print(f"{args.lang}: adapted on {len(recs)} recordings into {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
