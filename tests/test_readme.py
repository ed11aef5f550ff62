"""The transcripts of the README and of the documentation (``docs/``) marked 'replayed by
tests/test_readme.py' are replayed here, command by command in an empty folder, and must
print what the page shows, line for line (an audit head's hash aside: every table has
its own identity)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

MARK = "<!-- replayed by tests/test_readme.py"
HEAD = re.compile(r"\b(\d+):[0-9a-f]{16}\b")


def transcripts() -> list[list[tuple[str, list[str]]]]:
    """Each marked block: its commands, each with the lines it prints."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    text = "\n".join(page.read_text(encoding="utf-8") for page in pages)
    found = []
    for part in text.split(MARK)[1:]:
        block = part.split("```console\n", 1)[1].split("```", 1)[0]
        steps: list[tuple[str, list[str]]] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            else:
                steps[-1][1].append(line)
        found.append(steps)
    return found


@pytest.mark.parametrize("steps", transcripts(), ids=lambda s: s[0][0][:50])
def test_a_readme_transcript_replays(steps, tmp_path: Path) -> None:
    assert steps, "a marked block with no command"
    for command, shown in steps:
        args = shlex.split(command)
        assert args[0] == "callbets"
        # this checkout's callbets, whatever another checkout an editable install names
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        }
        proc = subprocess.run([sys.executable, "-m", "callbets", *args[1:]], cwd=tmp_path,
                              capture_output=True, text=True, timeout=60, env=env)  # fmt: skip
        printed = (proc.stdout + proc.stderr).splitlines()
        assert [HEAD.sub(r"\1:…", x) for x in printed] == [HEAD.sub(r"\1:…", x) for x in shown], (
            command
        )
