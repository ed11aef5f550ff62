"""Noise suppression before recognition: RNNoise, a small recurrent network trained on
real speech and real noise (Xiph, BSD licence), run on the 16 kHz stream at 48 kHz.

The acoustic model hears noise as words: on the English test split, pink noise at 5 dB
left 2 % of first readings exact, and PocketSphinx's own noise removal (spectral, from
the model's ``feat.params``) was already on; Speex's spectral denoiser added nothing.
Through RNNoise first where the room is noisy (:class:`NoiseGate`), the same 200 files
gave 55 % instead of 41 % (pink noise at 5 dB 2 → 32 %, at 15 dB 38 → 58 %), no wrong
bet accepted (figures in the README).

The network's C library comes from the ``pyrnnoise`` package (the ``denoise`` extra),
loaded on its own through :mod:`ctypes`: the package's Python side, and the media
libraries it depends on, are never imported.  ``$CALLBETS_RNNOISE`` names another build
of the library; a system-wide ``librnnoise`` is found too.  Without any, recognition
runs on the audio as it comes, and says so (:func:`available`).

The stream is resampled ×3 up and down by one windowed-sinc low-pass filter (numpy),
in steps of 10 ms (what a block leaves of a step waits for the next one), and comes
out late by :data:`DELAY_SAMPLES` (22 ms).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import importlib.util
import os
from collections import deque
from pathlib import Path
from typing import Any

from .audio import RATE
from .endpoint import EMPHASIS, FRAME_SAMPLES

NET_RATE = 48000
"""The rate RNNoise works at; the stream is resampled by this ratio."""
UP = NET_RATE // RATE
STEP = 160
"""Stream samples per step: one RNNoise frame (10 ms)."""
TAPS = 97
"""Length of the resampling filter (at 48 kHz).  Measured with :data:`CUTOFF_HZ`: within
0.3 dB up to 6.8 kHz, the highest frequency the acoustic model's features use; -6 dB at
7.6 kHz, -33 dB at 8.5 kHz, below -75 dB from 9 kHz."""
CUTOFF_HZ = 7600.0
"""Where the filter is half way (-6 dB)."""
FRAME = 480
"""RNNoise's frame: 10 ms at 48 kHz."""
DELAY_SAMPLES = ((TAPS - 1) + 2 * FRAME) // UP
"""How late the suppressed stream is (22 ms): both filters' half-lengths and RNNoise's
two frames (measured: the output of a clean recording matches its input 960 samples
later at 48 kHz)."""


def _library_path() -> str | None:
    """Where RNNoise's C library is: ``$CALLBETS_RNNOISE``, the ``pyrnnoise`` package's
    folder (found, not imported), or the system's; None where there is none."""
    named = os.environ.get("CALLBETS_RNNOISE")
    if named:
        return named
    spec = importlib.util.find_spec("pyrnnoise")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        for name in ("librnnoise.so", "librnnoise.dylib", "rnnoise.dll"):
            if (Path(folder) / name).is_file():
                return str(Path(folder) / name)
    return ctypes.util.find_library("rnnoise")


_LIBRARY: Any = None
np: Any = None
"""numpy, imported with the library: only where noise is to be suppressed."""


def _library() -> Any:
    """RNNoise's C library, loaded once (None where it cannot be), and numpy."""
    global _LIBRARY, np
    if _LIBRARY is None:
        path = _library_path()
        try:
            # optional (the denoise extra), and 0.1-0.2 s: imported only when wanted
            import numpy

            np = numpy
            lib = ctypes.CDLL(path) if path else None
        except (ImportError, OSError):
            lib = None
        if lib is not None:
            lib.rnnoise_create.argtypes = [ctypes.c_void_p]
            lib.rnnoise_create.restype = ctypes.c_void_p
            lib.rnnoise_destroy.argtypes = [ctypes.c_void_p]
            lib.rnnoise_process_frame.argtypes = [ctypes.c_void_p] + [ctypes.c_void_p] * 2
            lib.rnnoise_process_frame.restype = ctypes.c_float
        _LIBRARY = lib if lib is not None else False
    return _LIBRARY or None


def available() -> bool:
    """Whether noise suppression can run here (RNNoise's library and numpy)."""
    return _library() is not None


def _low_pass(gain: float) -> Any:
    """The resampling filter at 48 kHz: a Blackman-windowed sinc."""
    n = np.arange(TAPS) - (TAPS - 1) / 2
    cut = CUTOFF_HZ / NET_RATE
    return (gain * 2 * cut * np.sinc(2 * cut * n) * np.blackman(TAPS)).astype(np.float32)


