"""Whisper base led through the grammar's words (``--engine whisper``): its decoder in
numpy reads as CTranslate2's own, the search writes nothing but the language's words, it
hears real-speech-like voices, and it is put together with PocketSphinx so that a
disagreement is asked, never accepted."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from array import array

import pytest

from callbets.speech.audio import read_wav
from callbets.speech.decide import decide
from callbets.speech.engines import Candidate, Hearing
from callbets.speech.engines.sphinx import LEXICONS

from .test_voice import FIXTURES

np = pytest.importorskip("numpy", reason="pip install 'callbets[whisper]'")
whisper_model = pytest.importorskip("callbets.speech.engines.whisper_model")
from callbets.speech import SpeechUnavailable  # noqa: E402
from callbets.speech.engines.whisper import together  # noqa: E402

VOICES = tuple(LEXICONS)
"""The languages with a voice."""

try:
    MODEL = whisper_model.load()
except SpeechUnavailable as err:  # pragma: no cover - the test extra installs it
    pytest.skip(str(err), allow_module_level=True)

NATURAL = [json.loads(x) for x in (FIXTURES / "suite-natural.jsonl").read_text().splitlines()]


def search(lang: str):  # type: ignore[no-untyped-def]
    from callbets.speech.engines.grammar_search import GrammarSearch
    from callbets.speech.lm import arpa_file

    return GrammarSearch(MODEL, lang, arpa_file(lang))


def test_the_numpy_decoder_reads_as_ctranslate2_decodes():
    """CTranslate2's own greedy reading of the same audio, token by token, is also this
    decoder's choice (its weights are read from the same model.bin; CTranslate2 runs in
    int8, so a near tie may go either way: within 0.3 of the best log-probability)."""
    import ctranslate2

    prompt = [MODEL.token(t) for t in ("<|startoftranscript|>", "<|en|>", "<|transcribe|>",
                                         "<|notimestamps|>")]  # fmt: skip
    for item in NATURAL[:3]:
        encoded = MODEL.encode(read_wav(FIXTURES / item["audio"]))
        theirs = MODEL.encoder.generate(
            ctranslate2.StorageView.from_array(encoded[None]), [prompt], beam_size=1,
            max_length=40, suppress_tokens=[], suppress_blank=False,
        )[0].sequences_ids[0]  # fmt: skip
        assert len(theirs) >= 3
        audio = MODEL.decoder.cross(encoded)
        cache = None
        for at, token in enumerate([*prompt, *theirs]):
            hidden, cache = MODEL.decoder.step(np.array([token]), at, cache, audio)
            if at + 1 < len(prompt) or at + 1 - len(prompt) >= len(theirs):
                continue
            logits = MODEL.decoder.logits(hidden)[0]
            logp = logits - np.log(np.exp(logits - logits.max()).sum()) - logits.max()
            wanted = theirs[at + 1 - len(prompt)]
            assert logp[wanted] >= logp.max() - 0.3, (item["text"], at)


def test_the_prompt_read_at_once_is_the_prompt_read_a_token_at_a_time():
    """The start tokens in one pass (causal attention among them) give the hidden state
    and the cache of four single steps, and every token's logits are each token's
    scores."""
    names = ("<|startoftranscript|>", "<|fr|>", "<|transcribe|>", "<|notimestamps|>")
    prompt = np.array([MODEL.token(t) for t in names])
    audio = MODEL.decoder.cross(MODEL.encode(read_wav(FIXTURES / NATURAL[0]["audio"])))
    cache = None
    for at, token in enumerate(prompt):
        hidden, cache = MODEL.decoder.step(np.array([token]), at, cache, audio)
    at_once, together = MODEL.decoder.prompt(prompt, audio)
    assert np.allclose(at_once, hidden, atol=1e-3)
    assert all(np.allclose(a, b, atol=1e-3) for (a, _), (b, _) in zip(cache, together, strict=True))
    every = np.arange(MODEL.decoder.embeddings.shape[0])
    gathered = hidden @ MODEL.decoder.embeddings[every].T
    assert np.allclose(MODEL.decoder.logits(hidden), gathered)
    assert not np.allclose(MODEL.decoder.prompt(prompt[:3], audio)[0], hidden, atol=1e-3)


@pytest.mark.parametrize("lang", VOICES)
def test_the_search_writes_only_words_of_the_language(lang):
    """Whatever the audio (a recording of another language, noise), every word of every
    reading is a word of the language model: no free text, no digits."""
    searched = search(lang)
    rng = random.Random(3)
    noise = array("h", (rng.randint(-3000, 3000) for _ in range(16000))).tobytes()
    for pcm in (read_wav(FIXTURES / NATURAL[0]["audio"]), noise):
        for found in searched.search(MODEL.encode(pcm)):
            assert set(found.words) <= searched.vocabulary, found.words
            assert len(found.confidences) == len(found.words)
            assert all(0.0 <= c <= 1.0 for c in found.confidences)


def test_numbers_written_in_digits_are_the_grammar_s_words():
    """Whisper writes "17" and "26": the search takes the digits for the words the
    language says them with, in one word or two."""
    assert search("it").numbers_said[("ventisei",)] == 26
    assert search("fr").numbers_said[("dix", "sept")] == 17
    assert search("en").numbers_said[("twenty", "five")] == 25


def test_whisper_hears_the_natural_voices():
    """`callbets transcribe --engine whisper` of the flite and festival recordings: every
    first reading exact (PocketSphinx alone: see test_voice)."""
    files = [str(FIXTURES / item["audio"]) for item in NATURAL]
    proc = subprocess.run(
        [sys.executable, "-m", "callbets", "transcribe", "--engine", "whisper", "--lang", "en",
         *files], capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert proc.returncode in (0, 1), proc.stderr
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    assert {line["engine"] for line in lines} == {"whisper"}
    got = {line["file"]: line.get("notation") for line in lines}
    exact = [item for item, f in zip(NATURAL, files, strict=True) if got.get(f) == item["expect"]]
    assert len(exact) >= len(NATURAL) - 1, got


def heard(text: str, weakest: float, engine: str, score: float = -1.0) -> Hearing:
    words = tuple((w, weakest if i == 0 else 1.0) for i, w in enumerate(text.split()))
    return Hearing((Candidate(text, score, words),), engine, snr_db=30.0)


def test_a_disagreement_between_the_two_recognisers_is_asked_with_both():
    """PocketSphinx sure of a text Whisper heard otherwise: PocketSphinx's reading first,
    Whisper's offered, asked; the other way round when only Whisper is sure."""
    stream = heard("tiers by two", 0.9, "pocketsphinx")
    led = heard("tiers by ten", 0.9, "whisper")
    both = together(stream, led)
    assert [c.text for c in both.candidates] == ["tiers by two", "tiers by ten"]
    decision = decide(both, "en")
    assert decision.kind == "ask"
    assert {c.notation() for c in decision.choices} == {"tiers x2", "tiers x10"}
    unsure = together(heard("tiers by two", 0.1, "pocketsphinx"), led)
    assert unsure.best is not None and unsure.best.text == "tiers by ten"
    assert decide(unsure, "en").kind == "ask"


def test_two_recognisers_that_agree_may_be_accepted():
    agreed = together(heard("tiers by two", 0.9, "pocketsphinx"), heard("tiers by two", 0.9,
                                                                          "whisper"))  # fmt: skip
    assert agreed.second_look is None and agreed.engine == "whisper"
    assert decide(agreed, "en").kind == "accept"
    assert together(heard("tiers by two", 0.9, "pocketsphinx"), Hearing((), "whisper")).engine == (
        "pocketsphinx"
    )
