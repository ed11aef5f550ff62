"""The voice front-end: audio, phrase lists, decisions, Vosk's JSON, and real PocketSphinx."""

from __future__ import annotations

import json
import wave
from array import array
from pathlib import Path

import pytest

from callbets.dialogue import confirmation
from callbets.speech import SpeechUnavailable
from callbets.speech.audio import RATE, microphone_blocks, read_wav, utterances
from callbets.speech.decide import decide
from callbets.speech.engines import (
    Candidate,
    Hearing,
    check_model_dir,
    missing_words,
    model_path,
    vosk_candidates,
)
from callbets.speech.phrases import jsgf, phrase_list, words
from callbets.vocabulary import vocabulary

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "audio"
MANIFEST = [json.loads(x) for x in (FIXTURES / "manifest.jsonl").read_text().splitlines()]


def write_wav(path: Path, rate: int, channels: int, width: int, seconds: float) -> None:
    n = int(rate * seconds)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(width)
        w.setframerate(rate)
        if width == 2:
            w.writeframes(array("h", [1000] * n * channels).tobytes())
        else:
            w.writeframes(bytes([200]) * n * channels * width)


@pytest.mark.parametrize(
    ("rate", "channels", "width"), [(44100, 2, 2), (8000, 1, 1), (22050, 1, 2), (48000, 2, 3)]
)
def test_any_wav_becomes_16k_mono(tmp_path: Path, rate, channels, width):
    path = tmp_path / "x.wav"
    write_wav(path, rate, channels, width, 0.5)
    pcm = read_wav(path)
    assert abs(len(pcm) / 2 - RATE * 0.5) <= 2


def test_unreadable_wav_is_a_clear_error(tmp_path: Path):
    bad = tmp_path / "bad.wav"
    bad.write_bytes(b"RIFF nonsense")
    with pytest.raises(SpeechUnavailable, match="cannot read"):
        read_wav(bad)


def test_voice_activity_cuts_utterances():
    loud = array("h", [3000, -3000] * 800).tobytes()
    quiet = bytes(3200)
    blocks = iter([quiet, loud, loud, quiet, quiet, quiet, quiet, loud, quiet, quiet, quiet, quiet])
    assert len(list(utterances(blocks, trailing_silence=0.3))) == 2


def test_microphone_without_portaudio_or_device_is_a_clear_message():
    with pytest.raises(SpeechUnavailable) as info:
        next(microphone_blocks())
    assert "PortAudio" in str(info.value) or "microphone" in str(info.value)


@pytest.mark.parametrize("lang", ["fr", "it", "en"])
def test_phrase_list_and_report_contain_every_grammar_word(lang):
    listed = {w for p in phrase_list(lang) for w in p.split()}
    assert set(vocabulary(lang)) <= listed
    assert set(vocabulary(lang)) <= set(words(lang))


def test_jsgf_lists_only_legal_positions():
    grammar = jsgf("en")
    split_rule = next(line for line in grammar.splitlines() if line.startswith("<split_pair>"))
    assert "( ( five ) ( eight ) )" in split_rule
    assert "( ( five ) ( nine ) )" not in split_rule  # 5/9 is no split


@pytest.mark.parametrize(
    ("lang", "text", "kind"),
    [("fr", "c'est bon", "confirm"), ("fr", "C'est  bon", "confirm"), ("it", "confermo", "confirm"),
     ("en", "cancel", "cancel"), ("fr", "annule", "cancel"), ("en", "voisins", None)],
)  # fmt: skip
def test_confirmation_phrases(lang, text, kind):
    assert confirmation(text, lang) == kind


# Vosk output as the recogniser writes it (SetWords(True), then SetMaxAlternatives(3)).
VOSK_WORDS = {
    "result": [
        {"conf": 1.0, "end": 0.9, "start": 0.3, "word": "dix"},
        {"conf": 0.97, "end": 1.3, "start": 0.9, "word": "sept"},
        {"conf": 0.99, "end": 1.5, "start": 1.3, "word": "et"},
        {"conf": 0.95, "end": 1.9, "start": 1.5, "word": "les"},
        {"conf": 0.98, "end": 2.4, "start": 1.9, "word": "voisins"},
    ],
    "text": "dix sept et les voisins",
}
VOSK_ALTS = {
    "alternatives": [
        {"confidence": 231.5, "result": [], "text": "dix sept et les voisins"},
        {"confidence": 219.0, "result": [], "text": "dix sept les voisins"},
    ]
}


def test_vosk_json_to_candidates_and_accept():
    candidates = vosk_candidates(VOSK_WORDS, VOSK_ALTS)
    assert [c.text for c in candidates] == ["dix sept et les voisins", "dix sept les voisins"]
    assert candidates[0].weakest == 0.95
    decision = decide(Hearing(tuple(candidates), "vosk"), "fr")
    assert decision.kind == "accept" and decision.chosen.notation() == "neighbours 17 x1"


