"""French and Italian pronunciations in the phones of PocketSphinx's US-English model.

PocketSphinx's wheel ships one acoustic model, trained on American English.  It can
still hear French and Italian when every word is spelled in its phones: this module
writes ``fr.dict`` and ``it.dict`` (shipped beside it, like ``en-extra.dict``) from
espeak-ng's phonemes, each IPA phoneme mapped to the nearest ARPAbet phone.  espeak-ng
is needed only to write the files, never at run time::

    python -m callbets.speech.engines.phones fr it

A word gets several pronunciations where it has several at the table:

* as said alone, before a vowel and before a consonant (French liaison and elision:
  "deux" /dø/ and /døz/, "six" /sis/, /siz/ and /si/), from espeak-ng reading the word in
  the contexts of :data:`CONTEXTS`;
* each accented spelling the grammar files use for it ("cote": "côte" and "côté");
* at Italian tables, a word the French grammar also has, the French way too (an Italian
  croupier says "voisins" and "tiers" as the French do);
* a phoneme with two near phones (:data:`IPA_TO_ARPABET`) in both.
"""

from __future__ import annotations

import argparse
import itertools
import re
import shutil
import subprocess
import sys
from pathlib import Path

from ..._resources import grammar_dir
from ...language.normalize import fold
from ..phrases import words

HERE = Path(__file__).resolve().parent
MAX_VARIANTS = 6
"""Pronunciations kept per word (each one widens the search)."""

CONTEXTS = {
    # the word alone, before a vowel, before a consonant: what espeak-ng reads of the
    # word itself ("{}" is the word) in each
    "fr": ("{}", "{} euros", "{} pièces"),
    "it": ("{}",),
}
"""The contexts each language's words are read in (their pronunciations differ)."""

IPA_TO_ARPABET: dict[str, tuple[str, ...]] = {
    # vowels: the nearest American vowel; a vowel English lacks gets its two neighbours
    "a": ("AA",), "ɑ": ("AA",), "æ": ("AE",), "ɐ": ("AH",), "ə": ("AH",),
    "e": ("EY",), "ɛ": ("EH",), "i": ("IY",), "ɪ": ("IY",), "o": ("OW",),
    "ɔ": ("AO",), "u": ("UW",), "ʊ": ("UH",), "y": ("IY", "UW"),
    "ø": ("ER", "UH"), "œ": ("ER", "AH"),
    # French nasal vowels: the vowel and a nasal (English has no nasal vowel)
    "ɛ̃": ("AE N", "EH N"), "ɑ̃": ("AA N", "AO N"), "ɔ̃": ("OW N", "AO N"), "œ̃": ("AH N",),
    # diphthongs espeak-ng writes in words it reads as foreign
    "aɪ": ("AY",), "aʊ": ("AW",), "ɔɪ": ("OY",), "eɪ": ("EY",), "oʊ": ("OW",),
    # consonants
    "b": ("B",), "d": ("D",), "f": ("F",), "ɡ": ("G",), "g": ("G",), "h": ("HH",),
    "k": ("K",), "l": ("L",), "m": ("M",), "n": ("N",), "ŋ": ("NG",), "p": ("P",),
    "s": ("S",), "t": ("T",), "v": ("V",), "z": ("Z",), "ʃ": ("SH",), "ʒ": ("ZH",),
    "j": ("Y",), "w": ("W",), "ɥ": ("W",), "x": ("HH",), "θ": ("TH",), "ð": ("DH",),
    "tʃ": ("CH",), "dʒ": ("JH",), "ts": ("T S",), "dz": ("D Z",),
    "ɲ": ("N Y",), "ʎ": ("L Y",),
    # the French uvular R is heard as the English R or, being a fricative, as an H
    # (measured on the French dev voices: 9 → 11 of 54 first readings); the Italian
    # trill and tap: English has only its own R
    "ʁ": ("R", "HH"), "r": ("R",), "ɾ": ("R",), "ɹ": ("R",),
}  # fmt: skip
"""Each IPA phoneme espeak-ng writes, and the ARPAbet phones it may be heard as."""

IGNORED_MARKS = "ˈˌː-_ "
"""Stress, length, liaison and word marks: the model's phones carry none of them."""


def arpabet(ipa: str) -> list[str]:
    """Every ARPAbet spelling of an IPA string (longest phonemes first).

    :raises ValueError: a phoneme :data:`IPA_TO_ARPABET` lacks.
    """
    keys = sorted(IPA_TO_ARPABET, key=len, reverse=True)
    choices: list[tuple[str, ...]] = []
    at = 0
    while at < len(ipa):
        if ipa[at] in IGNORED_MARKS:
            at += 1
            continue
        key = next((k for k in keys if ipa.startswith(k, at)), None)
        if key is None:
            raise ValueError(f"no ARPAbet phone for {ipa[at]!r} in {ipa!r}")
        choices.append(IPA_TO_ARPABET[key])
        at += len(key)
    return [" ".join(p) for p in itertools.islice(itertools.product(*choices), MAX_VARIANTS)]


