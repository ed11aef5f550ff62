"""The bet catalogue checked against rules.md, chip by chip."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from callbets import Call, find_house
from callbets._resources import language_words
from callbets.language.grammar import LANGUAGES, language
from callbets.roulette.call_names import CallName
from callbets.roulette.calls import CALLED_BETS
from callbets.roulette.catalogue import (
    FIXED,
    complete,
    finale_cheval,
    finale_plein,
    neighbours_recipe,
)
from callbets.roulette.layout import (
    BLACK,
    INSIDE,
    RED,
    WHEEL,
    BetKind,
    from_pair,
    neighbours,
    positions_touching,
    wheel_run,
)

from .conftest import ROOT

VENICE = find_house("venice-french")


def chips(recipe):  # {numbers: pieces}
    return {p.numbers: k for p, k in recipe}


def test_layout_counts():
    kinds = [p.kind for p in INSIDE.values()]
    assert len(INSIDE) == 145
    assert kinds.count(BetKind.SPLIT) == 60
    assert kinds.count(BetKind.STREET) == 14
    assert kinds.count(BetKind.CORNER) == 23
    assert kinds.count(BetKind.SIXLINE) == 11


def test_wheel_colours_alternate():
    assert sorted(WHEEL) == list(range(37))
    for a, b in itertools.pairwise(WHEEL[1:]):
        assert (a in RED) != (b in RED)
    assert set(range(1, 37)) == RED | BLACK


def test_halves_add_to_333():
    assert sum(WHEEL[1:19]) == 333 and sum(WHEEL[19:]) == 333


@pytest.mark.parametrize(
    ("pair", "kind", "numbers"),
    [
        ((25, 29), BetKind.CORNER, (25, 26, 28, 29)),
        ((16, 18), BetKind.STREET, (16, 17, 18)),
        ((13, 18), BetKind.SIXLINE, (13, 14, 15, 16, 17, 18)),
        ((5, 8), BetKind.SPLIT, (5, 8)),
        ((0, 3), BetKind.SPLIT, (0, 3)),
    ],
)
def test_positions_named_by_two_numbers(pair, kind, numbers):
    pos = from_pair(*pair)
    assert pos is not None and pos.kind is kind and pos.numbers == numbers


@pytest.mark.parametrize("pair", [(3, 4), (17, 19), (0, 4), (34, 37), (6, 11), (3, 7), (12, 16)])
def test_pairs_that_name_nothing(pair):
    assert from_pair(*pair) is None


@pytest.mark.parametrize(("pair", "kind"), [((5, 9), BetKind.CORNER), ((17, 21), BetKind.CORNER)])
def test_pairs_that_are_not_splits(pair, kind):
    pos = from_pair(*pair)
    assert pos is not None and pos.kind is kind


def test_two_number_rule_never_gives_two_answers():
    for a in range(37):
        for b in range(a + 1, 37):
            pos = from_pair(a, b)
            if pos is not None:
                assert pos.numbers[0] == a and pos.numbers[-1] == b


def test_voisins_chips():
    assert chips(FIXED["voisins"]) == {
        (0, 2, 3): 2, (4, 7): 1, (12, 15): 1, (18, 21): 1, (19, 22): 1,
        (25, 26, 28, 29): 2, (32, 35): 1,
    }  # fmt: skip
    covered = {n for p, _ in FIXED["voisins"] for n in p.numbers}
    assert covered == set(wheel_run(22, 25)) and len(covered) == 17


def test_tiers_orphelins_jeu_zero_nassa():
    assert chips(FIXED["tiers"]) == {
        (5, 8): 1,
        (10, 11): 1,
        (13, 16): 1,
        (23, 24): 1,
        (27, 30): 1,
        (33, 36): 1,
    }
    assert {n for p, _ in FIXED["tiers"] for n in p.numbers} == set(wheel_run(27, 33))
    assert chips(FIXED["orphelins"]) == {(1,): 1, (6, 9): 1, (14, 17): 1, (17, 20): 1, (31, 34): 1}
    assert chips(FIXED["orphelins_plein"]) == {(n,): 1 for n in (1, 6, 9, 14, 17, 20, 31, 34)}
    assert chips(FIXED["jeu_zero"]) == {(0, 3): 1, (12, 15): 1, (26,): 1, (32, 35): 1}
    assert {n for p, _ in FIXED["jeu_zero"] for n in p.numbers} == set(wheel_run(12, 15))
    assert chips(FIXED["nassa"]) == {(0, 3): 1, (12, 15): 1, (19,): 1, (26,): 1, (32, 35): 1}
    assert {n for p, _ in FIXED["nassa"] for n in p.numbers} == set(wheel_run(12, 19))


# Appendix A, checked row by row for a few numbers and every count.
APPENDIX_A = {
    0: ("26 0 32", "3 26 0 32 15", "35 3 26 0 32 15 19", "12 35 3 26 0 32 15 19 4"),
    17: ("25 17 34", "2 25 17 34 6", "21 2 25 17 34 6 27", "4 21 2 25 17 34 6 27 13"),
    26: ("3 26 0", "35 3 26 0 32", "12 35 3 26 0 32 15", "28 12 35 3 26 0 32 15 19"),
    33: ("16 33 1", "24 16 33 1 20", "5 24 16 33 1 20 14", "10 5 24 16 33 1 20 14 31"),
}


@pytest.mark.parametrize("n", sorted(APPENDIX_A))
def test_neighbours_match_appendix_a(n):
    for k, row in enumerate(APPENDIX_A[n], start=1):
        assert neighbours(n, k) == tuple(int(x) for x in row.split())


def test_several_numbers_stack_like_rules_example():
    recipe = chips(neighbours_recipe([1, 9, 14], 2))
    assert sum(recipe.values()) == 15
    assert recipe[(14,)] == 3
    assert all(recipe[(n,)] == 2 for n in (1, 20, 31, 9))
    assert all(recipe[(n,)] == 1 for n in (16, 33, 18, 22))


@pytest.mark.parametrize(("digit", "count"), [(0, 4), (3, 4), (6, 4), (7, 3), (9, 3)])
def test_finale_plein_counts(digit, count):
    recipe = finale_plein(digit, VENICE)
    assert len(recipe) == count and all(p.numbers[0] % 10 == digit for p, _ in recipe)


@pytest.mark.parametrize(
    ("pair", "expected"),
    [
        ((8, 9), {(8, 9), (18,), (19,), (28, 29)}),
        ((3, 6), {(3, 6), (13, 16), (23, 26), (33, 36)}),
        ((0, 1), {(0, 1), (10, 11), (20, 21), (30,), (31,)}),
        ((5, 8), {(5, 8), (15, 18), (25, 28)}),
        ((7, 10), {(7, 10), (17, 20), (27, 30)}),
    ],
)
def test_finale_cheval_chips(pair, expected):
    assert set(chips(finale_cheval(*pair, VENICE))) == expected


def test_venice_finale_counts():
    counts = {"0/1": 5, "1/2": 5, "2/3": 5, "4/5": 5, "5/6": 5, "7/8": 4, "8/9": 4,
              "0/3": 4, "1/4": 4, "2/5": 4, "3/6": 4, "4/7": 3, "5/8": 3, "6/9": 3,
              "7/10": 3, "8/11": 3, "9/12": 3}  # fmt: skip
    for name, count in counts.items():
        a, b = map(int, name.split("/"))
        assert len(finale_cheval(a, b, VENICE)) == count, name


APPENDIX_B = {0: 17, 1: 27, 2: 36, 3: 27, 4: 30, 5: 40, 17: 40, 16: 30, 34: 18, 35: 24, 36: 18}


@pytest.mark.parametrize(("n", "units"), sorted(APPENDIX_B.items()))
def test_complete_progressive_units(n, units):
    recipe = complete(n, VENICE)
    assert sum(k for _, k in recipe) == units
    paid = sum(k * (p.odds + 1) for p, k in recipe if n in p.numbers)
    assert paid == {17: 432, 16: 324, 0: 252, 34: 216, 35: 288}.get(n, paid)


def test_complete_17_chip_by_chip():
    assert chips(complete(17, VENICE)) == {
        (17,): 1, (14, 17): 2, (16, 17): 2, (17, 18): 2, (17, 20): 2, (16, 17, 18): 3,
        (13, 14, 16, 17): 4, (14, 15, 17, 18): 4, (16, 17, 19, 20): 4, (17, 18, 20, 21): 4,
        (13, 14, 15, 16, 17, 18): 6, (16, 17, 18, 19, 20, 21): 6,
    }  # fmt: skip


def test_complete_without_zero_combinations():
    assert len(positions_touching(1, include_zero_combinations=False)) == 7
    assert len(positions_touching(0, include_zero_combinations=False)) == 7


def test_house_refuses_unoffered_call():
    from callbets import IllegalBetError

    with pytest.raises(IllegalBetError, match="not played"):
        Call("nassa").recipe(find_house("france"))


def test_every_called_bet_is_one_complete_unit():
    """A called bet is an entry of the registry, its name said back in every language,
    and the word that names it alone (if any) in every grammar and the terminal table of
    grammar/README.md; whatever is missing is named."""
    missing = []
    if set(CALLED_BETS) != set(CallName):
        missing.append(f"calls.py: no entry for {sorted(set(CallName) - set(CALLED_BETS))}")
    word_rule = (ROOT / "grammar" / "shared.lark").read_text(encoding="utf-8")
    word_rule = word_rule[
        word_rule.index("\nword:") : word_rule.index("\n\n", word_rule.index("\nword:"))
    ]
    table = (ROOT / "grammar" / "README.md").read_text(encoding="utf-8")
    for lang in LANGUAGES:
        names = language_words("readback.toml", lang)["names"]
        missing += [f"readback.toml [{lang}] names: {c}" for c in CallName if c not in names]
        terminals = set(language(lang).lexicon.phrases.values())
        missing += [f"{lang}.lark: {b.word}" for b in CALLED_BETS.values()
                    if b.word and b.word not in terminals]  # fmt: skip
    for bet in CALLED_BETS.values():
        if bet.word and f" {bet.word}" not in word_rule:
            missing.append(f"shared.lark word rule: {bet.word}")
        if bet.word and f"`{bet.word}`" not in table:
            missing.append(f"grammar/README.md terminal table: {bet.word}")
    assert missing == []


@pytest.mark.parametrize("name", list(CallName))
def test_every_called_bet_places_chips_where_it_is_offered(name):
    numbers = {"neighbours": (17,), "finale_plein": (5,), "finale_cheval": (3, 6),
               "complete": (17,), "with_splits": (17,)}.get(name, ())  # fmt: skip
    house = dataclasses.replace(VENICE, offered=frozenset(CallName))
    recipe = Call(name, numbers).recipe(house)
    assert recipe and all(pieces >= 1 for _, pieces in recipe)
