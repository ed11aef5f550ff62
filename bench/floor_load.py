"""Floor load benchmark: a busy evening on 8 tables, with and without 20 open floor pages.

Issue 24's load: the busy evening of ``bench/table_bench.py`` (8 players, each making 20
announcements a round, then the spin) is played on 8 tables at once, first alone, then
again on new tables while ``callbets floor --serve`` watches them (its own process, as
on a pit boss's machine) and 20 pages are open on it.  A page is what the browser's
script does (``callbets/web/static/floor.js``): it holds the server-sent events stream
open, and each event brings the floor's JSON; 12 pages are the floor page (they draw
it), 8 are the table pages of the 8 tables (they then read ``/api/table/KEY`` and the
picture).

It reports, for each backend:

* the tables' own figures alone and with the pages: bets/s (summed over the tables),
  spin p50 and p95, and how much slower they are with the pages;
* the page's refresh: the time from a spin's commit at a table to the first time each
  floor page shows that table's new round (p50, p95, max over every spin and page),
  and the time between two updates of a page (p50, p95, max);
* requests the pages made, and any that failed.

It never passes or fails.

    python bench/floor_load.py [--pages 20] [--tables 8] [--spins 30]
        [--backends sqlite postgresql] [--every 2] [--turns 3]
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import itertools
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import table_bench as busy

ROOT = Path(__file__).resolve().parent.parent
FLOOR_PAGES_SHARE = 12
"""Of the 20 pages, how many show the floor (the rest show one table each)."""


@dataclass
class Page:
    """One open page: what it saw and when."""

    path: str
    """``/api/floor`` or ``/api/table/KEY``."""
    updates: list[float] = field(default_factory=list)
    """When each update reached it (after the JSON, and for a table page the picture)."""
    first_seen: dict[tuple[str, int], float] = field(default_factory=dict)
    """When it first showed each table at each round (floor pages)."""
    requests: int = 0
    failed: int = 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get(port: int, path: str) -> bytes:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path)
        answer = conn.getresponse()
        body = answer.read()
        if answer.status != 200:
            raise OSError(f"{path}: HTTP {answer.status}")
        return body
    finally:
        conn.close()


def keep_open(page: Page, port: int, stop: threading.Event) -> None:
    """A page: the event stream held open; each event brings the floor's JSON."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", "/events")
    stream = conn.getresponse()
    event = b""
    while not stop.is_set():
        line = stream.fp.readline()
        if not line:
            break
        if line.startswith(b"event: "):
            event = line[7:].strip()
        elif line.startswith(b"data: ") and event == b"floor":
            update(page, port, line[6:])
    conn.close()


def update(page: Page, port: int, pushed: bytes) -> None:
    """What the page's script does at an event: a floor page draws the floor the event
    brought; a table page reads its table's JSON and picture."""
    try:
        data = json.loads(pushed)
        if page.path.startswith("/api/table/"):
            page.requests += 2
            json.loads(get(port, page.path))
            get(port, page.path.replace("/api/table/", "/table/") + "/picture.svg")
    except (OSError, ValueError):
        page.failed += 1
        return
    now = time.time()
    page.updates.append(now)
    for t in data.get("tables", []):
        page.first_seen.setdefault((t["table"], t["round"]), now)


def wait_until_up(port: int, server: subprocess.Popen[bytes]) -> None:
    for _ in range(300):
        if server.poll() is not None:
            raise SystemExit("callbets floor --serve stopped at start")
        try:
            get(port, "/api/floor")
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("callbets floor --serve did not answer in 30 s")


