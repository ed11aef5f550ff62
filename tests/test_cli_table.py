"""`callbets settle` and `callbets table`, run as scripts and tests would run them."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import Where


def cb(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "callbets", *args], input=stdin, capture_output=True, text=True
    )


def test_settle_contract_example():
    proc = cb("settle", "--json", "--spin", "26", "voisins du zéro à 5")
    data = json.loads(proc.stdout)
    assert proc.returncode == 0
    assert (data["spin"], data["staked"], data["returned"], data["net"], data["prison"]) == (
        26, 45, 90, 45, 0,
    )  # fmt: skip
    corner = next(p for p in data["calls"][0]["placements"] if p["bet"] == "corner")
    assert corner["result"] == "won" and corner["returned"] == 90 and corner["pieces"] == 2
    assert data["calls"][0]["to_place"] == [
        {"bet": "corner", "numbers": [25, 26, 28, 29], "amount": 10}
    ]


def test_settle_zero_by_house():
    fair = json.loads(
        cb("settle", "--json", "--spin", "0", "--house", "venice-fair", "rouge à 5").stdout
    )
    (red,) = fair["calls"][0]["placements"]
    assert red["result"] == "shared" and red["returned"] == 2 and fair["prison"] == 1
    venice = json.loads(cb("settle", "--json", "--spin", "0", "rouge à 5").stdout)
    assert venice["calls"][0]["placements"][0]["result"] == "prison" and venice["prison"] == 5
    half = json.loads(cb("settle", "--json", "--spin", "0", "--choice", "half", "rouge à 5").stdout)
    assert half["returned"] == 2.5


def test_settle_jsonl_keeps_refusals_in_line():
    proc = cb("settle", "--spin", "17", "--jsonl", stdin="17 en plein\ncheval 5/9\n\ntiers\n")
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [x["ok"] for x in lines] == [True, False, True]
    assert lines[0]["returned"] == 36 and lines[2]["returned"] == 0


def test_settle_rejects_a_number_off_the_wheel():
    proc = cb("settle", "--spin", "37", "tiers")
    assert proc.returncode == 2 and "n'est pas sur le cylindre (0 à 36)" in proc.stderr


def test_a_whole_evening_from_the_shell(where: Where):
    table = where("evening")

    def t(*args: str) -> subprocess.CompletedProcess[str]:
        proc = cb("table", "--table", table, *args)
        assert proc.returncode == 0, proc.stderr
        return proc

    t("open", "--house", "venice-french", "--lang", "fr")
    t("player", "rouge")
    t("player", "vert")
    t("bet", "rouge", "tiers", "à", "1")
    t("bet", "vert", "rouge à 10")
    t("close")
    spin = json.loads(t("spin", "27", "--json").stdout)
    assert spin["players"]["rouge"]["returned"] == 18 and spin["players"]["vert"]["returned"] == 20
    assert "à remettre à rouge : 12" in t("replay", "1", "completer").stdout  # fr table
    t("bet", "vert", "pair à 10")
    t("close")
    t("spin", "0")
    state = json.loads(t("show", "--json").stdout)
    assert state["round"] == 3 and state["prison"] == 10 and state["staked"] == 0
    refused = cb("table", "--table", table, "bet", "bleu", "tiers")
    assert refused.returncode == 1 and "joueur inconnu « bleu »" in refused.stderr  # fr table
    audit = [json.loads(x) for x in t("audit").stdout.splitlines()]
    assert {"open", "player", "announce", "confirm", "close", "spin", "settlement", "replay"} <= {
        a["event"] for a in audit
    }
    verified = t("verify").stdout
    assert "chaque ligne se vérifie" in verified  # the chain, in the table's language
    assert "celui que donne le journal rejoué" in verified  # the state, replayed


def test_every_table_action_has_its_function():
    """``callbets table ACTION``: each action the parser offers is in the dispatch table
    (``open`` makes the table, the others act on it), and nothing else is."""
    import argparse

    from callbets.cli import table as table_cli

    parser = argparse.ArgumentParser()
    table_cli.add_commands(parser.add_subparsers())
    table_parser = parser._subparsers._group_actions[0].choices["table"]
    actions = next(a for a in table_parser._actions if a.dest == "action").choices
    assert set(actions) - {"open"} == set(table_cli.ACTIONS)


def test_replays_and_zero_choices_take_the_tables_words_and_answer_with_them(tmp_path: Path):
    """``table replay 1 "a rifare"`` and ``spin 0 --choice "blu=a metà"`` at an Italian
    table: the words the table itself prints are accepted; anything else is refused
    (exit 2) with the table's own words for what may be said, naming the player."""
    path = str(tmp_path / "it.sqlite")

    def t(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "callbets", "table", "--table", path, *args],
                              capture_output=True, text=True, timeout=60)  # fmt: skip

    for step in (("open", "--lang", "it"), ("player", "blu"), ("bet", "blu", "serie 5/8 da 5"),
                 ("bet", "blu", "rosso da 10"), ("close",)):  # fmt: skip
        assert t(*step).returncode == 0, step
    refused = t("spin", "0", "--choice", "blu=in galera")
    assert refused.returncode == 2 and "blu" in refused.stderr and "a dividere" in refused.stderr
    assert "half" not in refused.stderr and "puntata 1" not in refused.stderr
    assert t("spin", "0", "--choice", "blu=a metà").returncode == 0
    assert t("bet", "blu", "serie 5/8 da 5").returncode == 0 and t("close").returncode == 0
    assert t("spin", "8").returncode == 0
    wrong = t("replay", "3", "a completer")
    assert (
        wrong.returncode == 2 and "a completare" in wrong.stderr and "refaire" not in wrong.stderr
    )
    done = t("replay", "3", "a rifare")
    assert done.returncode == 0 and "a rifare" in done.stdout