class Denoiser:
    """Suppress the noise of a 16 kHz mono stream, block by block (see the module
    docstring).  One per stream: it keeps the network's state and the filters' tails."""

    name = "RNNoise"

    def __init__(self) -> None:
        """:raises RuntimeError: RNNoise cannot run here (see :func:`available`)."""
        self._lib = _library()
        if self._lib is None:
            raise RuntimeError("RNNoise is not installed: pip install 'callbets[denoise]'")
        self._state = self._lib.rnnoise_create(None)
        self._up = _low_pass(UP)
        self._down = _low_pass(1.0)
        self._up_tail = np.zeros(TAPS - 1, np.float32)
        self._down_tail = np.zeros(TAPS - 1, np.float32)
        self._pending = np.zeros(0, np.float32)

    def __del__(self) -> None:
        lib = getattr(self, "_lib", None)
        if lib is not None and getattr(self, "_state", None):
            lib.rnnoise_destroy(self._state)

    def process(self, pcm: bytes) -> bytes:
        """The stream's noise suppressed, in whole 10 ms steps: what the block completes
        (the rest of a step waits for the next block), late by :data:`DELAY_SAMPLES`."""
        samples = np.frombuffer(pcm[: len(pcm) - len(pcm) % 2], np.int16)
        self._pending = np.concatenate([self._pending, samples.astype(np.float32)])
        whole = len(self._pending) // STEP * STEP
        done = self._steps(self._pending[:whole])
        self._pending = self._pending[whole:]
        return bytes(done.tobytes())

    def _steps(self, chunk: Any) -> Any:
        """Whole 10 ms steps of the stream through the network: up ×3, RNNoise frame by
        frame, down ×3 (the filters run over all the steps at once)."""
        if not len(chunk):  # (np.convolve's "valid" of a shorter input is not empty)
            return np.zeros(0, np.int16)
        stuffed = np.zeros(len(chunk) * UP, np.float32)
        stuffed[::UP] = chunk
        wide = np.concatenate([self._up_tail, stuffed])
        self._up_tail = wide[-(TAPS - 1) :]
        frames = np.ascontiguousarray(np.convolve(wide, self._up, "valid"), np.float32)
        self._network(frames)
        wide = np.concatenate([self._down_tail, frames])
        self._down_tail = wide[-(TAPS - 1) :]
        narrow = np.convolve(wide, self._down, "valid")[::UP]
        return np.clip(np.rint(narrow), -32768, 32767).astype(np.int16)

    def _network(self, frames: Any) -> None:
        """Whole frames (:data:`FRAME`) of 48 kHz audio (float32, at the scale of 16-bit
        samples) through RNNoise, in place."""
        for at in range(0, len(frames), FRAME):
            pointer = frames.ctypes.data + at * frames.itemsize
            self._lib.rnnoise_process_frame(self._state, pointer, pointer)


def suppress(pcm: bytes) -> bytes:
    """A whole recording with its noise suppressed (a fresh :class:`Denoiser`), as long
    as it was: late by :data:`DELAY_SAMPLES`, its last step completed with silence."""
    return Denoiser().process(pcm + bytes(2 * STEP))[: len(pcm) - len(pcm) % 2]


QUIET_DB = 30.0
"""A room whose loud frames stay below this level (dB re one step of 16-bit audio, the
endpointer's floor for speech) has had no voice yet and no noise to suppress."""
NOISY_BELOW_DB = 20.0
"""Suppress when the loud frames stand less than this above the room, in the band where
speech's consonants are (after pre-emphasis, as the endpointer's second band)..."""
CLEAR_ABOVE_DB = 26.0
"""...and stop when they stand more than this above it (between the two, keep).

Measured on the English splits (frames' 95th minus 15th percentile level, pre-emphasised,
per file): clean recordings 55–70 dB, pink noise at 15 dB 6–17 dB, at 5 dB 2–8 dB, brown
noise at 15 dB 20–33 dB (a rumble below the speech, which the acoustic model already
hears through: suppressed, the dev split's brown 15 dB read 89 % instead of 93 %).
Suppressed, clean speech is heard worse (dev split, espeak-ng voices: 90 → 63 % first
readings exact; flite and festival 96 → 89 %), speech in pink noise far better (15 dB
72 → 86 %, 5 dB 14 → 68 %)."""
METER_SECONDS = 20.0
"""How much recent audio the room and the voice are judged on."""
METER_FRAME = FRAME_SAMPLES
"""The endpointer's 30 ms frames."""
METER_START = 0.24
"""Seconds of audio before the first choice: a quiet room shows in the first frames
already, before the first word (a noisy one too: its loud frames are its noise)."""