def table_keys(port: int, names: list[str]) -> list[str]:
    """The pages' keys of the bench's tables (they appear at the floor's next look)."""
    for _ in range(150):
        data = json.loads(get(port, "/api/floor"))
        keys = {t["table"]: t["key"] for t in data["tables"]}
        if all(n in keys for n in names):
            return [keys[n] for n in names]
        time.sleep(0.2)
    raise SystemExit(f"the floor does not list the tables {names}")


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far, user and system (Linux's ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class ServerCpu:
    """The CPU used by the database server's processes (every ``postgres`` process of the
    machine) over a stretch of time: sampled every half second, so that a connection's
    process that ends in between still counts up to its last sample."""

    def __init__(self) -> None:
        self.start: dict[int, float] = {}
        self.last: dict[int, float] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)

    @staticmethod
    def _postgres() -> dict[int, float]:
        found = {}
        for proc in Path("/proc").iterdir():
            if proc.name.isdigit():
                with contextlib.suppress(OSError, IndexError, ValueError):
                    if (proc / "comm").read_text().strip() == "postgres":
                        found[int(proc.name)] = cpu_seconds(int(proc.name))
        return found

    def _sample(self) -> None:
        while not self.stop.wait(0.5):
            self.last.update(self._postgres())

    def __enter__(self) -> ServerCpu:
        self.began = time.time()
        self.start = self._postgres()
        self.last = dict(self.start)
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()
        self.last.update(self._postgres())
        self.wall = time.time() - self.began

    @property
    def share(self) -> float:
        """CPU seconds per second of the stretch (1.0: one core)."""
        used = sum(v - self.start.get(pid, 0.0) for pid, v in self.last.items())
        return used / self.wall


def with_pages(
    backend: str, source: str, locations: list[str], work: busy.Workload, args: argparse.Namespace
) -> tuple[busy.Row, list[Page], list[busy.Evening], str]:
    """Play the evening on ``locations`` with the floor serving ``args.pages`` pages."""
    for location in locations:
        busy.seat(location, work.players)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "callbets", "floor", "--serve", "--port", str(port),
         "--table", source, "--no-anchor", "--every", str(args.every), "--lang", "fr"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
    )  # fmt: skip
    stop = threading.Event()
    evenings: list[busy.Evening] = []
    try:
        wait_until_up(port, server)
        keys = table_keys(port, [name_of(loc) for loc in locations])
        floor_pages = min(FLOOR_PAGES_SHARE, args.pages)
        paths = ["/api/floor"] * floor_pages + [
            f"/api/table/{keys[i % len(keys)]}" for i in range(args.pages - floor_pages)
        ]
        pages = [Page(p) for p in paths]
        for page in pages:
            threading.Thread(target=keep_open, args=(page, port, stop), daemon=True).start()
        time.sleep(args.every * 2)  # every page open and settled before the evening
        began, floor_began, pages_began = time.time(), cpu_seconds(server.pid), time.process_time()
        with ServerCpu() as database:
            row = busy.run(backend, locations, work, keep=evenings, seated=True)
        wall = time.time() - began
        floor_cpu = (cpu_seconds(server.pid) - floor_began) / wall
        pages_cpu = (time.process_time() - pages_began) / wall
        cpu = (
            f"  CPU during the evening: the floor {floor_cpu:.0%} of one, the pages {pages_cpu:.0%}"
        )
        if backend == "postgresql":
            cpu += f", the database server {database.share:.0%}"
        time.sleep(args.every * 2)  # the last spins reach the pages
    finally:
        stop.set()
        server.terminate()
        began = time.perf_counter()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            print("  the floor did not stop in 60 s after SIGTERM: killed")
        print(f"  the floor stopped {time.perf_counter() - began:.1f} s after SIGTERM")
    return row, pages, evenings, cpu


def name_of(location: str) -> str:
    """A table's name on the floor: its ``table=`` id, or its file's name."""
    if "table=" in location:
        return location.rsplit("table=", 1)[1]
    return Path(location).name


def percentile(values: list[float], share: float) -> float:
    return busy.percentile(values, share) if values else float("nan")


def refresh_lines(
    pages: list[Page], locations: list[str], evenings: list[busy.Evening]
) -> list[str]:
    """Spin to page, and between two updates of a page, in seconds."""
    delays = [
        page.first_seen[(name_of(loc), round_)] - at
        for page in pages
        if page.path == "/api/floor"
        for loc, evening in zip(locations, evenings, strict=True)
        for round_, at in evening.spun
        if (name_of(loc), round_) in page.first_seen
    ]
    shown = sum(len(e.spun) for e in evenings) * sum(p.path == "/api/floor" for p in pages)
    gaps = [b - a for p in pages for a, b in itertools.pairwise(p.updates)]
    out = []
    for label, values in (("spin to page", delays), ("between updates", gaps)):
        worst = max(values, default=float("nan"))
        out.append(f"  {label:16} p50 {percentile(values, 0.5):5.2f} s   p95 "
                   f"{percentile(values, 0.95):5.2f} s   max {worst:5.2f} s   "
                   f"({len(values)})")  # fmt: skip
    out.append(f"  spins seen by the floor pages: {len(delays)} of {shown}")
    requests, failed = sum(p.requests for p in pages), sum(p.failed for p in pages)
    out.append(f"  requests by the pages: {requests}, failed {failed}")
    return out


