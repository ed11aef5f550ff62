"""Vosk (Kaldi): French, Italian and English with a local model folder, never downloaded.

The recogniser is constrained by a phrase list generated from the grammar, in the
model's own spelling (accents: "zéro", "à", "più", whichever of the grammar's spellings
it knows): every
grammar phrase and number word (so each word stays reachable) and the grammar's own
generated announcements (Vosk turns the list into a bigram model, so the samples teach
it which words follow which; the parser judges legality over the n-best list).  On start
every grammar word is checked against the model's lexicon (Vosk would drop a missing
word silently; :mod:`callbets.speech.vosk_words`) and a model that cannot take runtime
grammars is refused.

Vosk gives word confidences and an n-best list from two differently configured
recognisers, so an utterance feeds both as its audio arrives.
"""

from __future__ import annotations

import json
from typing import Any

from ...messages import said
from .. import ModelCannotHear, SpeechUnavailable
from ..models import check_model_dir, model_path
from ..vosk_words import missing_table_words, missing_words, model_phrases
from .base import Candidate, Hearing, hear_whole

ALTERNATIVES = 5


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


class VoskEngine:
    """French, Italian or English with a local Vosk model folder."""

    name = "vosk"

    def __init__(self, lang: str, path: str | None = None, degraded: bool = False) -> None:
        """Load the model of ``lang`` (``path``, or the installed one).

        :param degraded: run a model that lacks words of the table's bets or dialogue;
            then every utterance is asked, never accepted.
        :raises ModelCannotHear: the model lacks such words, and ``degraded`` is false.
        :raises SpeechUnavailable: Vosk or the model cannot be used.
        """
        try:
            import vosk  # optional dependency (the speech extra)
        except ImportError as err:
            raise SpeechUnavailable(said("vosk_not_installed")) from err
        self.lang = lang
        self.path = model_path(lang, path)
        self.model_name = str(self.path)
        self.suppress_noise = False  # not measured: no Vosk model of the table's languages
        check_model_dir(self.path)
        vosk.SetLogLevel(-2)  # Kaldi's warnings too: callbets says what matters itself
        self.model: Any = vosk.Model(str(self.path))
        find = self.model.vosk_model_find_word
        self.missing = missing_words(find, lang)
        lacks = missing_table_words(find, lang)
        if lacks and not degraded:
            words = ", ".join(lacks)
            raise ModelCannotHear(
                said("model_cannot_hear", path=self.path, count=len(lacks), words=words, lang=lang)
            )
        self.degraded = bool(lacks)
        self.grammar = json.dumps([*model_phrases(find, lang), "[unk]"], ensure_ascii=False)
        self._vosk = vosk

    def notes(self) -> tuple[str, ...]:
        """The vocabulary report's warning, if any."""
        if not self.missing:
            return ()
        return (
            f"the Vosk model at {self.path} lacks {len(self.missing)} grammar words: "
            + ", ".join(self.missing),
        )

    def recognizer(self, n_best: bool) -> Any:
        """A recogniser with the phrase list: word confidences, or the n-best list."""
        rec = self._vosk.KaldiRecognizer(self.model, 16000, self.grammar)
        if n_best:
            rec.SetMaxAlternatives(ALTERNATIVES)
        else:
            rec.SetWords(True)
        return rec

    def learn(self, pcm: bytes) -> None:
        """Nothing to learn: each utterance starts with new recognisers."""

    def hear_again(self, pcm: bytes) -> Hearing:
        """Decode audio already heard as one utterance (Vosk keeps nothing between
        utterances)."""
        return hear_whole(self, pcm)

    def open(self) -> VoskUtterance:
        """Start decoding an utterance."""
        return VoskUtterance(
            self.recognizer(False), self.recognizer(True), self.notes(), self.degraded
        )


class VoskUtterance:
    """One utterance fed to both recognisers as it arrives.

    Vosk cuts at its own pauses (AcceptWaveform returns True and the recogniser starts
    afresh); callbets decides where utterances end, so the pieces are joined again.
    """

    def __init__(
        self, words_rec: Any, best_rec: Any, notes: tuple[str, ...], degraded: bool = False
    ) -> None:
        self.words_rec, self.best_rec, self.notes = words_rec, best_rec, notes
        self.degraded = degraded
        self.words_done: list[dict[str, Any]] = []
        self.best_done: list[dict[str, Any]] = []

    def feed(self, pcm: bytes) -> None:
        """Decode more audio."""
        if self.words_rec.AcceptWaveform(pcm):
            self.words_done.append(json.loads(self.words_rec.Result()))
        if self.best_rec.AcceptWaveform(pcm):
            self.best_done.append(json.loads(self.best_rec.Result()))

    def partial(self) -> str:
        """The best words so far."""
        said = [str(d.get("text", "")) for d in self.words_done]
        said.append(str(json.loads(self.words_rec.PartialResult()).get("partial", "")))
        return " ".join(w for w in said if w)

    def reading(self) -> str:
        """The words so far (Vosk's partial result is its reading so far)."""
        return self.partial()

    def finish(self) -> Hearing:
        """The audio ended: word confidences and the n-best list."""
        pieces = [*self.words_done, json.loads(self.words_rec.FinalResult())]
        words_result = {
            "text": " ".join(t for p in pieces if (t := str(p.get("text", "")).strip())),
            "result": [w for p in pieces for w in p.get("result", [])],
        }
        best = [*self.best_done, json.loads(self.best_rec.FinalResult())]
        candidates = tuple(vosk_candidates(words_result, join_alternatives(best)))
        return Hearing(candidates, "vosk", self.notes, degraded=self.degraded)


def join_alternatives(pieces: list[dict[str, Any]]) -> dict[str, Any]:
    """One n-best list from several pieces: the best of the earlier pieces, then each
    alternative of the last."""

    def first(p: dict[str, Any]) -> str:
        alts = p.get("alternatives") or [{}]
        return str(alts[0].get("text", "")).strip()

    head = " ".join(t for p in pieces[:-1] if (t := first(p)))
    alts = pieces[-1].get("alternatives", []) if pieces else []
    return {
        "alternatives": [
            {**a, "text": " ".join(t for t in (head, str(a.get("text", "")).strip()) if t)}
            for a in alts
        ]
    }
