"""No word that means something is ever ignored.  The only words the grammar drops are a
short, closed list: articles (checked to come before what they introduce), politeness
and lead-ins, and "both"; every other word of an accepted announcement matters, so
replacing it by a word the grammar does not know is a refusal, never another bet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from callbets import AnnouncementError, find_house, parse
from callbets.language.grammar import LANGUAGES, language
from callbets.language.normalize import words

LANGS = LANGUAGES
FILLER_TERMINALS = {"ARTICLE", "POLITE", "BOTH"}
CORPUS = Path(__file__).resolve().parent / "corpus"


@pytest.mark.parametrize("lang", LANGS)
def test_the_words_dropped_are_a_short_closed_list(lang: str) -> None:
    lexicon = language(lang).lexicon
    assert lexicon.fillers == frozenset(FILLER_TERMINALS)
    dropped = [ws for ws, name in lexicon.phrases.items() if name in lexicon.fillers]
    # who the bet is for, who asks, and a question or an address to the croupier
    # ("Pourriez-vous me mettre …", "Croupier, …") take a few; Spanish says "put me"
    # in the forms of "usted", "tú" and "vos" ("póngame", "ponme", "poneme"); the
    # croupier's readback and address to the supervisor ("Chef !", "Jefe, anuncio: …"),
    # and each Spanish-speaking country its own lead-ins ("venga", "órale", "po", "che")
    assert 10 <= len(dropped) <= 170
    numbers = set(lexicon.number_values)
    meaningful = {ws[0] for ws, name in lexicon.phrases.items()
                  if len(ws) == 1 and name not in lexicon.fillers}  # fmt: skip
    for ws in dropped:  # a one-word filler never shadows a number or a bet word
        assert len(ws) > 1 or (ws[0] not in numbers and ws[0] not in meaningful), ws


def _accepted() -> list[tuple[str, str, str]]:
    out = []
    for path in sorted(CORPUS.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            case = json.loads(line)
            if "refuse" not in case["expect"]:
                out.append((case["lang"], case["text"], case.get("house", "venice-french")))
    return out


def test_every_meaningful_word_matters() -> None:
    checked = 0
    for lang, text, house_name in _accepted():
        house = find_house(house_name)
        lexicon = language(lang).lexicon
        fillers = {w for ws, n in lexicon.phrases.items() if n in lexicon.fillers for w in ws}
        for w in words(text):
            if w.text in fillers or not w.text[0].isalnum():
                continue
            changed = f"{text[: w.start]} blorp {text[w.end :]}"
            with pytest.raises(AnnouncementError):
                parse(changed, lang, house)
            checked += 1
    assert checked > 1500
