"""Recognisers behind one small interface: audio in, an n-best list of texts out.

* :class:`PocketSphinxEngine`: English out of the box (the ``pocketsphinx`` wheel ships a
  US-English model), constrained by a JSGF grammar generated from ``grammar/en.lark``,
  with a pronunciation dictionary for the French names English croupiers use.
* :class:`VoskEngine`: French, Italian and English with a local model directory, never
  downloaded; constrained by a phrase list generated from the grammar.  On start it
  checks every grammar word against the model's lexicon and refuses models that cannot
  take runtime grammars.

Neither engine is thread-safe: use one per thread.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

from . import SpeechUnavailable
from .audio import trim_silence
from .phrases import jsgf, phrase_list, words


@dataclass(frozen=True)
class Candidate:
    """One thing the recogniser may have heard."""

    text: str
    """The words, lowercase."""
    score: float
    """The engine's score (higher is better; only comparable within one utterance)."""
    words: tuple[tuple[str, float], ...] = ()
    """Each word with its confidence (0 to 1), where the engine gives them."""

    @property
    def weakest(self) -> float | None:
        """The lowest word confidence, or None when the engine gave none."""
        return min((c for _, c in self.words), default=None) if self.words else None


@dataclass(frozen=True)
class Hearing:
    """What an engine made of one utterance, best first."""

    candidates: tuple[Candidate, ...]
    """The n-best list (may be empty: nothing heard)."""
    engine: str = ""
    """Which engine heard it."""
    notes: tuple[str, ...] = field(default=())
    """Anything the engine wants the user to know (missing words…)."""

    @property
    def best(self) -> Candidate | None:
        """The first candidate."""
        return self.candidates[0] if self.candidates else None


class Engine(Protocol):
    """A recogniser of one language."""

    name: str
    lang: str

    def hear(self, pcm: bytes) -> Hearing:
        """Recognise one utterance of 16 kHz mono 16-bit PCM."""
        ...


# ---- PocketSphinx ------------------------------------------------------------------

EXTRA_DICT = "en-extra.dict"
"""Pronunciations (CMU phones) of the words cmudict lacks, shipped with callbets."""


def _extra_pronunciations() -> list[tuple[str, str]]:
    """(word, phones) pairs; ``word(2)`` lines are extra pronunciations of a word."""
    text = (resources.files("callbets.speech") / EXTRA_DICT).read_text(encoding="utf-8")
    out = []
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            word, phones = line.split(None, 1)
            out.append((word, phones.strip()))
    return out


class PocketSphinxEngine:
    """English recognition with the model inside the ``pocketsphinx`` wheel."""

    name = "pocketsphinx"

    def __init__(self, lang: str = "en") -> None:
        if lang != "en":
            raise SpeechUnavailable(
                f"PocketSphinx ships only an English model; for '{lang}' use --engine vosk"
            )
        try:
            from pocketsphinx import Decoder, get_model_path
        except ImportError as err:
            raise SpeechUnavailable(
                "PocketSphinx is not installed: pip install 'callbets[speech]'"
            ) from err
        self.lang = lang
        model = get_model_path()
        # No filler words between grammar words: silence inside an utterance cannot
        # swallow a word, and a failed search is a refusal rather than a guess.  The
        # edges of the audio are trimmed instead (see trim_silence).
        self.decoder: Any = Decoder(
            hmm=os.path.join(model, "en-us", "en-us"),
            dict=os.path.join(model, "en-us", "cmudict-en-us.dict"),
            logfn=os.devnull,
            bestpath=True,
            fsgusefiller=False,
        )
        self.missing = self._add_words()
        if self.missing:
            raise SpeechUnavailable(
                f"PocketSphinx has no pronunciation for: {', '.join(self.missing)} "
                f"(add them to callbets/speech/{EXTRA_DICT})"
            )
        # Two searches: one call (most announcements, and far fewer confusions) and up
        # to two calls joined by "and".
        self.decoder.add_jsgf_string("one", jsgf(lang, 1))
        self.decoder.add_jsgf_string("two", jsgf(lang, 2))

    def _add_words(self) -> list[str]:
        d = self.decoder
        for word, phones in _extra_pronunciations():
            base = word.split("(")[0]
            if "(" not in word:
                if d.lookup_word(base) is None:
                    d.add_word(base, phones, False)
                continue
            k = 2
            while d.lookup_word(f"{base}({k})") is not None:
                k += 1
            d.add_word(f"{base}({k})", phones, False)
        return [w for w in words(self.lang) if d.lookup_word(w) is None]

    def _decode(self, pcm: bytes, search: str, passes: int) -> list[Candidate]:
        d = self.decoder
        d.activate_search(search)
        for _ in range(passes):
            d.start_utt()
            d.process_raw(pcm, full_utt=True)
            d.end_utt()
        hyp = d.hyp()
        if hyp is None or not hyp.hypstr.strip():
            return []
        confidences = tuple(
            (seg.word.split("(")[0], min(1.0, float(seg.prob)))
            for seg in d.seg()
            if not seg.word.startswith(("<", "["))
        )
        found = [Candidate(hyp.hypstr, float(hyp.score), confidences)]
        for _, alt in zip(range(10), d.nbest(), strict=False):
            if alt is not None and alt.hypstr and alt.hypstr not in (c.text for c in found):
                found.append(Candidate(alt.hypstr, float(alt.score)))
        return found

    def hear(self, pcm: bytes) -> Hearing:
        """Decode one utterance with both searches; the best paths and their word posteriors.

        The first pass of the one-call search only adapts the cepstral mean to this voice
        (a cold decoder mishears the first utterance).  The two-call reading comes first
        when it really holds two calls; otherwise the one-call reading does.
        """
        pcm = trim_silence(pcm)
        one = self._decode(pcm, "one", passes=2)
        two = self._decode(pcm, "two", passes=1)
        first, second = (two, one) if two and _calls(two[0].text) > 1 else (one, two)
        merged: list[Candidate] = []
        for c in (*first, *second):
            if c.text not in (m.text for m in merged):
                merged.append(c)
        return Hearing(tuple(merged), self.name)


