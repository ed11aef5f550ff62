"""Lint and strict typing are part of the test suite, so CI enforces them."""

from __future__ import annotations

import subprocess
import sys

from .conftest import ROOT


def test_ruff():
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "callbets", "tests", "bench"],
        cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout


def test_mypy_strict():
    proc = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout
