"""Shared fixtures: the default house and paths to the shared folder."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
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
    # the console's files of a database table, and the default table, stay in the test run;
    # Vosk models the user installed are still found (the Vosk tests use them when there)
    from callbets.speech.models import data_dir

    if not os.environ.get("CALLBETS_MODELS") and data_dir().is_dir():
        os.environ["CALLBETS_MODELS"] = str(data_dir())
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data"))


# ---- both table backends ------------------------------------------------------------
BACKENDS = ("sqlite", "postgresql")
Where = Callable[[str], str]
"""``where(name)``: the location of a new table called ``name`` (see the fixture)."""


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a throwaway PostgreSQL server (a database ``casino`` with the callbets
    schema); skipped only when no server binary is installed."""
    import psycopg

    from callbets.table.locations import upgrade

    from .postgres_server import server_bin, throwaway_server

    if server_bin() is None:
        pytest.skip("no PostgreSQL server binaries: install Debian's postgresql package "
                    "(.ci/run does)")  # fmt: skip
    with throwaway_server() as admin:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute("CREATE DATABASE casino")
        url = admin.rsplit("/", 1)[0] + "/casino"
        upgrade(url)
        yield url


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Each backend in turn."""
    return str(request.param)


@pytest.fixture
def where(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Where:
    """``where(name)``: the location of a new table called ``name`` on the backend under
    test (a file in the test's folder, or a table of the shared test database)."""
    if backend == "sqlite":
        return lambda name: str(tmp_path / f"{name}.sqlite")
    server = request.getfixturevalue("postgres_server")
    run = uuid.uuid4().hex[:8]
    return lambda name: f"{server}?table={name}-{run}"
