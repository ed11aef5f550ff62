"""Settlement against rules.md: every called bet per number, zero rules, limits, replays."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from callbets import find_house, parse
from callbets.roulette.layout import BetKind, simple_chance
from callbets.roulette.limits import LimitError, check_limits
from callbets.roulette.replay import ReplayError, replay
from callbets.roulette.settle import Bet, SettlementError, bets_for, call_results, settle

VENICE = find_house("venice-french")
FAIR = find_house("venice-fair")
FRANCE = find_house("france")
ENGLISH = find_house("english")
HOUSES = [VENICE, FAIR, FRANCE, ENGLISH]


def back(text: str, number: int, house=VENICE, lang: str = "fr") -> Fraction:
    return settle(bets_for(parse(text, lang, house), "p"), number, house).returned()


# rules.md 3: what one unit per piece brings back, number by number.
VOISINS = {
    0: 24,
    2: 24,
    3: 24,
    **{n: 18 for n in (4, 7, 12, 15, 18, 21, 19, 22, 25, 26, 28, 29, 32, 35)},
}
TIERS = {n: 18 for n in (5, 8, 10, 11, 13, 16, 23, 24, 27, 30, 33, 36)}
ORPHELINS = {1: 36, 17: 36, **{n: 18 for n in (6, 9, 14, 20, 31, 34)}}
ORPHELINS_PLEIN = {n: 36 for n in (1, 6, 9, 14, 17, 20, 31, 34)}
JEU_ZERO = {26: 36, **{n: 18 for n in (0, 3, 12, 15, 32, 35)}}
NASSA = {19: 36, 26: 36, **{n: 18 for n in (0, 3, 12, 15, 32, 35)}}


@pytest.mark.parametrize(
    ("text", "lang", "table"),
    [
        ("voisins du zéro", "fr", VOISINS),
        ("tiers du cylindre", "fr", TIERS),
        ("orphelins", "fr", ORPHELINS),
        ("orphelins en plein", "fr", ORPHELINS_PLEIN),
        ("jeu zéro", "fr", JEU_ZERO),
        ("nassa", "it", NASSA),
    ],
)
def test_called_bets_number_by_number(text, lang, table):
    for n in range(37):
        assert back(text, n, lang=lang) == table.get(n, 0), n


def test_called_bet_net_figures_from_rules():
    assert back("voisins du zéro", 0) - 9 == 15
    assert back("orphelins", 17) - 5 == 31
    assert back("jeu zéro", 26) - 4 == 32
    assert back("nassa", 19, lang="it") - 5 == 31


def test_neighbours_and_finales_and_complete():
    assert back("17 et les voisins", 34) == 36 and back("17 et les voisins", 5) == 0
    assert back("1, 9, 14 et les voisins", 14) == 3 * 36  # three chips stacked on 14
    assert back("finale 3", 23) == 36
    assert back("finale 8/9", 18) == 36 and back("finale 8/9", 28) == 18
    assert back("le 17 complet", 17) == 432  # rules.md 3.10: pays 392, plus the 40 staked
    assert back("le 16 complet", 16) == 324
    assert back("le 0 complet", 0) == 252


@pytest.mark.parametrize("house", HOUSES, ids=lambda h: h.name)
@pytest.mark.parametrize(
    ("text", "win", "lose", "odds"),
    [
        ("17 en plein à 2", 17, 18, 35),
        ("cheval 17/20 à 2", 20, 18, 17),
        ("transversale 16/18 à 2", 18, 19, 11),
        ("carré 25/29 à 2", 28, 27, 8),
        ("sixain 13/18 à 2", 13, 19, 5),
        ("première douzaine à 2", 12, 13, 2),
        ("colonne 34 à 2", 34, 35, 2),
        ("rouge à 2", 1, 2, 1),
        ("noir à 2", 2, 1, 1),
        ("pair à 2", 36, 35, 1),
        ("impair à 2", 35, 36, 1),
        ("manque à 2", 18, 19, 1),
        ("passe à 2", 19, 18, 1),
    ],
)
def test_every_kind_wins_and_loses(house, text, win, lose, odds):
    assert back(text, win, house) == 2 * (odds + 1)
    assert back(text, lose, house) == 0


@pytest.mark.parametrize("house", HOUSES, ids=lambda h: h.name)
def test_zero_wins_zero_positions_and_columns_dozens_lose(house):
    for text in ("0 en plein", "cheval 0/1", "transversale 0/1/2", "quatre premiers"):
        assert back(text, 0, house) > 0
    for text in ("première douzaine", "colonne 34", "douze derniers"):
        s = settle(bets_for(parse(text, "fr", house), "p"), 0, house)
        assert s.outcomes[0].result == "lost" and s.returned() == 0


def test_two_dozens_pay_half_to_one_in_france():
    assert back("vingt-quatre premiers à 2", 5, FRANCE) == 3


def chance(kind: str, amount: int, prison: int = 0) -> Bet:
    return Bet("b", "p", simple_chance(BetKind(kind)), amount, kind, "g", prison)


def run(house, bet: Bet, numbers, choices=None, last=False):
    """Spin a single simple-chance bet through several numbers; yield each outcome."""
    outcomes = []
    for i, n in enumerate(numbers):
        o = settle([bet], n, house, choices, last and i == len(numbers) - 1).outcomes[0]
        outcomes.append(o)
        if o.kept is None:
            break
        bet = o.kept
    return outcomes


def test_venice_prison_levels_and_release():
    o = run(VENICE, chance("red", 10), [0, 0, 1, 3])
    assert [x.result for x in o] == ["prison", "prison", "prison", "won"]
    assert [x.kept.prison if x.kept else 0 for x in o] == [1, 2, 1, 0]
    assert o[-1].returned == 10 and o[-1].paid == 0  # freed, no winnings


def test_venice_prison_lost_and_fourth_zero_splits():
    assert run(VENICE, chance("red", 10), [0, 2])[-1].result == "lost"
    o = run(VENICE, chance("red", 10), [0, 0, 0, 0])
    assert [x.result for x in o] == ["prison", "prison", "prison", "shared"]
    assert o[-1].returned == Fraction(10, 16)  # the value still in play split: stake / 2^4


def test_venice_half_back_and_move_at_a_zero():
    (half,) = run(VENICE, chance("red", 10), [0], {"b": "half"})
    assert half.result == "shared" and half.returned == 5
    moved = run(VENICE, chance("red", 10), [0, 2], {"b": "move:black"})
    assert moved[0].kept.position.kind is BetKind.BLACK and moved[0].kept.prison == 1
    assert moved[1].result == "won" and moved[1].returned == 10
    with pytest.raises(SettlementError):
        settle([chance("red", 10)], 0, VENICE, {"b": "move:dozen"})


def test_fair_shares_at_once_and_keeps_the_odd_chip():
    o = run(FAIR, chance("red", 5), [0, 1])
    assert o[0].result == "shared" and o[0].returned == 2 and o[0].kept.amount == 1
    assert o[1].result == "won" and o[1].returned == 1
    assert run(FAIR, chance("red", 5), [0, 2])[-1].result == "lost"
    assert run(FAIR, chance("red", 4), [0])[0].kept is None
    with pytest.raises(SettlementError):
        settle([chance("red", 10)], 0, FAIR, {"b": "half"})


def test_france_player_choice_and_last_spin_refund():
    assert run(FRANCE, chance("even", 8), [0])[0].result == "prison"
    assert run(FRANCE, chance("even", 8), [0], {"b": "half"})[0].returned == 4
    forced = run(FRANCE, chance("even", 8), [0, 0], last=True)
    assert forced[-1].result == "shared" and forced[-1].returned == 2  # a quarter
    assert run(FRANCE, chance("even", 8), [0, 0, 0, 0, 0])[-1].kept.prison == 5  # no limit


def test_english_partage():
    (o,) = run(ENGLISH, chance("odd", 7), [0])
    assert o.result == "shared" and o.returned == 3 and o.kept is None  # the odd chip: bank
    (even,) = run(ENGLISH, chance("odd", 8), [0])
    assert even.returned == 4


@pytest.mark.parametrize(("odd_chip", "back"), [("bank", 2), ("player", 3),
                                                 ("fraction", Fraction(5, 2))])  # fmt: skip
def test_the_house_says_who_has_the_odd_chip_of_a_partage(tmp_path, odd_chip, back):
    """Half of 5 pieces is not a whole number of pieces: the house says (issue 42)."""
    from callbets.roulette.house import find_house

    path = tmp_path / "h.toml"
    path.write_text(f'extends = "english"\nname = "h"\n[zero]\nodd_chip = "{odd_chip}"\n')
    (o,) = run(find_house(str(path)), chance("red", 5), [0])
    assert o.returned == back


def test_venice_over_maximum_is_capped_and_refunded():
    a = parse("17 en plein à 150", "fr")
    assert check_limits(a, VENICE)  # a warning, not a refusal
    won = settle(bets_for(a, "p"), 17, VENICE).outcomes[0]
    assert won.paid == 3500 and won.excess == 50 and won.returned == 3500 + 100 + 50
    lost = settle(bets_for(a, "p"), 5, VENICE).outcomes[0]
    assert lost.returned == 50


@pytest.mark.parametrize(
    ("house", "text"),
    [
        (FRANCE, "17 en plein à 31"),
        (FAIR, "17 en plein"),
        (FAIR, "rouge à 4"),
        (FAIR, "jeu zéro"),
        (ENGLISH, "rouge à 361"),
    ],
)
def test_limits_refuse_with_a_reason(house, text):
    with pytest.raises(LimitError) as info:
        check_limits(parse(text, "fr", house), house)
    assert str(info.value)


def test_a_position_already_at_its_maximum_takes_nothing_more():
    """Of a chip on a position already at its maximum nothing would play: refused with
    the reason, not placed to be handed back whole (issue 42); a chip of which part
    plays is still capped (Venice) with the croupier warned."""
    a = parse("17 en plein à 50", "fr")
    full = [(a.calls[0].placements[0].position, Fraction(100))]  # the maximum, there
    with pytest.raises(LimitError, match="nothing of 50 more could play there"):
        check_limits(a, VENICE, full)
    part = [(a.calls[0].placements[0].position, Fraction(80))]
    assert check_limits(a, VENICE, part)  # 20 play, 30 handed back: a warning


def test_limits_accept_at_fair_with_enough_chips():
    assert check_limits(parse("jeu zéro à 2", "fr", FAIR), FAIR) == []
    assert check_limits(parse("rouge à 5", "fr", FAIR), FAIR) == []


def _won(text: str, number: int):
    a = parse(text, "fr")
    s = settle(bets_for(a, "p"), number, VENICE)
    return a.calls[0], call_results(s, VENICE)[0]


def test_replays_tiers_by_one_won_on_27():
    call, result = _won("tiers à 1", 27)
    refaire = replay("refaire", call, result, VENICE)
    assert refaire.from_win == 6 and refaire.handed == 12 and refaire.placed.unit == 1
    completer = replay("completer", call, result, VENICE)
    assert completer.left_in_place == 1 and completer.from_win == 5 and completer.handed == 12
    tout = replay("tout", call, result, VENICE)
    assert tout.placed.notation() == "tiers x3" and tout.handed == 0


def test_pour_le_tout_voisins_doubles_and_returns_the_rest():
    call, result = _won("voisins à 1", 26)
    assert replay("tout", call, result, VENICE).placed.unit == 2
    call, result = _won("voisins à 1", 0)
    done = replay("tout", call, result, VENICE)
    assert done.placed.unit == 2 and done.handed == 6


def test_voisins_completer_leaves_the_two_winning_pieces():
    call, result = _won("voisins à 5", 26)
    done = replay("completer", call, result, VENICE)
    assert done.left_in_place == 10 and done.from_win == 35 and done.handed == 45


def test_replay_refusals():
    call, result = _won("tiers à 1", 2)
    with pytest.raises(ReplayError, match="did not win"):
        replay("refaire", call, result, VENICE)
    call, result = _won("orphelins", 1)
    with pytest.raises(ReplayError, match="only for"):
        replay("tout", call, result, VENICE)


def test_paid_to_place_names_the_winning_piece():
    _, result = _won("voisins à 5", 26)
    assert [(str(p), a) for p, a in result.to_place] == [("corner 25/26/28/29", 10)]
    a = parse("voisins à 5", "fr", FRANCE)
    assert call_results(settle(bets_for(a, "p"), 26, FRANCE), FRANCE)[0].to_place == ()


def test_bad_number():
    with pytest.raises(SettlementError):
        settle([], 37, VENICE)


ANNOUNCEMENTS = [
    "voisins à 3", "tiers à 2", "orphelins", "jeu zéro à 4", "17 et les voisins à 2",
    "finale 8/9", "finale 3 à 2", "le 17 complet", "cheval 5/8 à 3", "carré 25/29",
    "sixain 13/18 à 2", "colonne 35", "douzaine du milieu à 2", "le 35 complet",
    "1, 9, 14 et les voisins",
]  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(ANNOUNCEMENTS), min_size=1, max_size=5))
def test_invariant_returned_is_pieces_times_odds_plus_one(texts):
    """Over all 37 numbers: what comes back = Σ over winning positions of stake × (odds + 1)."""
    bets = [b for i, t in enumerate(texts) for b in bets_for(parse(t, "fr"), f"p{i}", f"a{i}")]
    for n in range(37):
        expected = sum(b.amount * (b.position.odds + 1) for b in bets if n in b.position.numbers)
        assert settle(bets, n, VENICE).returned() == expected