def main() -> None:
    """Play the evenings, alone and with the pages, and print the figures."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--pages", type=int, default=20)
    ap.add_argument("--tables", type=int, default=8)
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--announcements", type=int, default=20)
    ap.add_argument("--spins", type=int, default=30)
    ap.add_argument("--every", type=int, default=2, help="the floor's refresh period (s)")
    ap.add_argument("--backends", nargs="+", choices=["sqlite", "postgresql"],
                    default=["sqlite", "postgresql"])  # fmt: skip
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--turns", type=int, default=1,
                    help="play alone and with the pages this many times, taking turns, and "
                    "give the median slowdown (runs on a shared machine differ by 10 points "
                    "and more)")  # fmt: skip
    args = ap.parse_args()
    work = busy.Workload(args.players, args.announcements, args.spins, args.seed)
    print(f"{args.tables} tables, {args.players} players × {args.announcements} announcements "
          f"a round, {args.spins} spins; {args.pages} pages; {os.cpu_count()} CPUs, load "
          f"average {os.getloadavg()[0]:.2f} before")  # fmt: skip
    for backend in args.backends:
        if backend == "postgresql" and busy.postgres_available(None):
            print(f"PostgreSQL skipped: {busy.postgres_available(None)}")
            continue
        slower = [one_turn(backend, work, args) for _ in range(args.turns)]
        if len(slower) > 1:
            said = ", ".join(f"{x:+.1f} %" for x in slower)
            print(f"{backend}: slower with the pages, turn by turn: {said}; "
                  f"median {statistics.median(slower):+.1f} %")  # fmt: skip


def one_turn(backend: str, work: busy.Workload, args: argparse.Namespace) -> float:
    """The evening alone, then with the floor and its pages, each on new tables; prints
    the figures and returns how much slower (%) the tables were with the pages."""
    run_id = uuid.uuid4().hex[:6]
    with places_of(backend) as where:
        print(f"{backend}: {args.tables} tables alone …", flush=True)
        with ServerCpu() as database:
            before = busy.run(backend, [where(f"alone-{run_id}-{i}") for i in range(args.tables)],
                              work)  # fmt: skip
        if backend == "postgresql":
            print(f"  CPU of the database server alone: {database.share:.0%} of one core")
    with places_of(backend) as where:  # the floor watches only these
        watched = [where(f"watched-{run_id}-{i}") for i in range(args.tables)]
        source = watched[0].rsplit("?", 1)[0] if backend == "postgresql" else str(
            Path(watched[0]).parent)  # fmt: skip
        print(f"{backend}: {args.tables} tables with {args.pages} pages …", flush=True)
        after, pages, evenings, cpu = with_pages(backend, source, watched, work, args)
    slower = report(backend, before, after, args.pages)
    print(cpu)
    for line in refresh_lines(pages, watched, evenings):
        print(line)
    return slower


def places_of(backend: str) -> contextlib.AbstractContextManager[Callable[[str], str]]:
    """Where a backend's tables go: files in a new folder, or a new throwaway database."""
    return busy.sqlite_places() if backend == "sqlite" else busy.postgres_places(None)


def report(backend: str, before: busy.Row, after: busy.Row, pages: int) -> float:
    print(f"\n{backend:10} {'bets/s':>8} {'spin p50 ms':>11} {'p95 ms':>8} {'evening s':>9}")
    for label, r in (("alone", before), (f"{pages} pages", after)):
        print(f"  {label:8} {r.total_rate:8.0f} {r.p50_ms:11.1f} {r.p95_ms:8.1f} {r.wall_s:9.1f}")
    slower = (1 - after.total_rate / before.total_rate) * 100
    print(
        f"  with the pages: bets/s {slower:+.1f} % slower, spin p50 "
        f"{after.p50_ms / before.p50_ms:.2f}×, p95 {after.p95_ms / before.p95_ms:.2f}×"
    )
    return slower


if __name__ == "__main__":
    main()
