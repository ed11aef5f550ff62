"""A PostgreSQL server of a test's own, that the test may stop and start again (a server
restart, a server down): the shared one (``postgres_server``) must stay up for the rest."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .postgres_server import _free_port, _runner, server_bin


class Cluster:
    """A running cluster: its URL, and ``stop``/``start``."""

    def __init__(self, folder: Path, bin_dir: Path, user: str | None) -> None:
        self.folder, self.bin_dir, self.user = folder, bin_dir, user
        self.port = _free_port()
        self.url = f"postgresql://callbets@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        subprocess.run(args, check=True, capture_output=True, user=self.user, cwd=self.folder)

    def start(self) -> None:
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off -c full_page_writes=off")  # fmt: skip
        self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.folder / "data"), "-o", options,
                  "-l", str(self.folder / "server.log"), "-w", "-t", "60", "start")  # fmt: skip

    def stop(self) -> None:
        self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.folder / "data"), "-m",
                  "immediate", "-w", "stop")  # fmt: skip


@contextlib.contextmanager
def own_server() -> Iterator[Cluster]:
    """A new cluster, started; stopped and removed afterwards."""
    bin_dir = server_bin()
    if bin_dir is None:
        raise FileNotFoundError("no PostgreSQL server binaries (initdb, pg_ctl)")
    folder = Path(tempfile.mkdtemp(prefix="callbets-pg-own-"))
    user = _runner()
    if user is not None:
        shutil.chown(folder, user)
    cluster = Cluster(folder, bin_dir, user)
    try:
        cluster._run(str(bin_dir / "initdb"), "-D", str(folder / "data"), "-U", "callbets",
                     "-A", "trust", "-E", "UTF8", "--no-sync", "--locale=C")  # fmt: skip
        cluster.start()
        try:
            yield cluster
        finally:
            with contextlib.suppress(subprocess.CalledProcessError):
                cluster.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