def _calls(text: str) -> int:
    """How many calls an English text parses to (0 when it does not parse)."""
    from ..errors import AnnouncementError
    from ..parse import parse

    try:
        return len(parse(text, "en").calls)
    except AnnouncementError:
        return 0


# ---- Vosk ----------------------------------------------------------------------------


def vosk_candidates(
    words_result: dict[str, Any], alternatives: dict[str, Any] | None
) -> list[Candidate]:
    """Candidates from Vosk's JSON: a result with per-word ``conf`` and an n-best list.

    ``words_result`` is what a recogniser with ``SetWords(True)`` returns
    (``{"result": [{"word", "conf", …}], "text": …}``); ``alternatives`` what one with
    ``SetMaxAlternatives(n)`` returns (``{"alternatives": [{"text", "confidence"}…]}``),
    whose scores are unnormalised and carry no word confidences.
    """
    best_text = str(words_result.get("text", "")).strip()
    confs = tuple((w["word"], float(w.get("conf", 1.0))) for w in words_result.get("result", []))
    out: list[Candidate] = []
    alts = (alternatives or {}).get("alternatives", [])
    top = float(alts[0].get("confidence", 0.0)) if alts else 0.0
    if best_text:
        out.append(Candidate(best_text, top, confs))
    for alt in alts:
        text = str(alt.get("text", "")).strip()
        if text and text not in (c.text for c in out):
            out.append(Candidate(text, float(alt.get("confidence", 0.0))))
    return out


def check_model_dir(path: Path) -> None:
    """Refuse, with the reason, a folder that is not a Vosk model taking runtime grammars.

    :raises SpeechUnavailable: missing folder, or a model with a static graph.
    """
    if not (path / "am").is_dir() and not (path / "conf").is_dir():
        raise SpeechUnavailable(
            f"no Vosk model at {path} (see models/README.md for which model to fetch)"
        )
    graph = path / "graph"
    if (graph / "HCLG.fst").exists() and not (graph / "HCLr.fst").exists():
        raise SpeechUnavailable(
            f"the Vosk model at {path} has a static graph (HCLG.fst) and ignores runtime "
            "grammars; use a small model such as vosk-model-small-fr-0.22"
        )


def missing_words(find_word: Any, lang: str) -> list[str]:
    """Grammar words the model's lexicon lacks (Vosk would drop them silently)."""
    return [w for w in words(lang) if find_word(w) < 0]


def model_path(lang: str, given: str | None = None) -> Path:
    """``--model``, else ``$CALLBETS_VOSK_MODEL_<LANG>``, else ``models/<lang>/``."""
    if given:
        return Path(given)
    env = os.environ.get(f"CALLBETS_VOSK_MODEL_{lang.upper()}")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "models" / lang


class VoskEngine:
    """French, Italian or English with a local Vosk model directory."""

    name = "vosk"

    def __init__(self, lang: str, path: str | None = None, alternatives: int = 5) -> None:
        try:
            import vosk
        except ImportError as err:
            raise SpeechUnavailable(
                "Vosk is not installed: pip install 'callbets[speech]'"
            ) from err
        self.lang = lang
        self.path = model_path(lang, path)
        check_model_dir(self.path)
        vosk.SetLogLevel(-1)
        self.model: Any = vosk.Model(str(self.path))
        self.missing = missing_words(self.model.vosk_model_find_word, lang)
        known = [p for p in phrase_list(lang) if not set(p.split()) & set(self.missing)]
        self.grammar = json.dumps([*known, "[unk]"], ensure_ascii=False)
        self.alternatives = alternatives
        self._vosk = vosk

    def notes(self) -> tuple[str, ...]:
        """The vocabulary report's warning, if any."""
        if not self.missing:
            return ()
        return (
            f"the Vosk model {self.path.name} lacks {len(self.missing)} grammar words: "
            + ", ".join(self.missing),
        )

    def _recognizer(self, n_best: bool) -> Any:
        rec = self._vosk.KaldiRecognizer(self.model, 16000, self.grammar)
        if n_best:
            rec.SetMaxAlternatives(self.alternatives)
        else:
            rec.SetWords(True)
        return rec

    def hear(self, pcm: bytes) -> Hearing:
        """Decode twice: once for word confidences, once for the n-best list."""
        results = []
        for n_best in (False, True):
            rec = self._recognizer(n_best)
            rec.AcceptWaveform(pcm)
            results.append(json.loads(rec.FinalResult()))
        return Hearing(tuple(vosk_candidates(results[0], results[1])), self.name, self.notes())


def make_engine(name: str, lang: str, model: str | None = None) -> Engine:
    """An engine by name (``vosk`` or ``pocketsphinx``).

    :raises SpeechUnavailable: unknown engine, or one that cannot run here.
    """
    if name == "pocketsphinx":
        return PocketSphinxEngine(lang)
    if name == "vosk":
        return VoskEngine(lang, model)
    raise SpeechUnavailable(f"unknown engine '{name}' (vosk or pocketsphinx)")
