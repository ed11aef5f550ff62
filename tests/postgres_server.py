"""A throwaway PostgreSQL server for the tests: a cluster in a temporary folder, run by an
unprivileged user on 127.0.0.1 and a free port, stopped and removed afterwards.

The server binaries come from Debian's ``postgresql`` package (``.ci/run`` installs it);
they live in ``/usr/lib/postgresql/VERSION/bin``, which is not on the PATH.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path


def server_bin() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl`` (the newest installed), or None."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                      key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit()
                      else 0)  # fmt: skip
    return versions[-1].parent if versions else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _runner() -> str | None:
    """The unprivileged user to run the server as when we are root (PostgreSQL refuses to
    run as root): ``postgres`` from the Debian package, else ``nobody``."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name).pw_name
    raise RuntimeError("running as root with no unprivileged user to run PostgreSQL")


class Cluster:
    """A running cluster of our own: its URL, and ``stop``/``start`` (a server restart,
    a server down, for the tests that need one)."""

    def __init__(self, folder: Path, bin_dir: Path, user: str | None) -> None:
        self.folder, self.bin_dir, self.user = folder, bin_dir, user
        self.port = _free_port()
        self.url = f"postgresql://callbets@127.0.0.1:{self.port}/postgres"

    def run(self, *args: str) -> None:
        subprocess.run(args, check=True, capture_output=True, user=self.user, cwd=self.folder)

    def start(self) -> None:
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off -c full_page_writes=off -c max_connections=60")  # fmt: skip
        self.run(str(self.bin_dir / "pg_ctl"), "-D", str(self.folder / "data"), "-o", options,
                 "-l", str(self.folder / "server.log"), "-w", "-t", "60", "start")  # fmt: skip

    def stop(self) -> None:
        self.run(str(self.bin_dir / "pg_ctl"), "-D", str(self.folder / "data"), "-m",
                 "immediate", "-w", "stop")  # fmt: skip


@contextlib.contextmanager
def own_server() -> Iterator[Cluster]:
    """A new cluster, started; stopped and removed afterwards."""
    bin_dir = server_bin()
    if bin_dir is None:
        raise FileNotFoundError("no PostgreSQL server binaries (initdb, pg_ctl)")
    folder = Path(tempfile.mkdtemp(prefix="callbets-pg-"))
    user = _runner()
    if user is not None:
        shutil.chown(folder, user)
    cluster = Cluster(folder, bin_dir, user)
    try:
        cluster.run(str(bin_dir / "initdb"), "-D", str(folder / "data"), "-U", "callbets",
                    "-A", "trust", "-E", "UTF8", "--no-sync", "--locale=C")  # fmt: skip
        cluster.start()
        try:
            yield cluster
        finally:
            with contextlib.suppress(subprocess.CalledProcessError):  # stopped by its test
                cluster.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def throwaway_server() -> Iterator[str]:
    """Start a cluster; yield the URL of its ``postgres`` database (user ``callbets``)."""
    with own_server() as cluster:
        yield cluster.url
