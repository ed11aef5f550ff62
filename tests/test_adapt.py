"""Adapting PocketSphinx's acoustic model with sphinxtrain (Debian's sphinxtrain,
sphinxbase-utils and pocketsphinx packages, installed by .ci/run)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from callbets.speech import SpeechUnavailable
from callbets.speech.adapt import Recording, adapt, read_sendump, tool, write_mixture_weights
from callbets.speech.audio import read_wav

pocketsphinx = pytest.importorskip("pocketsphinx")
ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "audio"
WHEEL_MODEL = Path(pocketsphinx.get_model_path()) / "en-us" / "en-us"


def sphinxtrain_or_skip() -> None:
    try:
        for name in ("pocketsphinx_mdef_convert", "sphinx_fe", "bw", "map_adapt"):
            tool(name)
    except SpeechUnavailable as err:
        pytest.skip(str(err))


def test_a_missing_program_is_one_clear_line(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(SpeechUnavailable, match="apt-get install sphinxtrain") as err:
        tool("no_such_program")
    assert "\n" not in str(err.value)


def decode(lang: str, files: list[Path], **model: str) -> list[str]:
    from callbets.speech.engines.sphinx import PocketSphinxEngine

    engine = PocketSphinxEngine(lang)
    config = {"hmm": str(WHEEL_MODEL), "dict": str(engine.dictionary),
              "lm": engine.decoder.config["lm"], "logfn": os.devnull, **model}  # fmt: skip
    decoder = pocketsphinx.Decoder(**config)
    out = []
    for f in files:
        decoder.start_utt()
        decoder.process_raw(read_wav(f), False, True)
        decoder.end_utt()
        out.append(decoder.hyp().hypstr if decoder.hyp() else "")
    return out


def test_the_float_mixture_weights_decode_as_the_quantised_ones(tmp_path: Path):
    """sphinxtrain needs float mixture weights; the wheel ships them quantised: rebuilt,
    they sum to one per senone and stream, and the decoder hears exactly the same."""
    _, streams, densities, senones = read_sendump(WHEEL_MODEL / "sendump")
    assert (streams, densities, senones) == (3, 128, 5126)
    mixw = tmp_path / "mixture_weights"
    write_mixture_weights(WHEEL_MODEL / "sendump", mixw)
    files = sorted((FIXTURES / "it").glob("0[0-5].wav"))
    assert decode("it", files) == decode("it", files, mixw=str(mixw))


def test_adapting_to_recordings_changes_what_is_heard(tmp_path: Path):
    """MAP adaptation on the French fixtures through sphinxtrain's real programs: new means
    and variances that the decoder loads, and that hear those recordings better."""
    sphinxtrain_or_skip()
    from callbets.language.normalize import words
    from callbets.speech.engines.sphinx import PocketSphinxEngine

    items = [json.loads(x) for x in (FIXTURES / "manifest.jsonl").read_text().splitlines()]
    items = [i for i in items if i["lang"] == "fr"]
    recs = [Recording(FIXTURES / i["file"], tuple(w.text for w in words(i["text"])))
            for i in items]  # fmt: skip
    steps: list[str] = []
    out = tmp_path / "adapted"
    adapt(WHEEL_MODEL, Path(PocketSphinxEngine("fr").dictionary), recs, out, steps.append)
    assert steps == ["model", "features", "counts", "update"]
    assert (out / "means").read_bytes() != (WHEEL_MODEL / "means").read_bytes()
    files = [r.audio for r in recs]
    said = [" ".join(r.words) for r in recs]
    before = decode(
        "fr", files, mean=str(WHEEL_MODEL / "means"), var=str(WHEEL_MODEL / "variances")
    )
    after = decode("fr", files, mean=str(out / "means"), var=str(out / "variances"))
    right = [sum(h == s for h, s in zip(heard, said, strict=True)) for heard in (before, after)]
    assert right[1] > right[0], right