class RoomMeter:
    """How far the loud frames of the recent audio stand above the room: the raw audio's
    95th and 15th percentile frame levels over :data:`METER_SECONDS`, in the
    endpointer's second band (after pre-emphasis; in the first second, the quietest
    frame is the room's, as for the endpointer)."""

    def __init__(self) -> None:
        _library()  # numpy, if available() was not asked first
        frames = int(METER_SECONDS * RATE / METER_FRAME)
        self._plain: deque[float] = deque(maxlen=frames)
        self._emphasised: deque[float] = deque(maxlen=frames)
        self._pending = np.zeros(1, np.float32)  # the sample before, for the emphasis

    def feed(self, samples: Any) -> None:
        """Take in audio (int16 samples)."""
        self._pending = np.concatenate([self._pending, samples.astype(np.float32)])
        count = (len(self._pending) - 1) // METER_FRAME
        used = self._pending[: count * METER_FRAME + 1]
        self._plain.extend(_levels(used[1:], count))
        self._emphasised.extend(_levels(used[1:] - EMPHASIS * used[:-1], count))
        self._pending = self._pending[count * METER_FRAME :]

    def noisy(self, was: bool) -> bool:
        """Whether the room is noisy enough to suppress (``was``: whether it was
        suppressed until now; kept while the margin is between the two limits)."""
        if len(self._plain) * METER_FRAME < METER_START * RATE:
            return was
        margin = self.margin()
        if margin is None or margin > CLEAR_ABOVE_DB:
            return False
        return True if margin < NOISY_BELOW_DB else was

    def margin(self) -> float | None:
        """How far the loud frames stand above the room (dB), in the band where speech's
        consonants are; None for a quiet room that has had no voice yet."""
        if not self._plain or _percentile(sorted(self._plain), 0.95) < QUIET_DB:
            return None
        levels = sorted(self._emphasised)
        starting = len(levels) * METER_FRAME < RATE  # the room: the quietest frame, at
        room = levels[0] if starting else _percentile(levels, 0.15)  # first (speech?)
        return _percentile(levels, 0.95) - room


def _levels(samples: Any, count: int) -> Any:
    """The levels (dB) of ``count`` frames of :data:`METER_FRAME` samples."""
    frames = samples.reshape(count, METER_FRAME)
    return 10 * np.log10(np.maximum((frames * frames).mean(axis=1), 1.0))


def _percentile(ordered: list[float], share: float) -> float:
    """The level at ``share`` of levels sorted already."""
    return ordered[int(share * (len(ordered) - 1))]


class NoiseGate:
    """Noise suppression only where the room is noisy: the stream is suppressed
    (:class:`Denoiser`: late by :data:`DELAY_SAMPLES`, see :attr:`late`) or given as it
    came; which one is chosen from the raw audio (:class:`RoomMeter`), and changed only
    between utterances (where the switch drops or repeats nothing but the room).

    The network runs only while the stream is suppressed (on silence, a clean file's,
    it costs 0.2 s of CPU a second).  Started, it learns the room within half a second;
    its first :data:`DELAY_SAMPLES` are silence, between utterances."""

    def __init__(self) -> None:
        _library()  # numpy, if available() was not asked first
        self.meter = RoomMeter()
        self.denoiser: Denoiser | None = None
        """The network, while the stream is suppressed (not before the room is heard
        to be noisy: a stream that begins with the croupier's voice in a quiet room, as
        a file may, would be suppressed for its first words)."""

    @property
    def on(self) -> bool:
        """Whether the stream is suppressed now."""
        return self.denoiser is not None

    @property
    def late(self) -> float:
        """How late the stream given now is, in seconds (none when not suppressed)."""
        return DELAY_SAMPLES / RATE if self.on else 0.0

    def _choose(self) -> None:
        """Suppress or not, from what the room sounds like now."""
        noisy = self.meter.noisy(self.on)
        if noisy and self.denoiser is None:
            self.denoiser = Denoiser()
        elif not noisy:
            self.denoiser = None

    def prime(self, pcm: bytes) -> bytes:
        """A whole recording known in advance: choose for it, and give it as it will be
        fed (suppressed or not)."""
        self.meter.feed(np.frombuffer(pcm[: len(pcm) - len(pcm) % 2], np.int16))
        self._choose()
        return suppress(pcm) if self.on else pcm

    def process(self, pcm: bytes, between: bool) -> bytes:
        """The stream suppressed (in whole steps, :meth:`Denoiser.process`) or as it
        came; ``between``: no utterance is under way, so the choice may change."""
        self.meter.feed(np.frombuffer(pcm[: len(pcm) - len(pcm) % 2], np.int16))
        if between:
            self._choose()
        return self.denoiser.process(pcm) if self.denoiser is not None else pcm

    def drain(self) -> bytes:
        """The end of the stream: what the suppression still holds (its delay and the
        rest of a step) followed by silence; nothing when not suppressing."""
        if self.denoiser is None:
            return b""
        return self.denoiser.process(bytes(2 * (DELAY_SAMPLES + STEP)))
