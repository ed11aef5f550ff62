"""Shared fixtures: the default house and paths to the shared folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from callbets import House, find_house

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def house() -> House:
    return find_house()
