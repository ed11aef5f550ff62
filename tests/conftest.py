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


@pytest.fixture(scope="session", autouse=True)
def language_model_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The recognisers' language models are built into a folder of the test run (and so
    are built from this checkout's grammar), never into the user's cache."""
    import os

    os.environ["CALLBETS_CACHE"] = str(tmp_path_factory.mktemp("cache"))
