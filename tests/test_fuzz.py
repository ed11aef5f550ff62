"""Fuzzing, bounded so the suite stays fast (``bench/fuzz_hostile.py`` runs 100,000 and
more): whatever the input, only callbets' own errors, and an answer in bounded time."""

from __future__ import annotations

import contextlib
import io
import json
import struct
import tempfile
import time
import tomllib
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from callbets import AnnouncementError, parse
from callbets.cli.options import _answer_one, input_lines
from callbets.errors import HouseError
from callbets.language.grammar import LANGUAGES, language
from callbets.regress.runner import ManifestError, _item
from callbets.roulette.house import house_file_text, house_from_dict, house_from_text
from callbets.speech import SpeechUnavailable
from callbets.speech.audio import read_wav

LANGS = LANGUAGES
WORDS = {lang: language(lang).lexicon.vocabulary() for lang in LANGS}
SECONDS_PER_CALL = 0.25
"""The bound for one input of at most a couple of kilobytes (typical: well under 1 ms)."""

any_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=700)


def soup(lang: str) -> st.SearchStrategy[str]:
    pieces = st.sampled_from([*WORDS[lang], "17", "5/8", "-", "=", "€", "×", ",", "0", "100"])
    return st.lists(pieces, max_size=40).map(" ".join)


def timed_parse(text: str, lang: str) -> None:
    start = time.perf_counter()
    try:
        parse(text, lang)
    except AnnouncementError as err:
        assert err.kind in ("unrecognized", "illegal", "ambiguous", "stake") and err.message
    assert time.perf_counter() - start < SECONDS_PER_CALL, text[:80]


@settings(max_examples=300, deadline=None)
@given(any_text, st.sampled_from(LANGS))
def test_any_text_is_answered_quickly(text: str, lang: str) -> None:
    timed_parse(text, lang)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(LANGS).flatmap(lambda lang: st.tuples(st.just(lang), soup(lang))))
def test_any_word_soup_is_answered_quickly(case: tuple[str, str]) -> None:
    timed_parse(case[1], case[0])


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=600))
def test_the_jsonl_contract_holds_for_any_bytes(raw: bytes) -> None:
    answered = []
    for number, line in input_lines(io.BytesIO(raw)):
        result = _answer_one(number, line, lambda t: _parse_json(t))
        if result is not None:
            json.dumps(result)
            assert isinstance(result["ok"], bool) and "input" in result
            answered.append(result)
    lines = raw.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    blank = [ln for ln in lines if not ln.removesuffix(b"\r").decode("utf-8", "replace").strip()]
    assert len(answered) == len(lines) - len(blank)


def _parse_json(text: str) -> dict[str, object]:
    try:
        return parse(text, "fr").to_json()
    except AnnouncementError as err:
        return {"input": text, "ok": False, "error": err.to_json()}


HOUSE = tomllib.loads(house_file_text("france"))
toml_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=4),
    max_leaves=12,
)  # fmt: skip


SECTIONS = ["calls", "limits", "zero", "finales", "payout", "neighbours", "piece_value",
            "stakes", "layout", "complete", "name"]  # fmt: skip


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(SECTIONS), toml_values), max_size=3))
def test_any_house_profile_is_a_house_or_a_house_error(changes: list[tuple[str, object]]) -> None:
    data = json.loads(json.dumps(HOUSE))
    for key, value in changes:
        data[key] = value
    try:
        house_from_dict(data, "fuzz")
    except HouseError as err:
        assert str(err).startswith("house file fuzz")


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_any_house_text_is_a_house_or_a_house_error(raw: bytes) -> None:
    with contextlib.suppress(HouseError):
        house_from_text(raw.decode("utf-8", "replace"), "fuzz")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["lang", "text", "audio", "expect", "id", "house", "x"]), inner,
        max_size=5),
    max_leaves=10,
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_any_manifest_line_is_an_item_or_a_manifest_error(value: object) -> None:
    try:
        _item(value, "suite.jsonl:1", Path("/tmp/no-such-suite"))
    except ManifestError as err:
        assert str(err).startswith("suite.jsonl:1")


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 2**32 - 1), st.integers(0, 70), st.integers(0, 9),
    st.integers(0, 2**32 - 1), st.binary(max_size=64),
)  # fmt: skip
def test_any_wav_header_is_audio_or_a_clear_refusal(
    rate: int, channels: int, width: int, frames: int, data: bytes
) -> None:
    block = max(1, channels * width)
    header = b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVEfmt " + struct.pack(
        "<IHHIIHH", 16, 1, channels, rate, rate * block & 0xFFFFFFFF, block & 0xFFFF, 8 * width
    ) + b"data" + struct.pack("<I", min(frames * block, 2**32 - 1))  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="callbets-fuzz-") as folder:  # its own folder
        path = Path(folder) / "fuzz.wav"
        path.write_bytes(header + data)
        start = time.perf_counter()
        try:
            read_wav(path)
        except SpeechUnavailable as err:
            assert str(err)
        elapsed = time.perf_counter() - start
    assert elapsed < SECONDS_PER_CALL
