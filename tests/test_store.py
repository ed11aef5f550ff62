"""The persistent table: transactions, exactly-once spins, audit, errors, crashes; each test
that is not about SQLite files runs on both backends (SQLite and PostgreSQL)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from callbets import AnnouncementError
from callbets.roulette.limits import LimitError
from callbets.roulette.replay import ReplayError
from callbets.roulette.settle import settle
from callbets.table import Table, TableError, money

from .conftest import ROOT, Where


@pytest.fixture
def table(where: Where) -> Table:
    t = Table.create(where("table"), "venice-french", "fr")
    t.add_player("rouge")
    t.add_player("vert")
    return t


def test_an_evening_round_trip(table: Table):
    table.bet("rouge", "voisins du zéro à 5")
    aid, _ = table.announce("vert", "tiers à 1")
    table.confirm(aid)
    table.close()
    report = table.spin(26)
    data = report.to_json()
    assert data["players"]["rouge"] == {"staked": 45, "returned": 90, "net": 45, "prison": 0}
    assert data["players"]["vert"]["returned"] == 0
    assert data["to_place"][0]["placements"] == [
        {"bet": "corner", "numbers": [25, 26, 28, 29], "amount": 10}
    ]
    assert table.is_open and table.round == 2


def test_no_bet_after_rien_ne_va_plus(table: Table):
    table.close()
    with pytest.raises(TableError, match="betting is closed"):
        table.bet("rouge", "tiers")
    assert table.state()["staked"] == 0


def test_spin_only_when_closed_and_only_once(table: Table):
    table.bet("rouge", "rouge à 10")
    with pytest.raises(TableError, match="still open"):
        table.spin(1)
    table.close()
    first = table.spin(1)
    assert first.settlement.returned() == 20
    again = table.spin(1, round_no=1)  # the same entry repeated: nothing changes
    assert again.settlement.returned() == 20
    with pytest.raises(TableError, match="already settled on 1"):
        table.spin(2, round_no=1)
    count = table.store.value("SELECT count(*) FROM outcomes WHERE table_id = :t")
    assert count == 1 and table.round == 2


def test_prison_carries_over_between_spins(table: Table):
    table.bet("vert", "rouge à 10")
    table.close()
    table.spin(0)
    assert table.state()["prison"] == 10
    table.close()
    table.spin(0)
    assert table.state()["players"]["vert"]["bets"][0]["prison"] == 2
    table.close()
    table.spin(1)
    table.close()
    report = table.spin(3)
    assert report.settlement.returned("vert") == 10  # freed after two wins
    assert table.state()["prison"] == 0


def test_zero_choice_by_bet_id(table: Table):
    table.bet("vert", "rouge à 10")
    table.close()
    bet_id = table.open_bets()[0].id
    report = table.spin(0, choices={bet_id: "half"})
    assert report.settlement.returned("vert") == 5 and table.state()["prison"] == 0


def test_replay_after_a_win_and_refusals(table: Table):
    aid, _ = table.bet("rouge", "tiers à 1")
    lost, _ = table.bet("vert", "orphelins")
    table.close()
    table.spin(27)
    done = table.replay(aid, "completer")
    assert done.from_win == 5 and done.handed == 12
    with pytest.raises(TableError, match="already replayed"):
        table.replay(aid, "refaire")
    with pytest.raises(ReplayError, match="did not win"):
        table.replay(lost, "refaire")
    assert table.state()["players"]["rouge"]["staked"] == 6


def test_a_replayed_bet_that_wins_again_can_be_replayed(table: Table):
    """Replays are stored as notation; replaying one must read it back as notation."""
    aid, _ = table.bet("rouge", "voisins du zéro à 5")
    table.close()
    table.spin(26)
    table.replay(aid, "refaire")
    table.close()
    table.spin(4)
    (again,) = [c for c in table.last_spin().calls if c.won]  # type: ignore[union-attr]
    second_aid = int(again.group.split(".")[0])
    player, placed = table.announcement(second_aid)
    assert (player, placed.notation()) == ("rouge", "voisins x5")
    done = table.replay(second_aid, "refaire")
    assert done.placed.total == 45 and done.handed == 90 - 45


def test_pending_announcements_are_listed_until_settled(table: Table):
    aid, _ = table.announce("rouge", "tiers à 2")
    assert table.pending() == [(aid, "rouge", "tiers à 2")]
    table.confirm(aid)
    assert table.pending() == [] and table.last_spin() is None


def test_several_announcements_are_read_at_once_as_one_by_one(table: Table):
    first, _ = table.announce("rouge", "tiers à 2")
    table.bet("vert", "voisins du zéro à 1")
    third, _ = table.announce("vert", "le 17 et les voisins par 5")
    ids = [first, first + 1, third, third + 100]  # the last was never recorded
    found = table.announcements(ids)
    assert sorted(found) == [first, first + 1, third]
    for aid in found:
        player, announcement = table.announcement(aid)
        assert found[aid][0] == player
        assert found[aid][1].notation() == announcement.notation()
    assert table.announcements([]) == {}
    assert list(table.announcements([third])) == [third]  # not its neighbours in between


def test_an_announcement_is_read_as_it_was_placed_not_parsed_again(table: Table):
    """The calls come from the notation stored when it was read back: words that a later
    grammar reads otherwise (here: words changed under it) change neither the read-back
    nor the chips confirmed; the words said are kept."""
    aid, said_then = table.announce("rouge", "le 17 et les voisins par 5")
    table.store.rows("UPDATE announcements SET text = 'tiers à 2' WHERE table_id = :t")
    player, placed = table.announcement(aid)
    assert (player, placed.text) == ("rouge", "tiers à 2")
    assert placed.calls == said_then.calls
    assert table.confirm(aid).calls == said_then.calls
    assert table.state()["staked"] == said_then.total == 25


def test_undo_and_clear(table: Table):
    table.bet("rouge", "tiers")
    table.bet("rouge", "voisins")
    table.undo()
    assert table.state()["staked"] == 6
    table.clear("rouge")
    assert table.state()["staked"] == 0
    with pytest.raises(TableError, match="nothing to undo"):
        table.undo()


@pytest.mark.parametrize(
    ("player", "text", "error"),
    [
        ("bleu", "tiers", TableError),
        ("rouge", "cheval 5/9", AnnouncementError),
        ("rouge", "voisins à 0", AnnouncementError),
    ],
)
def test_bad_input_changes_nothing(table: Table, player, text, error):
    before = table.state()
    with pytest.raises(error):
        table.bet(player, text)
    assert table.state() == before


def test_limits_refused_at_placement(where: Where):
    t = Table.create(where("fair"), "venice-fair", "fr")
    t.add_player("bleu")
    with pytest.raises(LimitError, match="at least 5"):
        t.bet("bleu", "17 en plein")
    t.bet("bleu", "jeu zéro à 2")


def test_number_off_the_wheel(table: Table):
    table.close()
    with pytest.raises(TableError, match="not on the wheel"):
        table.spin(37)


def test_audit_is_append_only_and_exports(table: Table):
    table.bet("rouge", "tiers")
    with pytest.raises(TableError, match="append-only"):
        table.store.rows("UPDATE audit SET kind = 'x' WHERE table_id = :t")
    with pytest.raises(TableError, match="append-only"):
        table.store.rows("DELETE FROM audit WHERE table_id = :t")
    with contextlib.suppress(AnnouncementError):
        table.bet("rouge", "blorp")
    out = io.StringIO()
    table.export_audit(out)
    events = [json.loads(line)["event"] for line in out.getvalue().splitlines()]
    assert events == ["open", "player", "player", "announce", "confirm", "refused"]


def test_survives_reopen(table: Table, where: Where):
    table.bet("rouge", "tiers")
    table.close_file()
    again = Table.open(where("table"))
    assert again.state()["staked"] == 6 and again.house.name == "venice-french"


def test_corrupt_and_foreign_files(tmp_path: Path):
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(TableError, match="not a callbets table"):
        Table.open(junk)
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(TableError, match="not a callbets table"):
        Table.open(other)
    with pytest.raises(TableError, match="no table"):
        Table.open(tmp_path / "missing.sqlite")


def test_locked_file_is_a_clear_error(tmp_path: Path):
    table = Table.create(tmp_path / "table.sqlite", "venice-french", "fr")
    table.add_player("rouge")
    locker = sqlite3.connect(tmp_path / "table.sqlite", isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(TableError, match="locked"):
            table.bet("rouge", "tiers")
    finally:
        locker.execute("ROLLBACK")
    table.bet("rouge", "tiers")


def _child(path: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.table_child", str(path), *args],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def test_sigkill_inside_a_spin_loses_nothing_and_pays_once(where: Where):
    path = where("crash")
    child = _child(path, "hang-in-spin")
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "IN_SPIN", child.stderr.read() if child.stderr else ""
    os.kill(child.pid, signal.SIGKILL)
    child.communicate()
    t = Table.open(path)
    assert not t.is_open and t.round == 1  # the spin never happened
    assert (
        len(t.open_bets()) == 8
        and t.store.value("SELECT count(*) FROM outcomes WHERE table_id = :t") == 0
    )
    report = t.spin(26)  # the croupier enters it again
    assert report.settlement.returned("rouge") == 90
    t.spin(26, round_no=1)
    assert t.store.value("SELECT count(*) FROM outcomes WHERE table_id = :t") == 8
    assert t.round == 2 and t.open_bets() == []


def test_random_sigkills_over_an_evening_keep_the_books(where: Where):
    path = where("evening")
    rng = random.Random(7)
    for attempt in range(12):
        child = _child(path, "evening", str(attempt))
        assert child.stdout is not None
        # once the child is under way (however slow its start on a busy machine), kill it
        # at a random moment of its evening: inside a bet, a spin, or between them
        assert child.stdout.readline().startswith("round"), child.stderr
        time.sleep(rng.uniform(0.0, 0.4))
        os.kill(child.pid, signal.SIGKILL)
        child.communicate()
    t = Table.open(path)
    rounds = [r for (r,) in t.store.rows(
        "SELECT round FROM spins WHERE table_id = :t ORDER BY round")]  # fmt: skip
    assert rounds == list(range(1, t.round)) and len(rounds) > 5
    dup = t.store.rows(
        "SELECT bet FROM outcomes WHERE table_id = :t GROUP BY bet HAVING count(*) > 1"
    )
    assert dup == []
    unsettled = t.store.value(
        "SELECT count(*) FROM bets b WHERE table_id = :t AND status = 'settled' AND NOT EXISTS"
        " (SELECT 1 FROM outcomes o WHERE o.table_id = b.table_id AND o.bet = b.id)"
    )
    assert unsettled == 0
    for round_no, number, report in t.store.rows(
        "SELECT round, number, report FROM spins WHERE table_id = :t"
    ):
        stored = json.loads(report)
        again = settle(t.settled_bets(round_no), number, t.house, stored["choices"])
        assert stored["returned"] == money(again.returned())
        assert stored["staked"] == money(again.staked())


def test_a_table_opened_again_shares_its_house_built_once(table: Table, where: Where):
    """A floor opens each table several times a second: the house its header holds is
    built once per profile, not at every open (and a profile that changes is read)."""
    again = [Table.open(where("table"), write=False) for _ in range(2)]
    assert again[0].house is again[1].house is table.house
    other = Table.create(where("other"), "venice-fair", "fr")
    assert other.house is not table.house and other.house.name == "venice-fair"
    for t in [*again, other]:
        t.close_file()
