"""What every engine gives and takes: :class:`Engine`, :class:`Utterance`,
:class:`Hearing` and its :class:`Candidate` texts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


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
    snr_db: float | None = None
    """How far the speech stood above the room's noise, when the audio was segmented
    live (None for a whole file given at once)."""
    degraded: bool = False
    """Heard by a model that lacks words of the table (accepted on purpose): never
    accepted unasked."""
    fragment: bool = False
    """Perhaps part of another announcement: it begins with "and" with nothing before it
    to continue, or it was said right after another announcement (see
    :mod:`callbets.speech.dictation`): never accepted unasked."""
    second_look: str | None = None
    """The best text heard again with its numbers free and no language model's
    preference (where the engine can): differing from the best, the numbers are not
    sure, and the reading is never accepted unasked."""

    @property
    def best(self) -> Candidate | None:
        """The first candidate."""
        return self.candidates[0] if self.candidates else None


class Utterance(Protocol):
    """One utterance being decoded as its audio arrives."""

    def feed(self, pcm: bytes) -> None:
        """Decode more 16 kHz mono 16-bit PCM."""
        ...

    def partial(self) -> str:
        """The best words so far (may change as more audio comes)."""
        ...

    def reading(self) -> str:
        """The words as they would be read if the utterance ended now (what the endpointer
        asks during a pause; may cost more than :meth:`partial`)."""
        ...

    def finish(self) -> Hearing:
        """The audio ended: the n-best list."""
        ...


class Engine(Protocol):
    """A recogniser of one language."""

    name: str
    lang: str
    model_name: str
    """Which acoustic model it hears with (a folder, or what the package ships)."""
    suppress_noise: bool
    """Whether its acoustic model hears better with the audio's noise suppressed first
    where the room is noisy (:class:`callbets.speech.denoise.NoiseGate`: a quiet room's
    audio is given as it came).  Suppressed everywhere, a model adapted to raw
    recordings hears clean speech worse (the French test split through the model adapted
    to raw French: 89 → 44 %); gated, it hears noisy rooms better and quiet ones the
    same: with pink noise at 15 dB, the French test split 55 → 68 % and the Italian
    56 → 71 % first readings exact, festival's Italian voices (never adapted on) 3 → 47 %,
    neural voices 0 → 12 % (French) and 5 → 31 % (Italian), no wrong bet accepted
    (bench/voice_bench.py, bench/denoise_bench.py)."""

    def open(self) -> Utterance:
        """Start decoding an utterance (:func:`hear_whole` decodes a whole one)."""
        ...

    def hear_again(self, pcm: bytes) -> Hearing:
        """Decode audio the stream already gave (utterances joined) as one utterance;
        what the engine learnt from the stream (PocketSphinx: the cepstral mean) is left
        as it was."""
        ...

    def learn(self, pcm: bytes) -> None:
        """Take in a whole recording's room and voice before it is decoded, as a
        microphone that has been listening has (PocketSphinx: the cepstral mean, from
        its features, without a search); then what the recording gives does not depend
        on what the engine heard before.  For a file, not for a live stream."""
        ...


def hear_whole(engine: Engine, pcm: bytes, block: int = 3200) -> Hearing:
    """Decode a whole utterance through :meth:`Engine.open`, in 100 ms blocks."""
    utterance = engine.open()
    for i in range(0, len(pcm), block):
        utterance.feed(pcm[i : i + block])
    return utterance.finish()