def test_an_announcement_is_named_as_printed(tmp_path: Path):
    """``confirm '#7'`` and ``cancel '#8'``: the number as the table prints it (issue 42)."""
    table = str(tmp_path / "t.sqlite")
    for args in (("open",), ("player", "rouge"), ("announce", "rouge", "tiers à 1"),
                 ("announce", "rouge", "rouge à 10")):  # fmt: skip
        assert cb("table", "--table", table, *args).returncode == 0
    confirmed = cb("table", "--table", table, "confirm", "#1")
    assert confirmed.returncode == 0 and "#1" in confirmed.stdout, confirmed.stderr
    assert cb("table", "--table", table, "cancel", " #2").returncode == 0
    assert cb("table", "--table", table, "confirm", "#x").returncode == 2
    state = json.loads(cb("table", "--table", table, "show", "--json").stdout)
    assert state["staked"] == 6


def test_a_folder_a_device_or_a_pipe_given_as_a_table_is_bad_input(tmp_path: Path):
    """Exit 2, as the README promises for devices, with what it is: not "no table"."""
    import os

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for where in ("/dev/null", str(tmp_path), str(pipe)):
        for action in (("show",), ("verify",), ("bet", "rouge", "rouge à 5")):
            proc = cb("table", "--table", where, *action)
            assert proc.returncode == 2 and "is not a file" in proc.stderr, (where, proc.stderr)
    assert cb("table", "--table", str(tmp_path / "none.sqlite"), "show").returncode == 1


def test_a_move_on_zero_is_shown_and_a_move_to_where_it_is_refused():
    """``settle --choice move:noir``: the settlement says where the bet went (it said
    "rouge en prison"), the JSON names it; ``move:rouge`` for a bet on red is refused
    (it was taken silently) (issue 42)."""
    moved = cb("settle", "--house", "venice-french", "--spin", "0", "--choice", "move:noir",
               "rouge à 10")  # fmt: skip
    assert moved.returncode == 0 and "rouge en prison, déplacé sur noir" in moved.stdout
    data = json.loads(cb("settle", "--house", "venice-french", "--spin", "0", "--choice",
                         "déplacer sur noir", "--json", "rouge à 10").stdout)  # fmt: skip
    assert data["calls"][0]["placements"][0]["moved_to"] == "black"
    same = cb("settle", "--house", "venice-french", "--spin", "0", "--choice", "move:rouge",
              "rouge à 10")  # fmt: skip
    assert same.returncode == 1 and "déjà sur rouge" in same.stderr
    kept = cb("settle", "--house", "venice-french", "--spin", "0", "--choice", "prison",
              "--json", "rouge à 10")  # fmt: skip
    assert "moved_to" not in json.loads(kept.stdout)["calls"][0]["placements"][0]


def test_show_lists_the_bets_on_the_layout_and_the_announcements_waiting(tmp_path: Path):
    """``table show`` says what is on the layout and what waits for confirmation, in the
    table's words (it gave only the totals) (issue 42)."""
    table = str(tmp_path / "t.sqlite")
    for args in (("open", "--lang", "it"), ("player", "rosso"),
                 ("bet", "rosso", "vicini dello zero da 2"),
                 ("announce", "rosso", "pieno 17 da 5")):  # fmt: skip
        assert cb("table", "--table", table, *args).returncode == 0
    shown = cb("table", "--table", table, "show").stdout.splitlines()
    assert "#1 rosso: vicini dello zero, 9 pezzi da 2 = 18" in shown
    assert any(line.startswith("#2 rosso,") and "pieno 17 da 5" in line for line in shown)


