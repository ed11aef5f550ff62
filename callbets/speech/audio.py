"""Audio in: WAV files (standard library) and the microphone (``sounddevice``, optional).

Recognisers want 16 kHz, mono, 16-bit little-endian PCM; everything is converted to that.
"""

from __future__ import annotations

import os
import sys
import wave
from array import array
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..files import open_regular
from ..messages import said
from . import BadSpeechFile, SpeechUnavailable

RATE = 16000
"""Sample rate the recognisers expect."""
BLOCK_SECONDS = 0.03
"""The microphone's block: one frame of the endpointer (30 ms), so that a pause is seen
to be long enough as soon as its last frame is recorded, not when a longer block fills
(50 ms blocks added 0 to 50 ms, median 10 ms, to the decision after the end of speech)."""


def _samples(raw: bytes, width: int) -> array[int]:
    """Signed 16-bit samples from PCM of 1, 2, 3 or 4 bytes per sample."""
    if width == 2:
        out = array("h")
        out.frombytes(raw)
        if sys.byteorder == "big":
            out.byteswap()
        return out
    if width == 1:  # unsigned 8-bit
        return array("h", ((b - 128) << 8 for b in raw))
    step = width
    shift = 8 * (width - 2)
    return array(
        "h",
        (
            int.from_bytes(raw[i : i + step], "little", signed=True) >> shift
            for i in range(0, len(raw) - step + 1, step)
        ),
    )


