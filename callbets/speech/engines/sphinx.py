"""PocketSphinx: recognition with the model inside the ``pocketsphinx`` wheel.

The wheel's acoustic model is US-English.  English words are spelled from its cmudict
(plus ``en-extra.dict``); French and Italian words from ``fr.dict`` and ``it.dict``,
written in the same phones from espeak-ng's phonemes (:mod:`.phones`), so those
languages need nothing downloaded either.

The search is constrained by a trigram language model counted from the grammar's own
generated announcements (:mod:`callbets.speech.lm`), not by a JSGF grammar: measured on
the dev set, the JSGF search was slower (about 2 s per utterance, all after the end of
speech), could not say a quarter of what the parser reads without growing slower still,
and broke down in noise; the n-gram search decodes while the croupier speaks at about
0.06 × real time, and legality is left to the parser over the n-best list.  Filler
models (silence, breath, noise) stay on, and word confidences are posteriors from the
lattice.  The decoder's dictionary holds only the language model's words.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from ...language.grammar import language
from ...language.lexicon import Lexicon
from .. import SpeechUnavailable
from ..croupiers import folder as croupier_folder
from ..lm import arpa_file, arpa_words, write_atomically
from .base import Candidate, Hearing

EXTRA_DICT = "en-extra.dict"
"""Pronunciations (CMU phones) of the words cmudict lacks, shipped with callbets."""
LEXICONS = {
    # cmudict (inside the wheel's model folder) then callbets' extra words for English;
    # for French and Italian, the words spelled in the same phones by `phones.py`
    "en": ("cmudict-en-us.dict", EXTRA_DICT),
    "fr": ("fr.dict",),
    "it": ("it.dict",),
}
"""Where each language's pronunciations come from, in order (a later file adds a word's
other pronunciations, or a word the earlier ones lack)."""
N_BEST = 10
"""Alternatives read from the lattice."""
SEARCH: dict[str, Any] = {
    "fwdflat": False,
    "lw": 8.5,
    "beam": 1e-70,
    "wbeam": 1e-40,
    "pbeam": 1e-70,
    "lpbeam": 1e-50,
    "lponlybeam": 1e-35,
}
"""One streaming pass, with wider beams.  PocketSphinx's default second pass (``fwdflat``)
runs over the whole utterance once it has ended: 73 ms (clean) to 113 ms (pink 15 dB) of
the decision's median after the end of speech, against 3.5 ms without it.  Its language
weight (8.5, the second pass's) and beams twice as wide (in log) win back what it gave:
on the English dev split (clean, pink and brown 15 dB, pink 5 dB: 228 files) 68 % first
readings exact with the second pass and 68 % without; the test split (200 files) 42 %
and 42 %; babble at 10 and 15 dB no worse (dev 10 → 17 %, test 1 → 1 %); French 74 → 76 %
and Italian 67 → 66 % (test splits); no wrong bet accepted in any; and less computing
(0.15 → 0.13 × real time on the English splits)."""
SURE_ENOUGH = 0.85
"""The weakest bet word's confidence from which a reading is heard a second time (the
lowest any policy accepts: :data:`callbets.speech.decide.POLICIES`)."""


def dictionary_lines(path: Path) -> list[tuple[str, str]]:
    """(word, phones) pairs of a dictionary file; ``word(2)`` lines are a word's other
    pronunciations, ``#`` lines are comments."""
    out = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                word, phones = line.split(None, 1)
                out.append((word, phones.strip()))
    return out


def lexicon_files(lang: str, model_dir: Path) -> list[Path]:
    """The dictionary files of a language: in the model's folder, else shipped here."""
    here = Path(str(resources.files(__package__)))
    return [model_dir / n if (model_dir / n).is_file() else here / n for n in LEXICONS[lang]]


def pronunciations(words: set[str], files: list[Path]) -> dict[str, list[str]]:
    """Every pronunciation of each word, from the files in order: the first file that
    has a word gives its pronunciations; a later one adds its ``word(2)`` lines."""
    found: dict[str, list[str]] = {}
    for k, path in enumerate(files):
        had = set(found)
        for word, phones in dictionary_lines(path):
            base = word.split("(")[0]
            if base in words and (k == 0 or "(" in word or base not in had):
                found.setdefault(base, []).append(phones)
    return found


