"""Dictation: a stream of audio in, utterances decoded while they are spoken, out.

Blocks of audio (the microphone's, or a file's fed at real-time pace) go through the
:class:`~.endpoint.Segmenter`, which opens and closes utterances; each open utterance is
decoded by the engine as its audio arrives, so when the croupier stops speaking only
the end of the search and the parse are left to do.  While an utterance is open the
partial text is offered to the caller (for the console's live line) and tells the
segmenter what was said reads as so far: a whole announcement with its stake ends after
a short pause, one with no stake said yet after a longer one ("seventeen and the
neighbours … by five"), anything else after a longer one still.

Audio is given a faint noise floor first (:func:`comfort_noise`): a microphone always
has one, and the acoustic model, trained on real recordings, mishears digital silence.
"""

from __future__ import annotations

import random
import time
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from ..errors import AnnouncementError
from ..language.dialogue import confirmation
from ..language.normalize import fold
from ..language.parse import parse
from ..language.talk import table_talk
from ..language.vocabulary import spellings
from ..roulette.house import House, find_house
from .endpoint import PARTIAL, UNSTAKED, WHOLE, Audio, Closed, Opened, Segmenter, Settings
from .engines import Candidate, Engine, Hearing, Utterance
from .phrases import table_talk as talk_phrases
from .sentences import phrases

FLOOR_AMPLITUDE = 128
"""Peak of the comfort noise added to every sample (about -53 dB below full scale).
Measured on the dev set: clean synthetic speech went from 74 % to 93 % first readings
exact; noisy speech, whose own noise is far louder, did not change."""
PARTIAL_EVERY = 5
"""Frames (30 ms) between two looks at the partial text."""


def comfort_noise(pcm: bytes, rng: random.Random, amplitude: int = FLOOR_AMPLITUDE) -> bytes:
    """The audio with a faint uniform noise added (clipped to 16 bits)."""
    samples = array("h")
    samples.frombytes(pcm[: len(pcm) - len(pcm) % 2])
    r = rng.randint
    out = array("h", (max(-32768, min(32767, s + r(-amplitude, amplitude))) for s in samples))
    return out.tobytes()


@dataclass(frozen=True)
class Partial:
    """The words heard so far in the open utterance."""

    text: str


@dataclass(frozen=True)
class Heard:
    """One utterance, decoded."""

    hearing: Hearing
    start: float
    """Stream time (seconds) of the utterance's first audio."""
    speech_end: float
    """Stream time of the end of its speech."""
    closed: float
    """Stream time at which the pause after it was long enough to close it."""
    compute_after: float
    """Seconds of computing between the close and the hearing being ready."""


DictationEvent = Partial | Heard


class ReadsAs:
    """What words read as so far (:data:`~.endpoint.WHOLE`, ``UNSTAKED``, ``PARTIAL``):
    a legal announcement whose stake was said (or a dialogue or table-talk phrase), a
    legal one whose stake was not (a stake said after it would change it) or a phrase
    that begins a longer one ("cancel" of "cancel that"), or neither.
    Language-neutral: the grammar's own words decide."""

    def __init__(self, lang: str, house: House) -> None:
        self.lang, self.house = lang, house
        prefix = phrases(lang).get("PIECE_PREFIX", ())
        seven = spellings(lang, 7)
        self.probe = f" {prefix[0]} {seven[0]}" if prefix and seven else ""
        self._memo = ("", PARTIAL)
        self.begins_talk = {
            " ".join(words[:n])
            for words in (p.split() for p in talk_phrases(lang))
            for n in range(1, len(words))
        }

    def __call__(self, text: str) -> str:
        """What the words read as (remembered for the last text asked about)."""
        if self._memo[0] != text:
            self._memo = (text, self._reads_as(text))
        return self._memo[1]

    def _reads_as(self, text: str) -> str:
        if not text.strip():
            return PARTIAL
        if " ".join(fold(text).split()) in self.begins_talk:
            return UNSTAKED
        if confirmation(text, self.lang) or table_talk(text, self.lang) is not None:
            return WHOLE
        try:
            said = parse(text, self.lang, self.house).notation()
        except AnnouncementError:
            return PARTIAL
        if not self.probe:
            return WHOLE
        try:  # a stake said after it would change it: its stake was not said yet
            more = parse(text + self.probe, self.lang, self.house).notation()
        except AnnouncementError:
            return WHOLE
        return WHOLE if more == said else UNSTAKED


