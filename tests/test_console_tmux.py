"""End to end in a real terminal: ``callbets console`` inside tmux, read off the screen.

A bet is placed and confirmed, the console is killed with SIGKILL, started again on the
same table file, and the spin is settled: the settlement is read from the screen.
``.ci/run`` installs tmux; elsewhere the test is skipped when tmux is missing.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

TMUX = shutil.which("tmux")
if TMUX is None:
    if os.environ.get("CI"):
        raise RuntimeError("tmux is missing on CI: .ci/run should install it")
    pytest.skip("tmux is not installed", allow_module_level=True)


class Terminal:
    """One tmux server of our own, with one window running the console."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def tmux(self, *args: str) -> str:
        run = subprocess.run(
            [str(TMUX), "-L", self.socket, *args], capture_output=True, text=True, check=True
        )
        return run.stdout

    def start(self, table: Path, width: int = 110, height: int = 45) -> None:
        command = f"exec {shlex.quote(sys.executable)} -m callbets console --table {table}"
        self.tmux("new-session", "-d", "-s", "t", "-x", str(width), "-y", str(height), command)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "t")

    def visible(self) -> str:
        """What the screen shows now (no scrollback)."""
        return self.tmux("capture-pane", "-p", "-t", "t")

    def wait_for(self, text: str, timeout: float = 20.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared on the screen:\n{self.screen()}")

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", "t", "-l", text)
        self.tmux("send-keys", "-t", "t", "Enter")

    def pid(self) -> int:
        return int(self.tmux("display-message", "-p", "-t", "t", "#{pane_pid}").strip())


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    term = Terminal(f"callbets-test-{os.getpid()}-{tmp_path.name}")  # a server per test
    yield term
    subprocess.run([str(TMUX), "-L", term.socket, "kill-server"], capture_output=True, check=False)


def test_console_in_a_real_terminal_survives_a_kill(terminal: Terminal, tmp_path: Path) -> None:
    table = tmp_path / "table.sqlite"
    terminal.start(table)
    terminal.wait_for("/aide pour l'aide")
    terminal.type("/seat rouge")
    terminal.wait_for("assis : rouge")
    terminal.type("rouge: voisins du zéro à 5")
    screen = terminal.wait_for("Entrée pour confirmer, Échap pour abandonner")
    assert "voisins du zéro, 9 pièces à 5 = 45" in screen
    assert "[noir]" not in screen and "●" in screen  # the drawing marks the chips
    terminal.type("")
    terminal.wait_for("✓ rouge : voisins du zéro, 9 pièces à 5 = 45 posé")
    terminal.wait_for("misé 45")  # the status bar

    os.kill(terminal.pid(), signal.SIGKILL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        listed = subprocess.run(
            [str(TMUX), "-L", terminal.socket, "list-sessions"], capture_output=True, check=False
        )
        if listed.returncode != 0:
            break
        time.sleep(0.1)

    terminal.start(table)
    terminal.wait_for("/aide pour l'aide")
    terminal.type("/table")
    terminal.wait_for("rouge: carré 25/26/28/29 = 10 (voisins du zéro)")
    terminal.type("rien ne va plus")
    terminal.wait_for("tapez le numéro sorti")
    terminal.type("26")
    screen = terminal.wait_for("━━ 26  noir · pair · passe ━━ coup 1")
    assert "rouge : misé 45 · rendu 90 · net +45" in screen
    assert (
        "gagne carré 25/26/28/29 = 10 (voisins du zéro) : payer 80, rendu avec la mise 90" in screen
    )
    assert "à placer (voisins du zéro, payé à placer) : carré 25/26/28/29 = 10" in screen


def test_escape_sequences_and_garbage_typed_leave_the_console_running(
    terminal: Terminal, tmp_path: Path
) -> None:
    table = tmp_path / "table.sqlite"
    terminal.start(table)
    terminal.wait_for("/aide pour l'aide")
    terminal.type("/seat rouge")
    terminal.wait_for("assis : rouge")
    for text in ("\x1b[31mrouge: noir à 5", "\x1b]0;pwned\x07", "rouge: " + "vingt " * 100,
                 "rouge: rouge à -5", "\x01\x02\x7f"):  # fmt: skip
        terminal.type(text)
    terminal.type("rouge: rouge à 5")
    screen = terminal.wait_for("Entrée pour confirmer")
    assert "Traceback" not in screen and "erreur imprévue" not in screen
    terminal.type("")
    terminal.wait_for("✓ rouge : rouge, 1 pièce à 5 = 5 posé")


def test_a_long_readback_keeps_its_start_and_the_question_on_an_80x24_screen(
    terminal: Terminal, tmp_path: Path
) -> None:
    terminal.start(tmp_path / "table.sqlite", 80, 24)
    terminal.wait_for("/aide pour l'aide")
    terminal.type("/seat rouge")
    terminal.wait_for("assis : rouge")
    terminal.type("rouge: voisins, tiers et orphelins à 5")
    terminal.wait_for("Entrée pour confirmer")
    time.sleep(0.3)
    shown = terminal.visible()
    assert len(shown.rstrip("\n").splitlines()) <= 24
    for text in ("rouge:", "voisins du zéro, 9 pièces à 5 = 45", "tiers du cylindre",
                 "orphelins", "/chips", "Entrée pour confirmer"):  # fmt: skip
        assert text in shown, f"{text!r} scrolled away:\n{shown}"
    terminal.type("/chips")
    terminal.wait_for("carré 25/26/28/29")
    terminal.type("")
    terminal.wait_for("posé")
