"""A casino's routine: backups of a live table, who did what, versions and logs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from callbets.errors import TableError
from callbets.table import Table

from .conftest import Where


def cb(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    import os

    return subprocess.run(
        [sys.executable, "-m", "callbets", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
    )


def test_a_backup_of_a_live_table_holds_what_is_still_in_the_write_ahead_log(tmp_path: Path):
    live = Table.create(tmp_path / "live.sqlite", "venice-french", "fr")
    live.add_player("rouge")
    live.bet("rouge", "tiers à 2")  # committed, still in live.sqlite-wal: the file is open
    assert (tmp_path / "live.sqlite-wal").stat().st_size > 0
    proc = cb("table", "--table", str(tmp_path / "live.sqlite"), "backup",
              str(tmp_path / "copy.sqlite"))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    copy = Table.open(tmp_path / "copy.sqlite", write=False)
    assert copy.state()["staked"] == 12 and copy.verify().chain.ok
    proc = cb("table", "--table", str(tmp_path / "copy.sqlite"), "verify")
    assert proc.returncode == 0 and "chaque ligne se vérifie" in proc.stdout
    again = cb("table", "--table", str(tmp_path / "live.sqlite"), "backup",
               str(tmp_path / "copy.sqlite"))  # fmt: skip
    # the French table's words
    assert again.returncode == 1 and "n'écrase jamais un fichier" in again.stderr
    live.close_file()


def test_every_audit_row_says_which_croupier_and_terminal(where: Where):
    path = where("t")
    cb("table", "--table", path, "open", env={"CALLBETS_CROUPIER": "Marie"})
    cb("table", "--table", path, "--croupier", "Luc", "player", "rouge")
    cb("table", "--table", path, "player", "bleu", env={"CALLBETS_CROUPIER": ""})
    rows = [json.loads(x) for x in cb("table", "--table", path, "audit").stdout.splitlines()]
    assert [r["by"].get("croupier") for r in rows] == ["Marie", "Luc", None]
    assert all(r["by"]["terminal"] for r in rows)
    assert cb("table", "--table", path, "verify").returncode == 0  # "by" is hashed too


def test_a_house_may_require_the_croupier(tmp_path: Path, where: Where):
    text = (Path(__file__).parent.parent / "callbets/houses/france.toml").read_text()
    house = tmp_path / "strict.toml"
    house.write_text(text + "\n[table]\nrequire_croupier = true\n")
    path = where("t")
    refused = cb("table", "--table", path, "open", "--house", str(house),
                 env={"CALLBETS_CROUPIER": ""})  # fmt: skip
    assert refused.returncode == 1 and "--croupier NOM" in refused.stderr  # 'open' --lang fr
    assert cb("table", "--table", path, "--croupier", "Marie", "open", "--house",
              str(house)).returncode == 0  # fmt: skip
    proc = cb("table", "--table", path, "player", "rouge", env={"CALLBETS_CROUPIER": ""})
    assert proc.returncode == 1 and "demande qui est le croupier" in proc.stderr  # fr table
    assert cb("table", "--table", path, "show").returncode == 0  # reading needs no name
    with pytest.raises(TableError, match="printable"):
        Table.open(path).as_croupier("\x1b[31m")


def test_version_houses_and_help():
    version = cb("--version")
    assert version.returncode == 0 and version.stdout.startswith("callbets ")
    houses = cb("houses").stdout.splitlines()
    assert [line.split()[1] for line in houses if line.startswith("*")] == ["venice-french"]
    helped = cb("table", "spin", "--help").stdout
    assert "the winning number, 0 to 36" in helped


def test_log_file_records_what_the_table_did(tmp_path: Path, where: Where):
    log = tmp_path / "callbets.log"
    path = where("t")
    cb("--log", str(log), "table", "--table", path, "open")
    cb("--log", str(log), "table", "--table", path, "player", "rouge")
    text, name = log.read_text(), Table.open(path, write=False).name
    assert f"{name} #1 open" in text and f"{name} #2 player" in text
    assert cb("--log", str(tmp_path / "no" / "such" / "dir.log"), "houses").returncode == 2


def test_a_second_console_on_one_table_is_refused_and_a_killed_one_frees_it(tmp_path: Path):
    import signal
    import time

    from callbets.console.lock import ConsoleLock

    path = tmp_path / "t.sqlite"
    Table.create(path, "venice-french", "fr").close_file()
    held = ConsoleLock(path).acquire()
    proc = cb("console", "--table", str(path))
    assert proc.returncode == 1
    assert "already open in a console (pid" in proc.stderr and "Traceback" not in proc.stderr
    held.release()
    child = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time; from callbets.console.lock import ConsoleLock; "
         f"lock = ConsoleLock({str(path)!r}).acquire(); print('held', flush=True); "
         "time.sleep(60)"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert child.stdout is not None and child.stdout.readline().strip() == "held"
    with pytest.raises(TableError, match="already open in a console"):
        ConsoleLock(path).acquire()
    child.send_signal(signal.SIGKILL)
    child.wait()
    child.stdout.close()
    time.sleep(0.1)
    ConsoleLock(path).acquire().release()  # a killed console leaves nothing locked


def test_a_second_console_on_a_database_table_is_refused_on_any_terminal(postgres_server):
    import uuid

    from callbets.console.lock import DatabaseConsoleLock

    location = f"{postgres_server}?table=console-{uuid.uuid4().hex[:6]}"
    first = Table.create(location, "venice-french", "fr")
    held = DatabaseConsoleLock(first.store).acquire()  # type: ignore[arg-type]
    proc = cb("console", "--table", location)
    assert proc.returncode == 1 and "already open in a console" in proc.stderr
    assert "Traceback" not in proc.stderr
    held.release()
    again = Table.open(location)
    DatabaseConsoleLock(again.store).acquire()  # type: ignore[arg-type]
    first.close_file()
    again.close_file()  # the server lets go with the connection
    DatabaseConsoleLock(Table.open(location).store).acquire()  # type: ignore[arg-type]


def test_closing_says_what_happens_to_an_announcement_still_waiting(where: Where):
    path = where("t")
    cb("table", "--table", path, "open")
    cb("table", "--table", path, "player", "rouge")
    cb("table", "--table", path, "announce", "rouge", "tiers à 2")
    proc = cb("table", "--table", path, "close")
    assert "#1 rouge « tiers à 2 » attendait sa confirmation : abandonné" in proc.stdout
    assert Table.open(path, write=False).state()["staked"] == 0


@pytest.mark.parametrize(
    ("lang", "bet", "choice", "kind"),
    [("fr", "rouge à 10", "move:noir", "black"), ("it", "rosso da 10", "move:nero", "black"),
     ("en", "red by 10", "move:black", "black"), ("fr", "rouge à 10", "en prison", "red")],
)  # fmt: skip
def test_zero_choices_in_the_tables_own_words(where: Where, lang, bet, choice, kind):
    path = where("t")
    cb("table", "--table", path, "open", "--lang", lang)
    cb("table", "--table", path, "player", "p")
    cb("table", "--table", path, "bet", "p", bet)
    cb("table", "--table", path, "close")
    bet_id = Table.open(path, write=False).open_bets()[0].id
    proc = cb("table", "--table", path, "spin", "0", "--choice", f"{bet_id}={choice}")
    assert proc.returncode == 0, proc.stderr
    (kept,) = Table.open(path, write=False).open_bets()
    assert kept.position.kind.value == kind and kept.prison == 1


@pytest.mark.parametrize("flags", [[], ["-v"]])
def test_an_unforeseen_error_shows_no_traceback_but_the_log_has_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], flags
):
    import callbets.cli.parse as door
    from callbets.cli import main

    def boom(args: object) -> int:
        raise RuntimeError("boom")

    monkeypatch.setattr(door, "cmd_parse", boom)
    assert main([*flags, "parse", "x"]) == 3
    err = capsys.readouterr().err
    assert "unexpected error (RuntimeError: boom)" in err and "Traceback" not in err
    log = tmp_path / "callbets.log"
    assert main(["--log", str(log), *flags, "parse", "x"]) == 3
    assert "Traceback" in log.read_text() and "Traceback" not in capsys.readouterr().err
    main(["houses"])  # in-process runs replace the handlers, never pile them up
    import logging

    assert len([h for h in logging.getLogger("callbets").handlers if h.get_name()]) == 1
