"""Noise suppression before recognition (RNNoise, :mod:`callbets.speech.denoise`): the
stream keeps its length and its times, noise goes and speech stays, and it runs only
in a noisy room, chosen between utterances, for a model that hears better so."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import wave
from pathlib import Path

import pytest

from callbets.speech.audio import RATE, read_wav
from callbets.speech.dictation import comfort_noise

from .test_voice import FIXTURES, at_snr, pink

denoise = pytest.importorskip("callbets.speech.denoise")
np = pytest.importorskip("numpy", reason="pip install 'callbets[denoise]'")
if not denoise.available():
    pytest.skip("no RNNoise: pip install 'callbets[denoise]'", allow_module_level=True)

SPEECH = FIXTURES / "en" / "00.wav"


def samples(pcm: bytes):  # type: ignore[no-untyped-def]
    return np.frombuffer(pcm, np.int16).astype(np.float64)


def level_db(x) -> float:  # type: ignore[no-untyped-def]
    return float(10 * np.log10(max(1.0, float(np.mean(x * x)))))


def test_the_suppressed_stream_comes_in_whole_steps_late_by_the_stated_delay():
    """Fed in blocks of any size, the stream comes back in whole 10 ms steps (the rest of
    one waits for the next block), the same as the recording suppressed at once, and it
    is the recording late by DELAY_SAMPLES (its best match with the input)."""
    pcm = read_wav(SPEECH)
    d = denoise.Denoiser()
    out, at, sizes = b"", 0, [4, 1996, 640, 8000, 132, 2]  # bytes, whole samples
    while at < len(pcm):
        block = pcm[at : at + sizes[0]]
        out, at, sizes = out + d.process(block), at + len(block), sizes[1:] + sizes[:1]
        assert len(out) == at // (2 * denoise.STEP) * 2 * denoise.STEP
    assert out == denoise.suppress(pcm)[: len(out)]
    y = samples(out)
    x = samples(pcm)[: len(y)]
    match = [float(np.dot(x[: len(x) - k], y[k:])) for k in range(0, 600)]
    assert abs(int(np.argmax(match)) - denoise.DELAY_SAMPLES) <= 2


def test_noise_goes_and_speech_stays():
    """Pink noise at 5 dB below a voice: where only the room is heard, its level falls by
    more than 15 dB; where the voice is, the level falls by less than 6 dB."""
    clean = read_wav(SPEECH)
    room = pink(3.0, 7)
    lead = bytes(2 * RATE)  # a second of the room alone, then the voice
    noisy = at_snr(lead + clean, room, 5.0)
    out = samples(denoise.suppress(noisy))[denoise.DELAY_SAMPLES :]
    before = samples(noisy)[: len(out)]
    alone = slice(RATE // 2, RATE)  # the network has had half a second to learn the room
    assert level_db(before[alone]) - level_db(out[alone]) > 15
    voiced = samples(clean)
    loud = np.abs(voiced) > 1000
    during = slice(RATE, RATE + len(voiced))
    assert (
        level_db(before[during][loud[: len(before[during])]])
        - level_db(out[during][loud[: len(out[during])]])
        < 6
    )


def test_the_room_meter_tells_a_quiet_room_from_a_noisy_one():
    clean = read_wav(SPEECH)
    quiet, noisy, loud = denoise.RoomMeter(), denoise.RoomMeter(), denoise.RoomMeter()
    quiet.feed(samples(comfort_noise(clean, random.Random(0))).astype(np.int16))
    noisy.feed(samples(at_snr(clean, pink(3.0, 3), 15.0)).astype(np.int16))
    loud.feed(samples(at_snr(clean, pink(3.0, 3), 5.0)).astype(np.int16))
    assert quiet.noisy(True) is False
    assert noisy.noisy(False) is True and loud.noisy(False) is True
    empty = denoise.RoomMeter()
    assert empty.noisy(True) is True and empty.noisy(False) is False  # nothing heard: kept


def test_the_gate_changes_its_choice_only_between_utterances():
    """A room that turns noisy: inside an utterance the stream stays as it was; between
    utterances it is suppressed, late by the delay it says; in a quiet room the stream
    is the audio itself."""
    gate = denoise.NoiseGate()
    clean = read_wav(SPEECH)
    assert gate.process(clean, between=True) == clean and not gate.on and gate.late == 0
    assert gate.drain() == b""
    noisy = pink(4.0, 5).tobytes()  # the room alone, loud
    assert gate.process(noisy, between=False) == noisy
    assert not gate.on  # an utterance under way: kept
    given = gate.process(noisy[:998], between=True)
    assert gate.on and gate.late == denoise.DELAY_SAMPLES / RATE
    given += gate.process(noisy[998:], between=True) + gate.drain()
    assert len(given) >= len(noisy) + 2 * denoise.DELAY_SAMPLES  # nothing held back
    alone = samples(given)[RATE // 2 : 3 * RATE]
    assert level_db(samples(noisy)[RATE // 2 : 3 * RATE]) - level_db(alone) > 15


def write_wav(path: Path, pcm: bytes) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm)


def transcribed(path: Path, *extra: str, env: dict[str, str] | None = None,
                lang: str = "en") -> list[dict]:  # type: ignore[type-arg]  # fmt: skip
    proc = subprocess.run([sys.executable, "-m", "callbets", "transcribe", "--lang", lang,
                           *extra, str(path)], capture_output=True, text=True, env=env)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_transcribe_suppresses_the_noise_of_a_noisy_room_only(tmp_path: Path, lang: str):
    """A quiet recording is heard as it is, a noisy one suppressed (``noise_suppression``
    in the JSON), by every PocketSphinx model: the French and Italian ones adapted to raw
    recordings hear a quiet room as they were adapted, and a noisy one better suppressed
    (README, "Noise")."""
    pytest.importorskip("pocketsphinx")
    from callbets.speech.dictation import Dictation
    from callbets.speech.engines import make_engine

    speech = FIXTURES / lang / "00.wav"
    quiet, noisy = tmp_path / "quiet.wav", tmp_path / "noisy.wav"
    write_wav(quiet, read_wav(speech))
    write_wav(noisy, at_snr(bytes(RATE) + read_wav(speech), pink(3.0, 2), 5.0))
    assert {line["noise_suppression"] for line in transcribed(quiet, lang=lang)} == {None}
    assert {line["noise_suppression"] for line in transcribed(noisy, lang=lang)} == {"RNNoise"}
    assert Dictation(make_engine("pocketsphinx", lang)).gate is not None