def dictionary_text(found: dict[str, list[str]]) -> str:
    """A PocketSphinx dictionary: ``word phones``, then ``word(2) phones`` …"""
    lines = []
    for word in sorted(found):
        for k, phones in enumerate(dict.fromkeys(found[word]), start=1):
            lines.append(f"{word}{'' if k == 1 else f'({k})'} {phones}")
    return "\n".join(lines) + "\n"


def _dictionary(arpa: Path, files: list[Path]) -> Path:
    """The decoder's dictionary for the words of ``arpa``, cached beside it under a key of
    the model and the dictionary files (a start then reads neither the 130,000 lines of
    cmudict nor counts the model).

    :raises SpeechUnavailable: a word of the model has no pronunciation.
    """
    key = hashlib.sha256(arpa.name.encode())
    for path in files:
        key.update(path.name.encode() + str(path.stat().st_size).encode())
        key.update(b"" if path.name.startswith("cmudict") else path.read_bytes())
    out = arpa.parent / f"{arpa.stem}-{key.hexdigest()[:16]}.dict"
    if out.is_file():
        return out
    vocabulary = set(arpa_words(arpa))
    found = pronunciations(vocabulary, files)
    missing = sorted(vocabulary - set(found))
    if missing:
        raise SpeechUnavailable(
            f"PocketSphinx has no pronunciation for: {', '.join(missing)} "
            f"(add them to {files[-1]}, or write it again: python -m "
            "callbets.speech.engines.phones LANG)"
        )
    write_atomically(out, dictionary_text(found))
    return out


def wheel_model() -> Path:
    """The acoustic model folder inside the ``pocketsphinx`` wheel.

    :raises SpeechUnavailable: PocketSphinx is not installed.
    """
    try:
        from pocketsphinx import get_model_path  # optional (the speech extra)
    except ImportError as err:
        raise SpeechUnavailable(
            "PocketSphinx is not installed: pip install 'callbets[speech]'"
        ) from err
    return Path(get_model_path()) / "en-us" / "en-us"


def shipped_model(lang: str) -> Path:
    """The folder of the means and variances callbets ships for a language (the wheel's
    model adapted to it by ``bench/adapt_base.py``); it may not exist."""
    return Path(str(resources.files(__package__))) / "acoustic" / lang


MODEL_NOTE = {
    "en": "US-English model inside the pocketsphinx package",
    "fr": "US-English model inside the pocketsphinx package, French words in its phones",
    "it": "US-English model inside the pocketsphinx package, Italian words in its phones",
}
"""What ``model_name`` says for each language."""


@contextmanager
def mean_kept(decoder: Any) -> Iterator[None]:
    """The decoder's live cepstral mean, put back as it was after the block (audio heard
    again is not learnt twice)."""
    learnt = decoder.get_cmn(False)
    try:
        yield
    finally:
        decoder.set_cmn(learnt)


class PocketSphinxEngine:
    """Recognition with the wheel's acoustic model, decoding while the audio arrives."""

    name = "pocketsphinx"

    def __init__(self, lang: str = "en", croupier: str | None = None) -> None:
        """The engine of a language; with ``croupier``, his enrolled model (see
        :mod:`callbets.speech.croupiers`).

        :raises SpeechUnavailable: no pronunciations for the language, or no PocketSphinx.
        """
        if lang not in LEXICONS:
            raise SpeechUnavailable(f"PocketSphinx has no pronunciations for '{lang}'")
        try:
            from pocketsphinx import Decoder, get_model_path  # optional (the speech extra)
        except ImportError as err:
            raise SpeechUnavailable(
                "PocketSphinx is not installed: pip install 'callbets[speech]'"
            ) from err
        self.lang = lang
        self.model_name = MODEL_NOTE[lang]
        base = Path(get_model_path()) / "en-us"
        arpa = arpa_file(lang)
        self.dictionary = _dictionary(arpa, lexicon_files(lang, base))
        adapted = croupier_folder(croupier, lang) if croupier else shipped_model(lang)
        extra = {}
        if (adapted / "means").is_file():
            extra = {"mean": str(adapted / "means"), "var": str(adapted / "variances")}
        if (adapted / "mllr_matrix").is_file():
            extra["mllr"] = str(adapted / "mllr_matrix")
        self.suppress_noise = True  # gated: only where the room is noisy (base.Engine)
        if extra:
            whose = f"croupier {croupier}" if croupier else f"{lang} speech"
            self.model_name += f", adapted to {whose} ({adapted})"
        self.decoder: Any = Decoder(
            hmm=str(base / "en-us"),
            dict=str(self.dictionary),
            lm=str(arpa),
            logfn=os.devnull,
            bestpath=True,
            **SEARCH,
            **extra,
        )
        self._mean_known = False

    def learn(self, pcm: bytes) -> None:
        """Start the features afresh and take in the recording's cepstral mean (a few
        milliseconds: no search).  Decoded from the model's initial mean instead, a file
        heard alone is heard worse: the English test split, each of its 200 files alone,
        36 % first readings exact before, 44 % after (pink noise at 15 dB 28 → 46 %), no
        wrong bet accepted either way."""
        self.decoder.reinit_feat()
        self.decoder.start_utt()
        self.decoder.process_raw(pcm, True, True)  # no search, the whole recording
        self.decoder.end_utt()
        self._mean_known = True

    def hear_again(self, pcm: bytes) -> Hearing:
        """Decode audio already heard as one utterance; the mean is put back as it was."""
        with mean_kept(self.decoder):
            utterance = SphinxUtterance(self.decoder, self.name, language(self.lang).lexicon)
            utterance.feed(pcm, whole=True)
            return utterance.finish()

    def open(self) -> SphinxUtterance:
        """Start decoding an utterance.  The first of a stream whose mean was not learned
        (:meth:`learn`) is heard a second time once it has ended (see
        :meth:`SphinxUtterance.finish`)."""
        again = not self._mean_known
        self._mean_known = True  # the live mean learns from each utterance from now on
        return SphinxUtterance(self.decoder, self.name, language(self.lang).lexicon, again)


