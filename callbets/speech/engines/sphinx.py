"""PocketSphinx: English recognition with the model inside the ``pocketsphinx`` wheel.

The search is constrained by a trigram language model counted from the grammar's own
generated announcements (:mod:`callbets.speech.lm`), not by a JSGF grammar: measured on
the dev set, the JSGF search was slower (about 2 s per utterance, all after the end of
speech), could not say a quarter of what the parser reads without growing slower still,
and broke down in noise; the n-gram search decodes while the croupier speaks at about
0.06 × real time, and legality is left to the parser over the n-best list.  Filler
models (silence, breath, noise) stay on, and word confidences are posteriors from the
lattice.  The dictionary holds only the model's words: cmudict's pronunciations, plus
``en-extra.dict`` for the French names English croupiers use.
"""

from __future__ import annotations

import hashlib
import os
from importlib import resources
from pathlib import Path
from typing import Any

from .. import SpeechUnavailable
from ..lm import arpa_file, arpa_words, write_atomically
from .base import Candidate, Hearing

EXTRA_DICT = "en-extra.dict"
"""Pronunciations (CMU phones) of the words cmudict lacks, shipped with callbets."""
N_BEST = 10
"""Alternatives read from the lattice."""


def extra_pronunciations() -> list[tuple[str, str]]:
    """(word, phones) pairs; ``word(2)`` lines are extra pronunciations of a word."""
    text = (resources.files(__package__) / EXTRA_DICT).read_text(encoding="utf-8")
    out = []
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            word, phones = line.split(None, 1)
            out.append((word, phones.strip()))
    return out


def pronunciations(words: set[str], cmudict: Path) -> dict[str, list[str]]:
    """Every pronunciation of each word: cmudict's, then callbets' own extra ones."""
    found: dict[str, list[str]] = {}
    with cmudict.open(encoding="utf-8") as f:
        for line in f:
            word, _, phones = line.partition(" ")
            base = word.split("(")[0]
            if base in words:
                found.setdefault(base, []).append(phones.strip())
    for word, phones in extra_pronunciations():
        base = word.split("(")[0]
        if base in words and ("(" in word or base not in found):
            found.setdefault(base, []).append(phones)
    return found


def dictionary_text(found: dict[str, list[str]]) -> str:
    """A PocketSphinx dictionary: ``word phones``, then ``word(2) phones`` …"""
    lines = []
    for word in sorted(found):
        for k, phones in enumerate(dict.fromkeys(found[word]), start=1):
            lines.append(f"{word}{'' if k == 1 else f'({k})'} {phones}")
    return "\n".join(lines) + "\n"


def _dictionary(arpa: Path, cmudict: Path) -> Path:
    """The decoder's dictionary for the words of ``arpa``, cached beside it under a key of
    the model, cmudict and the extra pronunciations (a start then reads neither the
    130,000 lines of cmudict nor counts the model).

    :raises SpeechUnavailable: a word of the model has no pronunciation.
    """
    extra = (resources.files(__package__) / EXTRA_DICT).read_bytes()
    key = hashlib.sha256(arpa.name.encode() + extra + str(cmudict.stat().st_size).encode())
    path = arpa.parent / f"{arpa.stem}-{key.hexdigest()[:16]}.dict"
    if path.is_file():
        return path
    vocabulary = set(arpa_words(arpa))
    found = pronunciations(vocabulary, cmudict)
    missing = sorted(vocabulary - set(found))
    if missing:
        raise SpeechUnavailable(
            f"PocketSphinx has no pronunciation for: {', '.join(missing)} "
            f"(add them to callbets/speech/engines/{EXTRA_DICT})"
        )
    write_atomically(path, dictionary_text(found))
    return path


class PocketSphinxEngine:
    """English recognition, decoding while the audio arrives."""

    name = "pocketsphinx"

    def __init__(self, lang: str = "en") -> None:
        if lang != "en":
            raise SpeechUnavailable(
                f"PocketSphinx ships only an English model; for '{lang}' use --engine vosk"
            )
        try:
            from pocketsphinx import Decoder, get_model_path  # optional (the speech extra)
        except ImportError as err:
            raise SpeechUnavailable(
                "PocketSphinx is not installed: pip install 'callbets[speech]'"
            ) from err
        self.lang = lang
        base = Path(get_model_path()) / "en-us"
        arpa = arpa_file(lang)
        dict_path = _dictionary(arpa, base / "cmudict-en-us.dict")
        self.decoder: Any = Decoder(
            hmm=str(base / "en-us"),
            dict=str(dict_path),
            lm=str(arpa),
            logfn=os.devnull,
            bestpath=True,
        )

    def open(self) -> SphinxUtterance:
        """Start decoding an utterance."""
        return SphinxUtterance(self.decoder, self.name)


class SphinxUtterance:
    """One utterance on the engine's decoder (one at a time)."""

    def __init__(self, decoder: Any, engine: str) -> None:
        self.decoder, self.engine = decoder, engine
        decoder.start_utt()

    def feed(self, pcm: bytes) -> None:
        """Decode more audio."""
        self.decoder.process_raw(pcm, False, False)

    def partial(self) -> str:
        """The best words so far."""
        hyp = self.decoder.hyp()
        return str(hyp.hypstr) if hyp is not None else ""

    def finish(self) -> Hearing:
        """End the utterance: best path with word posteriors, then the n-best list."""
        d = self.decoder
        d.end_utt()
        hyp = d.hyp()
        if hyp is None or not hyp.hypstr.strip():
            return Hearing((), self.engine)
        posteriors = tuple(
            (seg.word.split("(")[0], min(1.0, float(seg.prob)))
            for seg in d.seg()
            if not seg.word.startswith(("<", "["))
        )
        found = [Candidate(hyp.hypstr, float(hyp.score), posteriors)]
        for _, alt in zip(range(N_BEST), d.nbest(), strict=False):
            text = alt.hypstr if alt is not None else ""
            if text and text not in (c.text for c in found):
                found.append(Candidate(text, float(alt.score)))
        return Hearing(tuple(found), self.engine)