def test_an_ambiguous_bet_lists_its_readings_and_one_is_picked_with_reading(tmp_path: Path):
    """``table bet`` on an ambiguous announcement lists the readings, numbered, as
    ``parse`` and the console do; ``--reading N`` places that one, whole (issue 42)."""
    table = str(tmp_path / "t.sqlite")
    for args in (("open",), ("player", "rouge")):
        assert cb("table", "--table", table, *args).returncode == 0
    asked = cb("table", "--table", table, "bet", "rouge", "sixain 22 à 5")
    assert asked.returncode == 1
    assert "1. sixain 22/23/24/25/26/27, 1 pièce à 5 = 5" in asked.stderr
    assert "2. sixain 19/20/21/22/23/24, 1 pièce à 5 = 5" in asked.stderr
    assert "--reading N" in asked.stderr
    picked = cb("table", "--table", table, "bet", "rouge", "sixain 22 à 5", "--reading", "2")
    assert picked.returncode == 0, picked.stderr
    bets = json.loads(cb("table", "--table", table, "show", "--json").stdout)["players"]
    (bet,) = bets["rouge"]["bets"]
    assert (bet["numbers"], bet["amount"]) == ([19, 20, 21, 22, 23, 24], 5)
    assert cb("table", "--table", table, "verify").returncode == 0  # the pick replays


CONSOLE_SEAT = [("fr", "/asseoir"), ("it", "/sedere"), ("en", "/seat"), ("es", "/sentar")]


@pytest.mark.parametrize(("lang", "console_word"), CONSOLE_SEAT)
def test_a_command_line_refusal_names_the_command_not_the_consoles(
    tmp_path: Path, lang: str, console_word: str
) -> None:
    """The CLI said "/asseoir jaune" and "annoncez « rien ne va plus »": the console's
    advice; it names the command to give (issue 42).  The console keeps its own."""
    from callbets.console.session import Session
    from callbets.table import Table

    table = str(tmp_path / "t.sqlite")
    assert cb("table", "--table", table, "open", "--lang", lang).returncode == 0
    unknown = cb("table", "--table", table, "bet", "jaune", "17")
    assert unknown.returncode == 1 and "callbets table player jaune" in unknown.stderr
    assert console_word not in unknown.stderr
    assert cb("table", "--table", table, "player", "rouge").returncode == 0
    still_open = cb("table", "--table", table, "spin", "5")
    assert still_open.returncode == 1 and "callbets table close" in still_open.stderr
    session = Session(Table.open(table))
    assert console_word in "".join(text for _, text in session.handle("jaune: 17"))


def test_usage_errors_and_the_tables_own_refusals_speak_its_language(tmp_path):
    """Issue 42: argparse's errors, "no table at …", the backup and the lock messages were
    English at every table.  A usage error is said in --lang's language, else in the
    language of the table --table names; the table's refusals in its language."""
    italian, french = str(tmp_path / "it.sqlite"), str(tmp_path / "fr.sqlite")
    for table, lang in ((italian, "it"), (french, "fr")):
        assert cb("table", "--table", table, "open", "--lang", lang).returncode == 0
    missing = cb("table", "--table", italian, "bet")
    assert missing.returncode == 2
    assert "uso: callbets table bet" in missing.stderr
    assert "errore: mancano: player, ANNOUNCEMENT" in missing.stderr
    wrong = cb("table", "--table", french, "show", "--bogus")
    assert wrong.returncode == 2 and "erreur: arguments en trop : --bogus" in wrong.stderr
    spanish = cb("parse", "--lang", "es", "tercio a 5", "--bogus")
    assert spanish.returncode == 2 and "argumentos de más: --bogus" in spanish.stderr
    unknown = cb("table", "--table", str(tmp_path / "none.sqlite"), "bet")
    assert unknown.returncode == 2 and "the following arguments are required" in unknown.stderr
    backup = cb("table", "--table", italian, "backup", italian)
    assert backup.returncode == 1
    assert "esiste: un backup non sovrascrive mai un file" in backup.stderr
    held = sqlite3.connect(french, timeout=0)
    held.execute("BEGIN IMMEDIATE")  # another program writing
    try:
        locked = cb("table", "--table", french, "player", "rouge")
    finally:
        held.rollback()
        held.close()
    assert locked.returncode == 1
    assert "est utilisée par un autre programme (la base est verrouillée)" in locked.stderr