class Dictation:
    """Decode a stream of audio into utterances (see the module docstring)."""

    def __init__(
        self,
        engine: Engine,
        house: House | None = None,
        settings: Settings | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.engine = engine
        self.segmenter = Segmenter(settings)
        self.reads_as = ReadsAs(engine.lang, house or find_house())
        self.clock = clock
        self._rng = random.Random(0)
        self._utterance: Utterance | None = None
        self._start = 0.0
        self._frames_since_partial = 0
        self._partial = ""

    def _state(self) -> str:
        if self._utterance is None:
            return PARTIAL
        self._partial = self._utterance.partial()
        return self.reads_as(self._partial)

    def prime(self, pcm: bytes) -> None:
        """Learn the room's level from a whole recording before feeding it."""
        self.segmenter.prime(comfort_noise(pcm, random.Random(0)))

    def feed(self, pcm: bytes) -> Iterator[DictationEvent]:
        """Consume a block of 16 kHz mono PCM; yield partial texts and finished utterances."""
        pcm = comfort_noise(pcm, self._rng)
        for event in self.segmenter.feed(pcm, self._state):
            yield from self._handle(event)

    def flush(self) -> Iterator[DictationEvent]:
        """The stream ended: finish the open utterance, if any."""
        for event in self.segmenter.flush():
            yield from self._handle(event)

    def _handle(self, event: Opened | Audio | Closed) -> Iterator[DictationEvent]:
        if isinstance(event, Opened):
            self._utterance = self.engine.open()
            self._start = event.at
            self._utterance.feed(event.audio)
            self._frames_since_partial = 0
            return
        if self._utterance is None:
            return
        if isinstance(event, Audio):
            self._utterance.feed(event.audio)
            self._frames_since_partial += 1
            if self._frames_since_partial >= PARTIAL_EVERY:
                self._frames_since_partial = 0
                text = self._utterance.partial()
                if text and text != self._partial:
                    self._partial = text
                    yield Partial(text)
            return
        began = self.clock()
        hearing = self._utterance.finish()
        self._utterance, self._partial = None, ""
        hearing = replace(hearing, snr_db=event.snr_db)
        yield Heard(hearing, self._start, event.speech_end, event.at, self.clock() - began)


def dictate(engine: Engine, pcm: bytes, house: House | None = None,
            block: int = 3200) -> list[Heard]:  # fmt: skip
    """Every utterance of a whole recording, cut and decoded as the microphone would be."""
    dictation = Dictation(engine, house)
    dictation.prime(pcm)
    heard: list[Heard] = []
    for i in range(0, len(pcm), block):
        heard += [e for e in dictation.feed(pcm[i : i + block]) if isinstance(e, Heard)]
    heard += [e for e in dictation.flush() if isinstance(e, Heard)]
    return heard


def hear_recording(engine: Engine, pcm: bytes, house: House | None = None) -> Hearing:
    """A recording of one announcement as one hearing: its utterances (normally one; more
    when the speaker paused long) joined, the words in order, the noisiest margin kept."""
    heard = dictate(engine, pcm, house)
    if len(heard) == 1:
        return heard[0].hearing
    best = [h.hearing.best for h in heard if h.hearing.best is not None]
    degraded = any(h.hearing.degraded for h in heard)
    if not best:
        return Hearing((), engine.name, degraded=degraded)
    joined = Candidate(
        " ".join(c.text for c in best),
        sum(c.score for c in best),
        tuple(w for c in best for w in c.words),
    )
    margins = [h.hearing.snr_db for h in heard if h.hearing.snr_db is not None]
    notes = tuple(n for h in heard for n in h.hearing.notes)
    snr = min(margins) if margins else None
    return Hearing((joined,), engine.name, notes, snr, degraded)
