"""The house's limits across every bet at the table (rules.md 4.2, 5, 6): a maximum binds
the total on one position, whoever placed it, replays included; Venice caps stakes at a
zero before imprisoning or halving them; the fourth zero splits what is still in play."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from callbets import find_house
from callbets.language.parse import parse
from callbets.roulette.layout import BetKind, simple_chance
from callbets.roulette.limits import LimitError, check_limits
from callbets.roulette.replay import ReplayError
from callbets.roulette.settle import Bet, call_results, settle
from callbets.table import Table

from .conftest import Where


def table(where: Where, house: str) -> Table:
    t = Table.create(where(Path(house).stem), house, "fr")
    for name in ("rouge", "bleu"):
        t.add_player(name)
    return t


def cb(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "callbets", *args], capture_output=True, text=True)


# ---- the maximum is per position, at the table --------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [("rouge", "rouge"), ("rouge", "bleu")],  # the same player, or "through third parties"
)
def test_a_strict_maximum_binds_the_total_on_a_position(where: Where, first, second):
    t = table(where, "france")  # straight-up maximum 30
    t.bet(first, "17 en plein à 20")
    with pytest.raises(LimitError, match=r"20 already on it: the table maximum .* is 30"):
        t.bet(second, "17 en plein à 20")
    t.bet(second, "17 en plein à 10")  # up to the maximum is fine
    assert t.state()["staked"] == 30


@pytest.mark.parametrize("house", ["france", "english"])
def test_one_announcement_naming_a_position_twice_is_checked_on_the_total(house):
    h = find_house(house)
    high = h.limits.for_kind("straight")[1]  # type: ignore[index]
    half = high // 2 + 1
    # the same call said twice is asked about (once, or twice?): here the 17 is named
    # by two calls, en plein and with its splits
    said = f"17 en plein à {half} et le 17 avec ses chevaux à {half}"
    with pytest.raises(LimitError, match=f"straight 17 at {2 * half}"):
        check_limits(parse(said, "fr", h), h)


@pytest.mark.parametrize("house", ["venice-french", "venice-fair"])
def test_where_the_house_caps_only_the_maximum_plays_across_bets(where: Where, house):
    t = table(where, house)
    high = t.house.limits.for_kind("straight")[1]  # type: ignore[index]
    t.bet("rouge", f"17 en plein à {high - 10}")
    _, warned = t._parse(f"17 en plein à {high}", None)
    assert warned and f"only 10 of it plays, {high - 10} will be handed back" in warned[0]
    t.bet("bleu", f"17 en plein à {high}")
    with pytest.raises(LimitError, match="nothing of"):  # the position is full now
        t.bet("rouge", "17 en plein à 5")
    t.close()
    s = t.spin(17).settlement
    # one maximum paid 35 to 1, the part over it handed back
    assert s.returned("rouge") == 36 * (high - 10) and s.returned("bleu") == 36 * 10 + high - 10
    assert s.returned() == 37 * high - 10


def test_the_cap_follows_the_order_the_bets_were_placed():
    h = find_house("venice-french")  # straight maximum 100
    straight17 = parse("17 en plein", "fr", h).calls[0].placements[0].position
    bets = [Bet("1", "a", straight17, 60), Bet("2", "b", straight17, 60)]
    s = settle(bets, 17, h)
    by_id = {o.bet.id: o for o in s.outcomes}
    assert (by_id["1"].excess, by_id["2"].excess) == (0, 20)
    assert by_id["2"].paid == 35 * 40


def test_prison_counts_towards_the_maximum_where_the_house_says_so(tmp_path: Path):
    text = (Path(__file__).parent.parent / "callbets/houses/venice-french.toml").read_text()
    counting = tmp_path / "counting.toml"
    counting.write_text(text.replace("prison_counts_to_max = false", "prison_counts_to_max = true"))
    for path, plays in ((counting, 1500), (Path("venice-french"), 3000)):
        h = find_house(str(path))
        red = simple_chance(BetKind.RED)
        bets = [Bet("1", "a", red, 3000, prison=1), Bet("2", "b", red, 3000)]
        outcome = next(o for o in settle(bets, 1, h).outcomes if o.bet.id == "2")
        assert outcome.paid == plays and outcome.excess == 3000 - plays


# ---- replays check the limits as a new bet does ---------------------------------------


def test_pour_le_tout_over_a_strict_maximum_is_refused(where: Where):
    t = table(where, "france")  # split maximum 60
    aid, _ = t.bet("rouge", "tiers à 50")
    t.close()
    t.spin(27)
    with pytest.raises(ReplayError, match="tiers at 150 a piece, over the table maximum"):
        t.replay(aid, "tout")
    with pytest.raises(LimitError):  # the same as a direct bet
        t.bet("rouge", "tiers à 150")
    assert t.state()["staked"] == 0


def test_pour_le_tout_where_the_house_caps_places_what_fits_and_hands_the_rest(where: Where):
    t = table(where, "venice-french")  # split maximum 200
    aid, _ = t.bet("rouge", "tiers à 100")
    t.close()
    t.spin(27)  # the split 27/30 wins: 17 × 100 + 100 back = 1800 = 6 × 300
    done = t.replay(aid, "tout")
    assert done.placed.unit == 200 and done.handed == 1800 - 6 * 200
    assert t.state()["staked"] == 1200


def test_a_replay_meets_what_others_already_put_on_its_positions(where: Where):
    t = table(where, "france")  # split maximum 60
    aid, _ = t.bet("rouge", "tiers à 30")
    t.close()
    t.spin(27)
    t.bet("bleu", "cheval 5/8 à 40")
    with pytest.raises(LimitError, match="split 5/8 at 30 with 40 already on it"):
        t.replay(aid, "refaire")


# ---- Venice at zero, and the fourth zero ----------------------------------------------


@pytest.mark.parametrize(
    ("choice", "returned", "prison"),
    [("prison", 1, 3000), ("half", 1501, 0)],  # not 3001 in prison, not 1500.5 back
)
def test_venice_caps_a_stake_before_the_zero_rule(where: Where, choice, returned, prison):
    t = table(where, "venice-french")  # simple chances maximum 3000
    t.bet("rouge", "rouge à 3001")
    t.close()
    bet = t.open_bets()[0]
    s = t.spin(0, choices={bet.id: choice}).settlement
    assert s.returned("rouge") == returned and s.in_prison("rouge") == prison


def test_to_place_shows_the_capped_pieces():
    h = find_house("venice-french")  # corner maximum 400
    a = parse("voisins à 250", "fr", h)  # the corner 25/26/28/29 holds 2 pieces = 500
    bets = [b for i, c in enumerate(a.calls) for b in _bets(c, i)]
    (result,) = call_results(settle(bets, 26, h), h)
    corner = next(amount for p, amount in result.to_place if p.kind is BetKind.CORNER)
    assert corner == 400


def _bets(call, i):  # type: ignore[no-untyped-def]
    return [
        Bet(f"{i}.{k}", "a", p.position, p.amount, call.name, f"0.{i}")
        for k, p in enumerate(call.placements)
    ]


@pytest.mark.parametrize(("stake", "back"), [(16, 1), (48, 3), (5, Fraction(5, 16))])
def test_the_fourth_zero_at_venice_splits_what_is_still_in_play(where: Where, stake, back):
    t = table(where, "venice-french")  # at most three times in prison
    t.bet("rouge", f"rouge à {stake}")
    for _ in range(3):
        t.close()
        t.spin(0)
    t.close()
    s = t.spin(0).settlement  # stake / 2^4, not half of the stake
    assert s.returned("rouge") == back and s.in_prison("rouge") == 0


# ---- the same through the commands ------------------------------------------------------


def test_callbets_table_refuses_a_second_bet_over_the_maximum(where: Where):
    path = where("t")
    assert cb("table", "--table", path, "open", "--house", "france", "--lang", "fr").returncode == 0
    cb("table", "--table", path, "player", "rouge")
    assert cb("table", "--table", path, "bet", "rouge", "17 en plein à 20").returncode == 0
    proc = cb("table", "--table", path, "bet", "rouge", "17 en plein à 20")
    # said in the table's language (fr)
    assert proc.returncode == 1 and "le maximum de la table sur une position est 30" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_callbets_settle_applies_the_limits_as_a_table_does():
    # the 17 named by two calls (the same call said twice is asked about instead)
    proc = cb("settle", "--json", "--house", "france", "--spin", "17",
              "17 en plein à 20 et le 17 avec ses chevaux à 20")  # fmt: skip
    data = json.loads(proc.stdout)
    assert proc.returncode == 1 and data["error"]["kind"] == "limit"
    proc = cb("settle", "--json", "--house", "venice-french", "--spin", "17",
              "17 en plein à 100 et le 17 avec ses chevaux à 100")  # fmt: skip
    data = json.loads(proc.stdout)
    # one maximum on the 17 paid 35 to 1 (3600), the second 100 handed back, and the
    # four splits of the 17 at 100 each paid 17 to 1 (4 × 1800)
    assert data["returned"] == 3600 + 100 + 4 * 1800
    assert "seuls 100 jouent, 100 seront rendus" in data["warnings"][0]
