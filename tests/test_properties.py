"""Properties: garbage only raises callbets' own errors; accepted text round-trips."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from callbets import AnnouncementError, find_house, parse, parse_notation
from callbets.language.grammar import LANGUAGES, language

HOUSE = find_house()
WORDS = {lang: language(lang).lexicon.vocabulary() for lang in LANGUAGES}
EXTRA = ["17", "5/8", "0", "36", "45", "/", ",", "-", "2,5", "999999", "l'", "é", "?"]


def phrases(lang: str) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(WORDS[lang] + EXTRA), min_size=1, max_size=9).map(" ".join)


def check_round_trip(text: str, lang: str) -> None:
    try:
        a = parse(text, lang, HOUSE)
    except AnnouncementError as err:
        assert err.kind in ("unrecognized", "illegal", "ambiguous", "stake")
        assert err.message and err.text == text
        assert err.column is None or 0 <= err.column <= len(text)
        return
    back = parse_notation(a.notation(), HOUSE)
    assert back.calls == a.calls
    assert a.total == sum(p.amount for c in a.calls for p in c.placements) > 0


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(LANGUAGES).flatmap(lambda lang: st.tuples(st.just(lang), phrases(lang))))
def test_vocabulary_soup_only_raises_own_errors(case):
    lang, text = case
    check_round_trip(text, lang)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40), st.sampled_from(LANGUAGES))
def test_any_text_only_raises_own_errors(text, lang):
    check_round_trip(text, lang)
