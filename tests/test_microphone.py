"""The microphone path is the file path: recordings played through a real audio server
(PulseAudio, a null sink whose monitor is the default source, as a microphone), heard by
``callbets listen --json``, get the decisions ``transcribe --stream`` gives the files.

Needs Debian's pulseaudio, pulseaudio-utils (paplay) and libportaudio2, which .ci/run
installs; skipped, with the reason, where they are missing.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import wave
from collections.abc import Iterator
from pathlib import Path

import pytest

from callbets import find_house, parse_notation
from callbets.speech.audio import RATE, read_wav

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "audio"
SERVER = """
load-module module-native-protocol-unix
load-module module-null-sink sink_name=table
set-default-sink table
set-default-source table.monitor
"""
"""A null sink at the server's own format (44.1 kHz stereo): what is played into it is
resampled and mixed down on its way to callbets, as a real microphone's sound is."""


@pytest.fixture(scope="module")
def audio_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A PulseAudio server of this test's own; the environment that reaches it."""
    for program in ("pulseaudio", "paplay"):
        if shutil.which(program) is None:
            pytest.skip(f"{program} is not installed (apt-get install pulseaudio pulseaudio-utils)")
    pytest.importorskip("pocketsphinx")
    folder = tmp_path_factory.mktemp("pulse")
    (folder / "run").mkdir(mode=0o700)
    (folder / "server.pa").write_text(SERVER)
    env = {**os.environ, "XDG_RUNTIME_DIR": str(folder / "run"), "HOME": str(folder)}
    log = folder / "server.log"
    server = subprocess.Popen(
        ["pulseaudio", "-n", "-F", str(folder / "server.pa"), "--exit-idle-time=-1",
         "--daemonize=no", "--use-pid-file=no", f"--log-target=file:{log}"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    for _ in range(50):
        if subprocess.run(["pactl", "info"], env=env, capture_output=True).returncode == 0:
            break
        time.sleep(0.1)
    else:
        server.kill()
        server.wait()
        pytest.skip(f"PulseAudio did not start: {log.read_text()[-300:] if log.exists() else ''}")
    try:
        probe = subprocess.run(
            [sys.executable, "-c", "import sounddevice as sd; sd.query_devices(kind='input')"],
            env=env, capture_output=True, text=True,
        )  # fmt: skip
        if probe.returncode != 0:
            pytest.skip(f"no input device through PortAudio: {probe.stderr.strip()[-200:]}")
        yield env
    finally:
        server.terminate()
        server.wait(timeout=10)


def chips(notation: str) -> dict[tuple[int, ...], int]:
    return dict(parse_notation(notation, find_house()).merged())


def chips_of(line: dict) -> dict[tuple[int, ...], int]:
    """The chips of a ``transcribe`` / ``listen --json`` line (the parse contract)."""
    out: dict[tuple[int, ...], int] = {}
    for call in line.get("calls", []):
        for p in call["placements"]:
            key = tuple(sorted(p["numbers"]))
            out[key] = out.get(key, 0) + p["amount"]
    return out


def session(path: Path) -> list[tuple[str, str]]:
    """A table's session as one recording: a second of room, then ten announcements (the
    natural-voice fixtures) 1.6 s apart; (id, expected chips) of each."""
    items = [json.loads(x) for x in (FIXTURES / "suite-natural.jsonl").read_text().splitlines()]
    items = items[:10]
    pcm = bytes(2 * RATE)
    for item in items:
        pcm += read_wav(FIXTURES / item["audio"]) + bytes(int(2 * RATE * 1.6))
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm)
    return [(i["id"], i["expect"]) for i in items]


def test_listen_json_through_an_audio_server_agrees_with_transcribe_stream(audio_server, tmp_path):
    """The same session, once as a file (``transcribe --stream``) and once played into the
    audio server and heard by ``listen --json``: the same bets read.  (Each recording
    alone, from a fresh start, may read otherwise: a stream carries the room and the
    voice's cepstral mean from one announcement to the next, the microphone's as a
    file's.)"""
    path = tmp_path / "session.wav"
    expected = session(path)
    file_run = subprocess.run(
        [sys.executable, "-m", "callbets", "transcribe", "--lang", "en", "--stream", str(path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    from_file = [json.loads(x) for x in file_run.stdout.splitlines()]

    listen = subprocess.Popen(
        [sys.executable, "-m", "callbets", "listen", "--lang", "en", "--json"],
        env=audio_server,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert listen.stderr is not None
    assert listen.stderr.readline().startswith("listening (pocketsphinx, en")
    subprocess.run(["paplay", str(path)], env=audio_server, check=True)
    time.sleep(1.0)
    listen.send_signal(signal.SIGINT)
    out, err = listen.communicate(timeout=60)
    listen.stderr.close()
    assert listen.returncode == 0, err
    from_mic = [json.loads(x) for x in out.splitlines()]

    def read(lines: list[dict]) -> list[dict[tuple[int, ...], int] | None]:
        return [chips_of(h) if h["ok"] else None for h in lines]

    assert len(from_file) == len(from_mic) == len(expected), (
        [h["heard"] for h in from_file],
        [h["heard"] for h in from_mic],
    )
    exact_file = [r == chips(e) for r, (_, e) in zip(read(from_file), expected, strict=True)]
    exact_mic = [r == chips(e) for r, (_, e) in zip(read(from_mic), expected, strict=True)]
    both = sum(f and m for f, m in zip(exact_file, exact_mic, strict=True))
    print(f"file path {sum(exact_file)}/10 exact; of those, the microphone path {both}")
    assert sum(exact_file) >= 8 and both >= 0.9 * sum(exact_file)
    for h, (_, e) in zip(from_mic, expected, strict=True):  # nothing wrong accepted unasked
        assert h["decision"]["kind"] != "accept" or chips_of(h) == chips(e), h["heard"]
    latencies = sorted(h["latency_s"] for h in from_mic)
    assert latencies[len(latencies) // 2] < 0.6  # the microphone's opening is no latency
