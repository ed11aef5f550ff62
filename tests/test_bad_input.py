"""Bad input exits 2 with one line, before any work: the README's contract, checked on
each door (issue 23's reproducers and the rest of their class)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "audio" / "en" / "01.wav"


def cb(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "callbets", *args], capture_output=True,
                          text=True, timeout=120, cwd=cwd)  # fmt: skip


@pytest.mark.parametrize(
    "args",
    [["parse"], ["parse", "  "], ["transcribe", "/no/such.wav"],
     ["transcribe", "--engine", "vosk", "--lang", "fr", str(FIXTURE)],
     ["regress", str(ROOT / "tests/suites/typed-fr"), "--json", "/no/such/dir/x.json"],
     ["regress", str(ROOT / "tests/suites/typed-fr"), "--junit", "/no/such/dir/x.xml"],
     ["models", "install", "/no/such.zip"], ["models", "install", "--lang", "fr", "/no/such.zip"],
     ["models", "--lang", "fr", "install", "/no/such.zip"], ["parse", "--lang", "de", "x"]],
)  # fmt: skip
def test_bad_input_exits_2_with_one_line_before_any_work(args: list[str], tmp_path: Path):
    env_models = {"CALLBETS_MODELS": str(tmp_path)}  # no Vosk model anywhere
    proc = subprocess.run([sys.executable, "-m", "callbets", *args], capture_output=True,
                          text=True, timeout=120, env={**_env(), **env_models})  # fmt: skip
    assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert lines and "Traceback" not in proc.stderr
    assert "which language" not in proc.stderr  # the missing file is said first
    if args[0] == "regress":
        assert "rien n'a été lancé" in proc.stderr and proc.stdout == ""  # --lang: fr


def _env() -> dict[str, str]:
    import os

    return dict(os.environ)


def test_a_language_in_capitals_and_a_number_in_words_are_understood(tmp_path: Path):
    assert cb("parse", "--lang", "FR", "tiers à 5").returncode == 0
    table = str(tmp_path / "t.sqlite")
    for args in (["open", "--lang", "IT"], ["close"]):
        assert cb("table", "--table", table, *args).returncode == 0
    spun = cb("table", "--table", table, "spin", "diciassette")
    assert spun.returncode == 0 and "━━ 17" in spun.stdout
    wrong = cb("table", "--table", table, "spin", "quarante")
    assert wrong.returncode == 2 and "da 0 a 36" in wrong.stderr  # in the table's words


def test_transcribe_says_its_default_language():
    assert "(default: fr" in cb("transcribe", "--help").stdout
