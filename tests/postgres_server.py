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


@contextlib.contextmanager
def throwaway_server() -> Iterator[str]:
    """Start a cluster; yield the URL of its ``postgres`` database (user ``callbets``)."""
    bin_dir = server_bin()
    if bin_dir is None:
        raise FileNotFoundError("no PostgreSQL server binaries (initdb, pg_ctl)")
    folder = Path(tempfile.mkdtemp(prefix="callbets-pg-"))
    user = _runner()
    if user is not None:
        shutil.chown(folder, user)
    data, port = folder / "data", _free_port()

    def run(*args: str) -> None:
        subprocess.run(args, check=True, capture_output=True, user=user, cwd=folder)

    try:
        run(str(bin_dir / "initdb"), "-D", str(data), "-U", "callbets", "-A", "trust",
            "-E", "UTF8", "--no-sync", "--locale=C")  # fmt: skip
        options = (f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c full_page_writes=off -c max_connections=60")  # fmt: skip
        run(str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l",
            str(folder / "server.log"), "-w", "-t", "60", "start")  # fmt: skip
        try:
            yield f"postgresql://callbets@127.0.0.1:{port}/postgres"
        finally:
            run(str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
