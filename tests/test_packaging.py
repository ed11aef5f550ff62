"""The wheel carries the grammar and house files and works outside the checkout."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from .conftest import ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "-w", str(out), str(ROOT)],
        check=True, capture_output=True,
    )  # fmt: skip
    return next(out.glob("callbets-*.whl"))


def test_wheel_contains_grammar_and_houses(wheel: Path):
    names = set(zipfile.ZipFile(wheel).namelist())
    for lark in (ROOT / "grammar").glob("*.lark"):
        assert f"callbets/grammar/{lark.name}" in names
    assert "callbets/grammar/readback.toml" in names
    assert "callbets/houses/venice-french.toml" in names
    assert "callbets/py.typed" in names
    assert "callbets/grammar/dialogue.toml" in names
    for lang in ("en-extra", "fr", "it"):  # pronunciations PocketSphinx needs at run time
        assert f"callbets/speech/engines/{lang}.dict" in names
    for page in (
        "static/floor.js",
        "static/floor.css",
        "templates/base.html",
        "templates/floor.html",
        "templates/table.html",
    ):  # floor --serve's page
        assert f"callbets/web/{page}" in names


def test_wheel_carries_the_licence_it_declares(wheel: Path):
    with zipfile.ZipFile(wheel) as zf:
        (meta,) = [n for n in zf.namelist() if n.endswith(".dist-info/METADATA")]
        metadata = zf.read(meta).decode()
        licences = [n for n in zf.namelist() if n.endswith("/LICENSE")]
        assert licences and "MIT License" in zf.read(licences[0]).decode()
    assert "License-Expression: MIT" in metadata
    assert "Classifier: Natural Language :: Italian" in metadata


def test_installed_wheel_parses_outside_the_checkout(wheel: Path, tmp_path: Path):
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--target", str(target),
         str(wheel)],
        check=True, capture_output=True,
    )  # fmt: skip
    proc = subprocess.run(
        [sys.executable, "-c", "import callbets, sys; print(callbets.__file__); "
         "print(callbets.parse('serie 5/8 da 10', 'it').total)"],
        cwd=tmp_path, capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(target)},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    file, total = proc.stdout.split()
    assert file.startswith(str(target)) and total == "60"