def to_mono(samples: array[int], channels: int) -> array[int]:
    """Average the channels of interleaved samples."""
    if channels == 1:
        return samples
    frames = len(samples) // channels
    return array(
        "h",
        (sum(samples[f * channels : (f + 1) * channels]) // channels for f in range(frames)),
    )


def resample(samples: array[int], rate: int, target: int = RATE) -> array[int]:
    """Linear-interpolation resampling (enough for speech recognition)."""
    if rate == target or not samples:
        return samples
    n = max(1, round(len(samples) * target / rate))
    ratio = (len(samples) - 1) / max(1, n - 1)
    out = array("h", bytes(2 * n))
    for i in range(n):
        pos = i * ratio
        j = int(pos)
        frac = pos - j
        nxt = samples[j + 1] if j + 1 < len(samples) else samples[j]
        out[i] = int(samples[j] + (nxt - samples[j]) * frac)
    return out


def pcm16(samples: array[int]) -> bytes:
    """Little-endian bytes of 16-bit samples."""
    if sys.byteorder == "big":
        samples = array("h", samples)
        samples.byteswap()
    return samples.tobytes()


def read_wav(path: Path) -> bytes:
    """A WAV file as 16 kHz mono 16-bit PCM, whatever its rate, width and channels.

    Only a regular file is opened; its header is checked against what a microphone makes
    and against the file's size before anything is read or allocated.

    :raises BadSpeechFile: not a readable PCM WAV file (said in the user's language).
    :raises InputError: not a regular file, or unreadable.
    """
    with open_regular(path, BadSpeechFile) as f:
        size = os.fstat(f.fileno()).st_size
        if size == 0:
            raise BadSpeechFile(said("wav_empty", path=path))
        try:
            with wave.open(f, "rb") as w:
                width, channels, rate = w.getsampwidth(), w.getnchannels(), w.getframerate()
                frames = w.getnframes()
                _check_header(path, width, channels, rate, frames, size)
                raw = w.readframes(frames)
        except BadSpeechFile:
            raise
        except Exception as err:  # the wave module raises anything on a damaged header
            reason = str(err) or _UNSAID.get(type(err), type(err).__name__)
            raise BadSpeechFile(said("wav_damaged", path=path, reason=reason)) from None
    whole = len(raw) - len(raw) % (width * channels)
    if whole < frames * width * channels:
        got = whole // (width * channels)
        raise BadSpeechFile(said("wav_cut_short", path=path, frames=frames, got=got))
    return pcm16(resample(to_mono(_samples(raw[:whole], width), channels), rate))


_UNSAID = {
    RuntimeError: "a chunk runs past the end of the file",  # wave's chunk seek
    EOFError: "the file ends inside its header",
}
"""What the wave module's exceptions without a message mean."""

MAX_SECONDS = 600
"""The longest recording read (an announcement lasts seconds)."""

MAX_CHANNELS = 16
"""The most channels read (a microphone array has a few)."""


def _check_header(path: Path, width: int, channels: int, rate: int, frames: int, size: int) -> None:
    """Refuse a WAV header no microphone makes, or one announcing more audio than the
    file holds, before reading or allocating anything."""
    if not 1 <= width <= 4:
        raise BadSpeechFile(said("wav_width", path=path, bits=8 * width))
    if not 1 <= channels <= MAX_CHANNELS:
        raise BadSpeechFile(said("wav_channels", path=path, count=channels, most=MAX_CHANNELS))
    if not 4000 <= rate <= 384000:
        raise BadSpeechFile(said("wav_rate", path=path, rate=rate))
    if frames == 0:
        raise BadSpeechFile(said("wav_no_audio", path=path))
    if frames / rate > MAX_SECONDS:
        seconds = f"{frames / rate:.0f}"
        raise BadSpeechFile(said("wav_too_long", path=path, seconds=seconds, most=MAX_SECONDS))
    if frames * width * channels > size:
        got = size // (width * channels)
        raise BadSpeechFile(said("wav_cut_short", path=path, frames=frames, got=got))


def duration(pcm: bytes) -> float:
    """Seconds of 16 kHz 16-bit mono audio."""
    return len(pcm) / (2 * RATE)


def _sounddevice() -> object:
    try:
        import sounddevice  # optional dependency (the speech extra; needs PortAudio)
    except ImportError as err:
        raise SpeechUnavailable(said("mic_no_sounddevice")) from err
    except OSError as err:  # PortAudio itself is missing
        raise SpeechUnavailable(said("mic_no_portaudio")) from err
    return sounddevice


class Microphone:
    """The default input device, open and recording 16 kHz mono blocks."""

    def __init__(self, name: str, stream: Any, frames: int) -> None:
        self.name, self._stream, self._frames = name, stream, frames

    def drain(self) -> None:
        """Drop what it recorded while nobody was reading (someone typing)."""
        waiting = int(self._stream.read_available)
        if waiting:
            self._stream.read(waiting)

    def blocks(self) -> Iterator[bytes]:
        """Its blocks, until the caller stops (the device is closed then)."""
        try:
            while True:
                data, _overflowed = self._stream.read(self._frames)
                yield bytes(data)
        finally:
            self._stream.close()


def open_microphone(seconds_per_block: float = BLOCK_SECONDS) -> Microphone:
    """Open the default input device now (through PortAudio, ALSA and PulseAudio that
    takes up to 2 s here: open it before asking anyone to speak).

    :raises SpeechUnavailable: no sounddevice, no PortAudio, or no input device.
    """
    sd: Any = _sounddevice()
    try:
        device = sd.query_devices(kind="input")
    except Exception as err:  # sounddevice raises PortAudioError or ValueError here
        raise SpeechUnavailable(said("mic_none", reason=err)) from err
    name = str(device.get("name", "?")) if isinstance(device, dict) else "?"
    frames = int(RATE * seconds_per_block)
    try:
        stream = sd.RawInputStream(samplerate=RATE, channels=1, dtype="int16", blocksize=frames)
        stream.start()
    except Exception as err:
        raise SpeechUnavailable(said("mic_cannot_open", name=name, reason=err)) from err
    return Microphone(name, stream, frames)


def microphone_blocks(seconds_per_block: float = BLOCK_SECONDS) -> Iterator[bytes]:
    """Blocks of 16 kHz mono PCM from the default input device, until the caller stops
    (the device is opened at the first block asked for).

    :raises SpeechUnavailable: no sounddevice, no PortAudio, or no input device.
    """
    yield from open_microphone(seconds_per_block).blocks()