def espeak_ipa(texts: list[str], lang: str) -> list[str]:
    """espeak-ng's IPA of each text (one espeak-ng run for them all)."""
    run = subprocess.run(
        ["espeak-ng", "-q", "--ipa", "-v", lang],
        input="\n\n".join(texts),
        capture_output=True,
        text=True,
        check=True,
    )
    lines = [line.strip() for line in run.stdout.splitlines() if line.strip()]
    if len(lines) != len(texts):
        raise RuntimeError(f"espeak-ng read {len(texts)} texts as {len(lines)} lines")
    return lines


def espeak_text(word: str) -> str:
    """What espeak-ng is given for a word: an elided word ("l'", "dell'") with an "a"
    after it, so it is read as a sound, not as a letter's name."""
    return word[:-1] + "a" if word.endswith("'") else word


def said_ipa(word: str, ipa: str) -> str:
    """The IPA of the word itself, from the IPA of its spoken form (an elided word loses
    the "a" it was read with)."""
    first = re.sub(r"\([a-z-]+\)", "", ipa).split()[0]  # espeak-ng's "(en)" switches
    return first.rstrip("aɑ-") if word.endswith("'") else first


def spellings(lang: str) -> dict[str, set[str]]:
    """Each folded word of a language's grammar files, and the spellings written there
    ("zero": "zéro"; "cote": "côte", "côté")."""
    found: dict[str, set[str]] = {}
    names = [f"{lang}.lark", "shared.lark", "dialogue.toml", "readback.toml", "console.toml"]
    for name in names:
        text = (grammar_dir() / name).read_text(encoding="utf-8")
        for written in re.findall(r"[^\W\d_]+'?", text.lower()):
            found.setdefault(fold(written), set()).add(written)
    return found


def pronunciations(words: list[str], lang: str, also: str | None) -> dict[str, list[str]]:
    """Every pronunciation of each word in ARPAbet (see the module docstring)."""
    written = spellings(lang)
    shared = set(words_of(also)) if also else set()
    readings: list[tuple[str, str, str]] = []  # (word, espeak voice, text read)
    for word in words:
        forms = {word} | {w for w in written.get(word, ()) if not w.isascii()}
        contexts = CONTEXTS[lang][:1] if word.endswith("'") else CONTEXTS[lang]
        for form, context in itertools.product(sorted(forms), contexts):
            readings.append((word, lang, context.format(espeak_text(form))))
        if also and word in shared:
            readings.append((word, also, espeak_text(word)))
    found: dict[str, list[str]] = {}
    for voice in dict.fromkeys(v for _, v, _ in readings):  # the language's own first
        mine = [r for r in readings if r[1] == voice]
        for (word, _, _), ipa in zip(mine, espeak_ipa([t for *_, t in mine], voice), strict=True):
            for phones in arpabet(said_ipa(word, ipa)):
                if phones not in found.setdefault(word, []):
                    found[word].append(phones)
    return {w: p[:MAX_VARIANTS] for w, p in found.items()}


def dictionary_file(lang: str) -> Path:
    """Where a language's shipped pronunciations are."""
    return HERE / f"{lang}.dict"


def write_dictionary(lang: str, words: list[str], also: str | None) -> Path:
    """Write ``<lang>.dict`` for these words."""
    found = pronunciations(words, lang, also)
    lines = [
        f"# {lang}: pronunciations in the CMU phones of PocketSphinx's US-English model,",
        "# written by `python -m callbets.speech.engines.phones` from espeak-ng's phonemes.",
        "# Do not edit by hand: change the mapping in phones.py and write it again.",
    ]
    for word in sorted(found):
        for k, phones in enumerate(found[word], start=1):
            lines.append(f"{word}{'' if k == 1 else f'({k})'} {phones}")
    path = dictionary_file(lang)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


OTHER = {"it": "fr"}
"""The language whose pronunciation a word both grammars have also gets: the bets'
French names ("voisins", "tiers", "cheval") at Italian tables."""


def words_of(lang: str) -> list[str]:
    """The words a language's recognisers must know (its language model's words)."""
    return words(lang)


def main(argv: list[str] | None = None) -> int:
    """Write the dictionaries of the languages given."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("langs", nargs="+", choices=sorted(CONTEXTS))
    args = ap.parse_args(argv)
    if shutil.which("espeak-ng") is None:
        print("espeak-ng is not installed (apt-get install espeak-ng)", file=sys.stderr)
        return 2
    for lang in args.langs:
        path = write_dictionary(lang, words_of(lang), OTHER.get(lang))
        print(f"{lang}: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
