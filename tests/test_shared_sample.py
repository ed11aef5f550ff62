"""The shared sample corpus, through the real command line, must stay at 100%."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import SHARED

CHECK = SHARED / "tools" / "check_corpus.py"


@pytest.mark.skipif(
    not CHECK.exists(), reason="../shared/tools/check_corpus.py is not beside the project"
)
def test_shared_sample_corpus_passes():
    proc = subprocess.run(
        [sys.executable, str(CHECK), "--cmd", f"{sys.executable} -m callbets", "--show", "20"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    print(proc.stdout)
    assert proc.returncode == 0, proc.stdout + proc.stderr