def test_vosk_weak_word_asks():
    weak = json.loads(json.dumps(VOSK_WORDS))
    weak["result"][1]["conf"] = 0.41
    decision = decide(Hearing(tuple(vosk_candidates(weak, None)), "vosk"), "fr")
    assert decision.kind == "ask" and "sept" in decision.reason


def test_vosk_two_legal_readings_ask():
    alts = {"alternatives": [{"confidence": 200.0, "text": "cheval cinq huit"},
                             {"confidence": 199.0, "text": "cheval cinq six"}]}  # fmt: skip
    best = {"result": [{"word": w, "conf": 1.0} for w in ["cheval", "cinq", "huit"]],
            "text": "cheval cinq huit"}  # fmt: skip
    decision = decide(Hearing(tuple(vosk_candidates(best, alts)), "vosk"), "fr")
    assert decision.kind == "ask"
    assert {c.notation() for c in decision.choices} == {"split 5/8 x1", "split 5/6 x1"}


def test_vosk_nothing_legal_refuses():
    junk = {"result": [{"word": "[unk]", "conf": 1.0}, {"word": "bonjour", "conf": 1.0}],
            "text": "[unk] bonjour"}  # fmt: skip
    assert decide(Hearing(tuple(vosk_candidates(junk, None)), "vosk"), "fr").kind == "refuse"
    assert decide(Hearing((), "vosk"), "fr").kind == "refuse"


def test_first_choice_illegal_but_second_legal_asks():
    hearing = Hearing((Candidate("cheval cinq neuf", 2.0), Candidate("cheval cinq huit", 1.0)))
    decision = decide(hearing, "fr")
    assert decision.kind == "ask" and decision.chosen.notation() == "split 5/8 x1"


def test_vosk_model_checks(tmp_path: Path):
    with pytest.raises(SpeechUnavailable, match="no Vosk model"):
        check_model_dir(tmp_path / "missing")
    static = tmp_path / "big"
    (static / "am").mkdir(parents=True)
    (static / "graph").mkdir()
    (static / "graph" / "HCLG.fst").write_bytes(b"")
    with pytest.raises(SpeechUnavailable, match="static graph"):
        check_model_dir(static)
    small = tmp_path / "small"
    (small / "am").mkdir(parents=True)
    (small / "graph").mkdir()
    (small / "graph" / "HCLr.fst").write_bytes(b"")
    check_model_dir(small)


def test_missing_words_are_reported():
    # A model's lexicon, as vosk_model_find_word answers it (-1: absent).
    lexicon = set(words("fr")) - {"orphelins", "sixain"}
    assert missing_words(lambda w: 1 if w in lexicon else -1, "fr") == ["orphelins", "sixain"]


@pytest.mark.parametrize("lang", ["fr", "it", "en"])
def test_real_vosk_on_fixtures_when_a_model_is_present(lang):
    if not (model_path(lang) / "am").is_dir():
        pytest.skip(f"no Vosk model in {model_path(lang)} (see models/README.md)")
    from callbets.speech.engines import VoskEngine

    engine = VoskEngine(lang)
    exact = accepted_wrong = 0
    cases = [c for c in MANIFEST if c["lang"] == lang]
    for case in cases:
        decision = decide(engine.hear(read_wav(FIXTURES / case["file"])), lang)
        got = decision.chosen.notation() if decision.chosen else None
        exact += got == case["expect"]
        accepted_wrong += decision.kind == "accept" and got != case["expect"]
    print(f"vosk {lang}: {exact}/{len(cases)} exact, {accepted_wrong} wrong accepted")
    assert accepted_wrong == 0


def test_pocketsphinx_refuses_other_languages():
    pytest.importorskip("pocketsphinx")
    from callbets.speech.engines import PocketSphinxEngine

    with pytest.raises(SpeechUnavailable, match="only an English model"):
        PocketSphinxEngine("fr")


def test_real_pocketsphinx_on_english_fixtures(tmp_path: Path):
    """Real recognition of espeak-ng voices, run as a regression suite through
    ``callbets regress``.  Prints the figures; no miss is ever accepted."""
    pytest.importorskip("pocketsphinx")
    import subprocess
    import sys

    report = tmp_path / "report.json"
    proc = subprocess.run(
        [sys.executable, "-m", "callbets", "regress", str(FIXTURES / "suite-en.jsonl"),
         "--engine", "pocketsphinx", "--json", str(report)],
        capture_output=True, text=True,
    )  # fmt: skip
    print(proc.stdout.split("\n")[0])
    items = json.loads(report.read_text())["items"]
    top = sum(i["got"] == i["expect"] for i in items)
    outcomes = {
        o: sum(i["outcome"] == o for i in items) for o in ("exact", "asked", "refused", "wrong")
    }
    print(f"pocketsphinx en: {top}/{len(items)} exact chips as first reading; {outcomes}")
    assert len(items) >= 40
    assert outcomes["wrong"] == 0 and proc.returncode == 0  # no miss accepted
    # The floor: at least half of the synthetic utterances give the exact chips.
    assert top >= 0.5 * len(items)
