"""``callbets floor``: a pit boss's view of every table of a PostgreSQL database, read while
the tables are being played, with its flags."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psycopg

from callbets.messages import message_in
from callbets.table import Table
from callbets.table.floor import survey
from callbets.table.watch import Watch

from .conftest import ROOT


def cb(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "callbets", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)  # fmt: skip


def new_database(server: str) -> str:
    name = f"floor_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    url = server.rsplit("/", 1)[0] + f"/{name}"
    assert cb("db", "upgrade", url).returncode == 0
    return url


def test_the_floor_follows_several_tables_played_at_once(postgres_server: str):
    db = new_database(postgres_server)
    players = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.table_child", f"{db}?table=T{i}", "evening", str(i)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(3)
    ]
    try:
        seen: dict[str, list[int]] = {}
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and min(map(len, seen.values() or [[]])) < 4:
            for v in survey([db]):
                assert not v.error, v.error
                assert not any("AUDIT" in f for f in v.flags), v.flags
                seen.setdefault(v.table, []).append(v.round)
            time.sleep(0.2)
    finally:
        for p in players:
            p.kill()
            p.communicate()
    assert sorted(seen) == ["T0", "T1", "T2"]
    for rounds in seen.values():  # each table moves on, and never backwards
        assert rounds == sorted(rounds) and rounds[-1] > rounds[0]


def test_the_flags_a_pit_boss_must_see(postgres_server: str):
    db = new_database(postgres_server)
    quiet = Table.create(f"{db}?table=quiet", "france", "fr", croupier="marie")
    quiet.add_player("rouge")
    quiet.bet("rouge", "rouge à 10")
    busy = Table.create(f"{db}?table=busy", "france", "fr", croupier="paolo")
    busy.add_player("bleu")
    busy.bet("bleu", "17 en plein à 30")  # france: the straight-up maximum is 30
    busy.close()
    busy.spin(17)  # 30 x 35 = 1050: a large win
    busy.bet("bleu", "17 en plein à 30")
    views = {v.table: v for v in survey([db])}
    assert views["quiet"].flags == [] and views["quiet"].croupier == "marie"
    assert views["quiet"].staked == 10 and views["quiet"].betting == "open"
    assert views["busy"].flags == ["at the maximum: straight 17",
                                   "large win: bleu +1050 on round 1"]  # fmt: skip
    assert views["busy"].last_numbers == [17] and views["busy"].round == 2
    with psycopg.connect(db, autocommit=True) as conn:  # someone with the database's keys
        conn.execute("ALTER TABLE audit DISABLE TRIGGER audit_no_change")
        conn.execute("UPDATE audit SET payload = '{}' WHERE table_id = 'quiet' AND id = 3")
    views = {v.table: v for v in survey([db])}
    assert views["quiet"].flags[0].startswith("AUDIT CHAIN BROKEN at row 3")
    assert views["quiet"].flags[1].startswith("STATE NOT FROM ITS AUDIT")  # nor replayed
    assert not any("AUDIT" in f for f in views["busy"].flags)  # each table its own chain
    data = json.loads(cb("floor", "--table", db, "--json", "--no-anchor").stdout)
    assert [t["table"] for t in data["tables"]] == ["busy", "quiet"]
    assert data["staked"] == 40 and data["flags"] == 4
    screen = cb("floor", "--table", db, "--once", "--lang", "en").stdout
    assert "busy" in screen and "! at the maximum: straight 17" in screen
    assert "AUDIT CHAIN BROKEN" in screen


def test_a_table_that_cannot_be_read_is_shown_not_fatal(tmp_path):
    good = tmp_path / "good.sqlite"
    Table.create(good, "france", "fr").close_file()
    (tmp_path / "junk.sqlite").write_bytes(b"junk" * 100)
    junk = str(tmp_path / "junk.sqlite")
    proc = cb("floor", "--table", str(good), "--table", junk, "--once", "--lang", "en")
    assert proc.returncode == 1 and "good.sqlite" in proc.stdout
    junk = next(line for line in proc.stdout.splitlines() if line.startswith("junk.sqlite "))
    assert "! cannot be read" in junk and "Traceback" not in proc.stderr


def test_the_floor_reads_a_folder_speaks_its_language_and_keeps_long_names(tmp_path: Path):
    folder = tmp_path / "tables"
    folder.mkdir()
    long_name = "salle-privee-table-douze"  # longer than the old 12-character column
    for name in ("t1", long_name):
        t = Table.create(folder / f"{name}.sqlite", "france", "fr", croupier="marie")
        t.add_player("rouge")
        t.bet("rouge", "17 en plein à 30")  # France's maximum: flagged
        t.close_file()
    screen = cb("floor", "--table", str(folder), "--once", "--lang", "fr").stdout
    assert f"{long_name}.sqlite" in screen  # whole, not cut at 12
    assert "tables : 2" in screen and "ouvertes au jeu : 2" in screen
    assert screen.count("! au maximum : plein 17") == 2  # the flags in the floor's words
    assert "MAISON" in screen and "TABLE " in screen


def test_a_folder_floor_says_when_a_table_is_deleted_or_replaced(tmp_path: Path):
    """The floor over a folder remembers which table it saw where: one deleted since the
    last look is shown gone, with the reason, not silently dropped; another table put in
    a file where one was seen is flagged, not shown as healthy."""
    for name in ("a", "b"):
        Table.create(tmp_path / f"{name}.sqlite", "venice-french", "fr").close()
    watch = Watch()
    first = {v.table: v for v in survey([tmp_path], watch=watch)}
    assert set(first) == {"a.sqlite", "b.sqlite"} and not any(v.flags for v in first.values())
    (tmp_path / "a.sqlite").unlink()
    (tmp_path / "b.sqlite").unlink()
    Table.create(tmp_path / "b.sqlite", "venice-french", "fr").close()  # another table
    after = {v.table: v for v in survey([tmp_path], watch=watch)}
    assert "effacée ou déplacée" in message_in(after["a.sqlite"].error, "fr")
    assert any("another table" in str(f) for f in after["b.sqlite"].flags)
    assert not after["b.sqlite"].error


def test_a_finished_table_shows_the_last_round_played(tmp_path):
    """Three spins, the last one the evening's: the floor says round 3, ended (it said
    4, a round that will never come) (issue 42)."""
    path = tmp_path / "done.sqlite"
    with Table.create(str(path), "venice-french", "fr") as t:
        t.add_player("rouge")
        for number, last in ((5, False), (17, False), (26, True)):
            t.bet("rouge", "rouge à 10")
            t.close()
            t.spin(number, last_spin=last)
    (view,) = survey([path])
    assert (view.round, view.betting, view.last_numbers) == (3, "ended", [26, 17, 5])


def test_the_italian_floor_says_colpo_as_the_table_does():
    """The Italian table says "colpo" for a round; its floor said "GIRO" (issue 42)."""
    from callbets.console.words import say
    from callbets.messages import say_in

    assert "colpo" in say("it", "reopened", round=2)
    columns = say_in("it", "floor_columns").split("|")
    assert "COLPO" in columns and "GIRO" not in columns
    assert "colpo 3" in say_in("it", "floor_large_win", player="rosso", net=100, round=3)


def test_the_floor_speaks_french_unless_told_as_a_table_does(tmp_path):
    """Issue 42: `table open` defaults to French and the floor to English, so a French
    evening's floor spoke English.  Both default to French; --lang says otherwise."""
    table = str(tmp_path / "t.sqlite")
    assert cb("table", "--table", table, "open").returncode == 0
    assert "ouvertes au jeu" in cb("floor", "--table", table, "--once").stdout
    assert "open for bets" in cb("floor", "--table", table, "--once", "--lang", "en").stdout