class SphinxUtterance:
    """One utterance on the engine's decoder (one at a time)."""

    def __init__(self, decoder: Any, engine: str, lexicon: Lexicon, again: bool = False) -> None:
        self.decoder, self.engine, self.lexicon = decoder, engine, lexicon
        self.again = again
        """Hear the whole utterance again once it has ended: the first of a stream is
        decoded with the model's initial cepstral mean, which the croupier's microphone and
        voice are far from ("cancel that" after a second of silence was heard "odd total
        of" in one pass, "cancel that" heard again)."""
        self.audio = bytearray()
        decoder.start_utt()

    def feed(self, pcm: bytes, whole: bool = False) -> None:
        """Decode more audio (``whole``: all of the utterance's audio at once)."""
        self.audio += pcm
        self.decoder.process_raw(pcm, False, whole)

    def partial(self) -> str:
        """The best words so far."""
        hyp = self.decoder.hyp()
        return str(hyp.hypstr) if hyp is not None else ""

    def reading(self) -> str:
        """The best path through the lattice of the words so far, as :meth:`finish` reads
        it (5–8 ms).  :meth:`partial` is the search's best word exit so far, which the
        final reading often betters once the lattice is searched with the whole trigram
        model: "with his five" during the pause, "voisins by five" once finished."""
        best = next(iter(self.decoder.nbest() or ()), None)  # None: no lattice yet
        return str(best.hypstr) if best is not None else self.partial()

    def finish(self) -> Hearing:
        """End the utterance (and hear it again, the first of a stream: ``again``): best path
        with word posteriors, then the n-best list."""
        d = self.decoder
        d.end_utt()
        if self.again and self.audio:  # now that the mean has learnt it; the mean is kept
            with mean_kept(d):  # as it was, so that it learns the utterance once
                self._decode_whole()
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
        again = None if self.again else self._second_look(posteriors)  # heard twice already
        return Hearing(tuple(found), self.engine, second_look=again)

    def _second_look(self, words: tuple[tuple[str, float], ...]) -> str | None:
        """The same audio decoded again, as a whole, now that the decoder's cepstral mean
        has learnt this utterance (the first pass adapts it while the croupier speaks,
        and a first utterance is heard with the model's default level: "by two" was
        heard as "by fifty", every word sure).  Only for readings sure enough to be
        accepted (None for the others: they are asked anyway)."""
        bet = [c for w, c in words if self.lexicon.carries_bet(w)]
        if not bet or min(bet) < SURE_ENOUGH:
            return None
        self._decode_whole()
        hyp = self.decoder.hyp()
        return " ".join(str(hyp.hypstr).split()) if hyp is not None else ""

    def _decode_whole(self) -> None:
        """Decode the utterance's audio again, whole, as a new utterance."""
        self.decoder.start_utt()
        self.decoder.process_raw(bytes(self.audio), False, True)
        self.decoder.end_utt()
