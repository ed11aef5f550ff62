"""The floor's web page served for a test: the real application on uvicorn, in a thread,
on a socket already bound to a free port of 127.0.0.1, and tables made by the real
``callbets table`` commands."""

from __future__ import annotations

import base64
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import uvicorn

from callbets.web import AccessLog, Poller, Tokens, build
from callbets.web.app import server_config

from .conftest import ROOT


def cb(*args: str) -> subprocess.CompletedProcess[str]:
    """``callbets ARGS`` in a new process."""
    return subprocess.run([sys.executable, "-m", "callbets", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)  # fmt: skip


def table(location: str, *steps: tuple[str, ...], lang: str = "fr") -> None:
    """Open a table and play ``steps`` on it (each ``callbets table`` arguments)."""
    for step in (("open", "--lang", lang), *steps):
        done = cb("table", "--table", location, *step)
        assert done.returncode == 0, (step, done.stdout, done.stderr)


@contextmanager
def serving(sources: list[str], lang: str = "en", token: str = "", every: float = 0.3,
            poller: Poller | None = None, hosts: frozenset[str] = frozenset(),
            tokens: Tokens | None = None, access: AccessLog | None = None,
            ) -> Iterator[str]:  # fmt: skip
    """The floor of ``sources`` served (or ``poller``'s, not started: its snapshot as it
    is); yields its address (``http://127.0.0.1:PORT``)."""
    start = poller is None
    poller = poller or Poller(sources, lang, every)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    app = build(poller, token, start=start, hosts=hosts, tokens=tokens, access=access)
    config = server_config(app)  # the floor's own bounds and protocol
    config.timeout_graceful_shutdown = 1
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the floor did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        poller.close()  # the event streams end
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def get(url: str, method: str = "GET", auth: str = "", timeout: float = 10
        ) -> tuple[int, dict[str, str], bytes]:  # fmt: skip
    """(status, headers in lower case, body) of one request; an event stream's body is not
    read (it does not end)."""
    headers = {"Authorization": auth} if auth else {}
    request = urllib.request.Request(url, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as r:
            head = {k.lower(): v for k, v in r.headers.items()}
            streaming = head.get("content-type", "").startswith("text/event-stream")
            return r.status, head, b"" if streaming else r.read()
    except urllib.error.HTTPError as err:
        return err.code, {k.lower(): v for k, v in err.headers.items()}, err.read()


def basic(password: str, user: str = "pit") -> str:
    """An HTTP Basic ``Authorization`` header."""
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def new_database(postgres_server: str) -> str:
    """A new database with the callbets schema on the tests' server: its URL."""
    name = f"web_{uuid.uuid4().hex[:8]}"
    admin = postgres_server.rsplit("/", 1)[0]
    with psycopg.connect(admin + "/postgres", autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    db = f"{admin}/{name}"
    assert cb("db", "upgrade", db).returncode == 0
    return db
