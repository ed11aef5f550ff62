"""The documentation site builds offline with warnings as errors, its generated parts
are made from callbets itself, and the README stays a front page that links into it."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "WARNING" not in proc.stderr, proc.stderr
    return out


def page(site: Path, name: str) -> str:
    return (site / name / "index.html").read_text(encoding="utf-8")


def test_every_command_is_in_the_reference_as_its_help_says(site: Path):
    from callbets.cli import build_parser

    reference = page(site, "reference/commands")
    commands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    for name in commands:
        assert f"callbets {name}</code>" in reference, name
    assert "--new-table" in reference and "--access-log" in reference


def test_the_game_pages_are_what_callbets_places(site: Path):
    from callbets import parse

    game = page(site, "domain")
    voisins = parse("voisins du zéro à 1", "fr").calls[0].placements
    assert len(voisins) == 7 and "street 0/2/3: 2" in game and "corner 25/26/28/29: 2" in game
    assert "<td>40</td>" in game  # the complete of the 17: 40 pieces
    assert "zero.odd_chip" in page(site, "reference/houses")


def test_there_is_a_guide_for_each_kind_of_user():
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for guide in ("croupier", "console", "voice", "floor", "trust", "postgresql", "regress"):
        assert f"guides/{guide}.md" in nav and (ROOT / "docs" / "guides" / f"{guide}.md").exists()


def test_the_readme_is_a_front_page_whose_links_lead_somewhere():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 300
    assert ". .venv/bin/activate" in text  # bare `callbets …` works only once activated
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):
        assert (ROOT / target).exists(), target


def test_the_figures_the_regress_guide_quotes_are_what_regress_prints():
    """Issue 42: the audio suites' figures were typed once and went stale (suite-en said
    2 exact / 42 asked where regress gave 0 / 44).  Each `callbets regress` of the guide's
    transcript is run and the lines it shows (up to "...") must be what it prints."""
    page = (ROOT / "docs" / "guides" / "regress.md").read_text(encoding="utf-8")
    block = page.split("```console\n", 1)[1].split("```", 1)[0]
    runs: list[tuple[str, list[str]]] = []
    for text in block.splitlines():
        if text.startswith("$ "):
            runs.append((text[2:], []))
        elif text.strip() != "...":
            runs[-1][1].append(text)
    assert len(runs) == 3
    for command, shown in runs:
        words = shlex.split(command)
        assert words[0] == "callbets"
        printed = subprocess.run([sys.executable, "-m", "callbets", *words[1:]], cwd=ROOT,
                                 capture_output=True, text=True, timeout=300).stdout  # fmt: skip
        assert printed.splitlines()[: len(shown)] == shown, command
