"""The console on a PostgreSQL table, in a real terminal, through what a database does to
a croupier's evening: the server restarted while the console idles, the server down when
a line is typed, the table held by another terminal and Ctrl-C, Ctrl-D with a readback
waiting.  Every typed line ends in a readback, a placement or a clear message; the
console never shows prompt_toolkit's exception screen, and it ends cleanly."""

from __future__ import annotations

import shlex
import sys
import time

import pytest

from callbets.table import Table
from callbets.table.locations import upgrade

from .postgres_server import own_server, server_bin
from .test_console_tmux import Terminal, terminal  # noqa: F401  (the fixture)

if server_bin() is None:
    pytest.skip("no PostgreSQL server binaries (.ci/run installs them)", allow_module_level=True)


def start(term: Terminal, url: str) -> None:
    command = (f"{shlex.quote(sys.executable)} -m callbets console --table {shlex.quote(url)}; "
               "echo EXIT=$?; sleep 120")  # fmt: skip
    term.tmux("new-session", "-d", "-s", "t", "-x", "110", "-y", "45", command)


def count(term: Terminal, text: str) -> int:
    return term.screen().count(text)


def wait_more(term: Terminal, text: str, before: int, timeout: float = 20.0) -> str:
    """Wait until ``text`` is on the screen more often than ``before`` times."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if count(term, text) > before:
            return term.screen()
        time.sleep(0.1)
    raise AssertionError(f"{text!r} did not appear again:\n{term.screen()}")


def test_the_console_on_postgresql_through_restarts_outages_and_locks(
    terminal: Terminal,  # noqa: F811
) -> None:
    import psycopg

    with own_server() as pg:
        with psycopg.connect(pg.url, autocommit=True) as conn:
            conn.execute("CREATE DATABASE casino")
        url = pg.url.rsplit("/", 1)[0] + "/casino?table=T1"
        upgrade(url.split("?")[0])
        t = Table.create(url, "venice-french", "fr")
        t.add_player("rouge")
        t.close_file()

        # Ctrl-D with a readback waiting: the console ends cleanly, the readback is kept
        start(terminal, url)
        terminal.wait_for("/aide pour l'aide")
        terminal.type("rouge: 17 en plein à 10")
        terminal.wait_for("Entrée pour confirmer")
        terminal.tmux("send-keys", "-t", "t", "C-d")
        screen = terminal.wait_for("EXIT=")
        assert "EXIT=0" in screen and "cannot reach" not in screen, screen
        terminal.tmux("kill-session", "-t", "t")
        start(terminal, url)
        terminal.wait_for("en attente de confirmation")
        terminal.type("")
        terminal.wait_for("✓ rouge : plein 17, 1 pièce à 10 = 10 posé")

        # the server restarted while the console idles: the next line goes through
        pg.stop()
        pg.start()
        terminal.type("rouge: noir à 20")
        terminal.wait_for("noir, 1 pièce à 20 = 20")
        terminal.type("")
        terminal.wait_for("✓ rouge : noir, 1 pièce à 20 = 20 posé")

        # the server down when a line is typed: one clear line, and the console carries on
        pg.stop()
        placed = count(terminal, "posé")
        terminal.type("rouge: pair à 5")
        screen = terminal.wait_for("cannot reach the database")
        assert "Press ENTER" not in screen and "Exception" not in screen
        pg.start()
        terminal.type("rouge: pair à 5")
        terminal.wait_for("pair, 1 pièce à 5 = 5")

        # the table held by another terminal: Ctrl-C while waiting, the readback still waits
        with psycopg.connect(pg.url.rsplit("/", 1)[0] + "/casino") as other:
            other.execute("SELECT pg_advisory_xact_lock(hashtextextended('callbets:' || 'T1', 0))")
            terminal.type("")  # Enter: the confirmation waits for the table
            time.sleep(1.5)
            terminal.tmux("send-keys", "-t", "t", "C-c")
            terminal.wait_for("interrompu (Ctrl-C)")
        terminal.type("")  # the lock let go: Enter confirms the readback still waiting
        wait_more(terminal, "posé", placed)
        assert "✓ rouge : pair, 1 pièce à 5 = 5 posé" in terminal.screen()
        terminal.type("/quit")
        screen = terminal.wait_for("EXIT=")
        assert "EXIT=0" in screen and "Press ENTER" not in screen, screen
        with Table.open(url, write=False) as after:
            assert after.state()["staked"] == 35 and after.verify().ok


def test_a_console_that_lost_its_lock_to_another_is_stopped_at_every_action() -> None:
    """The server restarts under a console; another console takes the table before the
    first one does anything.  The first is told at its next action and at every action
    after it (it used to be told once, then write on as if it held the table)."""
    import psycopg

    from callbets.console.lock import DatabaseConsoleLock
    from callbets.errors import TableError

    with own_server() as pg:
        with psycopg.connect(pg.url, autocommit=True) as conn:
            conn.execute("CREATE DATABASE casino")
        url = pg.url.rsplit("/", 1)[0] + "/casino?table=T2"
        upgrade(url.split("?")[0])
        with Table.create(url, "venice-french", "fr") as t:
            t.add_player("rouge")
        first = Table.open(url)
        DatabaseConsoleLock(first.store).acquire()
        pg.stop()
        pg.start()
        second = Table.open(url)
        DatabaseConsoleLock(second.store).acquire()  # the first one's session is gone
        with pytest.raises(TableError):  # the action that meets the lost connection
            first.bet("rouge", "noir à 5")
        for action in (lambda: first.bet("rouge", "noir à 5"), first.state, first.close):
            with pytest.raises(TableError, match="another console took the table"):
                action()
        second.bet("rouge", "rouge à 10")
        assert second.state()["staked"] == 10  # nothing of the first one's got through
        first.close_file()
        second.close_file()
