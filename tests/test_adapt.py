"""Adapting PocketSphinx's acoustic model with sphinxtrain (Debian's sphinxtrain,
sphinxbase-utils and pocketsphinx packages, installed by .ci/run)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
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


def test_mllr_writes_one_transform_that_the_engine_loads(tmp_path: Path, monkeypatch):
    """``method="mllr"`` writes sphinxtrain's ``mllr_matrix`` (no means, no variances),
    and the engine of a language whose shipped folder holds one decodes with it."""
    sphinxtrain_or_skip()
    tool("mllr_solve")
    from callbets.language.normalize import words
    from callbets.speech.engines import sphinx

    items = [json.loads(x) for x in (FIXTURES / "manifest.jsonl").read_text().splitlines()]
    items = [i for i in items if i["lang"] == "en"][:8]
    recs = [Recording(FIXTURES / i["file"], tuple(w.text for w in words(i["text"])))
            for i in items]  # fmt: skip
    out = tmp_path / "en"
    adapt(WHEEL_MODEL, Path(sphinx.PocketSphinxEngine("en").dictionary), recs, out,
          method="mllr")  # fmt: skip
    assert sorted(p.name for p in out.iterdir()) == ["adapt.log", "mllr_matrix"]
    assert out.joinpath("mllr_matrix").read_text().split()[:3] == ["1", "3", "13"]
    monkeypatch.setattr(sphinx, "shipped_model", lambda lang: out)
    engine = sphinx.PocketSphinxEngine("en")
    assert "adapted to en speech" in engine.model_name
    utt = engine.open()
    utt.feed(read_wav(recs[0].audio))
    assert utt.finish().best is not None


def callbets(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "callbets", *args], capture_output=True,
                          text=True, timeout=600, env={**os.environ, **env})  # fmt: skip


def test_enrol_a_croupier_and_hear_him_with_his_model(tmp_path: Path):
    """``callbets enrol`` on a suite of one voice's recordings (the Italian fixtures): the
    model is stored under his name, the report reads the held-apart recordings before and
    after, and transcribe uses his model when named, or when $CALLBETS_CROUPIER is he."""
    sphinxtrain_or_skip()
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "CALLBETS_CROUPIER": ""}
    done = callbets("enrol", str(FIXTURES / "suite-it.jsonl"), "--lang", "it",
                    "--croupier", "Marco Polo", env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "enrolled Marco Polo (it): adapted on 12 recordings, 4 held apart" in done.stdout
    assert re.search(r"before first readings exact \d+/4, wrong accepted 0", done.stdout)
    assert re.search(r"after  first readings exact \d+/4, wrong accepted 0", done.stdout)
    stored = tmp_path / "data" / "callbets" / "croupiers" / "it" / "Marco Polo"
    report = json.loads((stored / "enrol.json").read_text())
    assert report["adapted_on"] == 12 and report["after"]["items"] == 4
    assert (stored / "means").read_bytes() != (WHEEL_MODEL / "means").read_bytes()
    wav = str(FIXTURES / "it" / "01.wav")
    from_env = {"CALLBETS_CROUPIER": "Marco Polo"}
    for how, extra in (("named", {}), ("from the environment", from_env)):
        args = ("--croupier", "Marco Polo") if how == "named" else ()
        heard = callbets("transcribe", "--lang", "it", *args, wav, env={**env, **extra})
        line = json.loads(heard.stdout.splitlines()[0])
        assert "adapted to croupier Marco Polo" in line["model"], how
    plain = json.loads(callbets("transcribe", "--lang", "it", wav, env=env).stdout.splitlines()[0])
    assert "croupier" not in plain["model"]


@pytest.mark.parametrize(
    ("args", "why"),
    [(("transcribe", "--lang", "it", "--croupier", "Nobody"), "not enrolled for 'it'"),
     (("enrol", "SUITE", "--lang", "it", "--croupier", "../x"), "cannot be a croupier's name"),
     (("enrol", "SUITE", "--lang", "fr", "--croupier", "Jean"), "usable fr recordings")],
)  # fmt: skip
def test_enrol_and_croupier_mistakes_are_one_line_and_exit_2(tmp_path: Path, args, why):
    suite = str(FIXTURES / "suite-it.jsonl")  # no French recording in it
    args = tuple(suite if a == "SUITE" else a for a in args)
    if args[0] == "transcribe":
        args = (*args, str(FIXTURES / "it" / "01.wav"))
    done = callbets(*args, env={"XDG_DATA_HOME": str(tmp_path), "CALLBETS_CROUPIER": ""})
    assert done.returncode == 2 and why in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
