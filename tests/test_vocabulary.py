"""Vocabulary and sample phrases come from the grammar and parse back."""

from __future__ import annotations

import pytest

from callbets import AnnouncementError, parse
from callbets.language.grammar import LANGUAGES, language
from callbets.language.vocabulary import sample_phrases, spellings, vocabulary


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("fr", {"voisins", "cheval", "transversale", "dix", "vingt", "piece"}),
        ("it", {"vicini", "cavallo", "terzina", "diciassette", "pezzo", "orfanelli"}),
        ("en", {"neighbours", "split", "street", "seventeen", "each", "orphans"}),
    ],
)
def test_vocabulary_lists_grammar_words(lang, words):
    assert words <= set(vocabulary(lang))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_number_to_36_has_a_spelling_that_parses_back(lang):
    for n in range(37):
        spelled = spellings(lang, n)
        assert spelled, n
        for text in spelled:
            assert parse(text, lang).notation() == f"straight {n} x1", text


def test_french_joins_only_before_un_and_onze():
    assert "vingt et un" in spellings("fr", 21)
    assert not any(" et " in s for s in spellings("fr", 22))
    assert parse("vingt et deux", "fr").notation() == "straight 20 x1 ; straight 2 x1"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_sample_phrases_parse(lang):
    phrases = sample_phrases(lang, 40, seed=3)
    assert len(phrases) == 40
    for text in phrases:
        parse(text, lang)  # raises if not


def test_no_phrase_is_claimed_twice_and_all_are_folded():
    for lang in LANGUAGES:
        lex = language(lang).lexicon
        for words in lex.phrases:
            assert all(w == w.lower() for w in words)


def test_grammar_is_conflict_free_lalr():
    """Compile every grammar with Lark's strict mode: no shift/reduce conflict, no collision."""
    from lark import Lark

    from callbets.language.grammar import grammar_text

    for lang in LANGUAGES:
        Lark(grammar_text(lang), parser="lalr", lexer="basic", strict=True, start=["start"])


def test_refusal_of_nonsense_from_vocabulary():
    with pytest.raises(AnnouncementError):
        parse("du du du", "fr")
