"""The floor's one look at the tables, shared by every page: a background poller.

One thread surveys every table (:func:`~callbets.table.floor.view`, with one
:class:`~callbets.table.watch.Watch` for the whole floor) every ``every`` seconds and keeps
the latest :class:`Snapshot`, numbered: its version moves only when what the floor shows
has changed.  Every page, JSON answer and event stream is served from that snapshot, so
twenty open pages cost the tables no more than one.  A table page's details (the picture,
the bets read back, the spins, the report) are read at most once per table and version
(:class:`Details`), and again only when the table's audit head has moved.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..messages import message_in, say_in
from ..roulette.layout import BLACK, RED
from ..table.floor import LARGE_WIN, TableView, as_json, expand, survey, view
from ..table.table import Table
from ..table.watch import PROVE_EVERY, Watch

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Snapshot:
    """The floor as last seen: its views, where each table is, and the JSON pages read."""

    version: int
    views: tuple[TableView, ...]
    locations: dict[str, str | Path]
    """Each readable table's location, by its key (the name in the page's address)."""
    data: dict[str, Any]
    """:func:`~callbets.table.floor.as_json`, each table with its ``key`` and its flags
    and error said in the floor's language (``said_flags``, ``said_error``)."""


def colour(number: int) -> str:
    """``red``, ``black`` or ``green``: the number's pocket on the wheel."""
    return "red" if number in RED else "black" if number in BLACK else "green"


def keyed(views: Iterable[TableView]) -> list[str]:
    """A key per view, its table's name, made unique (``T12``, ``T12~2``) when two sources
    hold tables of the same name."""
    keys: list[str] = []
    for v in views:
        key, n = v.table or "table", 1
        while key in keys:
            n += 1
            key = f"{v.table}~{n}"
        keys.append(key)
    return keys


def look(
    sources: list[str], lang: str, watch: Watch, large_win: int = LARGE_WIN
) -> tuple[list[TableView], list[str | Path | None]]:
    """Every table of the sources (as :func:`~callbets.table.floor.survey` reads them) and
    where each is (None for a source that cannot be read at all)."""
    views: list[TableView] = []
    where: list[str | Path | None] = []
    for source in sources:
        try:
            found = expand([source])
        except Exception:  # any reason: survey says it, in one line
            unread = survey([source], large_win, watch)
            views += unread
            where += [None] * len(unread)
            continue
        for one in found:
            views.append(view(one, large_win, watch))
            where.append(one)
    return views, where


def floor_data(views: list[TableView], keys: list[str], lang: str) -> dict[str, Any]:
    """The floor as the page reads it (``/api/floor``)."""
    data = as_json(views)
    for entry, key, v in zip(data["tables"], keys, views, strict=True):
        entry["key"] = key
        entry["flags"] = [str(f) for f in v.flags]
        entry["said_flags"] = [message_in(f, lang) for f in v.flags]
        entry["said_error"] = say_in(lang, "floor_unreadable", reason=v.error) if v.error else ""
        entry["last_colours"] = [colour(n) for n in v.last_numbers]
        entry["said_betting"] = say_in(lang, f"status_{v.betting}") if v.betting else ""
    data["lang"] = lang
    return data


@dataclass
class Poller:
    """The background look at the tables (see the module docstring)."""

    sources: list[str]
    lang: str = "en"
    every: float = 2.0
    large_win: int = LARGE_WIN
    watch: Watch = field(default_factory=Watch)
    snapshot: Snapshot = field(default_factory=lambda: Snapshot(0, (), {}, {"tables": []}))
    changed: threading.Condition = field(default_factory=threading.Condition)
    closing: threading.Event = field(default_factory=threading.Event)
    """Set when the floor stops: the poller and the event streams end."""
    _thread: threading.Thread | None = None

    def refresh(self) -> Snapshot:
        """Look at every table once; a new version if anything shown has changed."""
        views, where = look(self.sources, self.lang, self.watch, self.large_win)
        keys = keyed(views)
        data = floor_data(views, keys, self.lang)
        old = self.snapshot
        if old.version and data == {k: v for k, v in old.data.items() if k != "version"}:
            return old  # nothing shown has changed: the pages have nothing to read again
        locations = {k: w for k, w, v in zip(keys, where, views, strict=True)
                     if w is not None and not v.error}  # fmt: skip
        new = Snapshot(old.version + 1, tuple(views), locations, {**data, "version": 0})
        new.data["version"] = new.version
        with self.changed:
            self.snapshot = new
            self.changed.notify_all()
        return new

    def start(self) -> None:
        """Look once now, then every ``every`` seconds in a daemon thread."""
        self.refresh()
        self._thread = threading.Thread(target=self._run, name="floor-poller", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop looking (the thread ends within a look)."""
        self.closing.set()
        if self._thread is not None:
            self._thread.join(timeout=30)

    def _run(self) -> None:
        while not self.closing.wait(self.every):
            try:
                self.refresh()
            except Exception:  # the floor goes on: the next look may succeed
                log.exception("the floor's look at the tables failed")


@dataclass
class _Cached:
    version: int
    head: str
    details: dict[str, Any]
    proved: float
    """When the table was last proved (its audit, its evening's report)."""


@dataclass
class Details:
    """A table page's details, read at most once per table and snapshot version, and
    computed again only when the table's audit head has moved; the table is proved again
    (its whole evening replayed) at most every ``prove_every`` seconds, as the floor's
    :class:`~callbets.table.watch.Watch` does."""

    compute: Callable[[Table, str, dict[str, Any] | None], dict[str, Any]]
    """What a table page shows, from the table open read-only, its key, and the details
    before whose proof is to be kept (None: prove it now)."""
    prove_every: float = PROVE_EVERY
    _cache: dict[str, _Cached] = field(default_factory=dict)
    _locks: dict[str, threading.Lock] = field(default_factory=dict)
    _guard: threading.Lock = field(default_factory=threading.Lock)

    def of(self, snapshot: Snapshot, key: str) -> dict[str, Any] | None:
        """The details of table ``key`` (None: no such readable table on the floor)."""
        location = snapshot.locations.get(key)
        if location is None:
            return None
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:  # twenty pages asking at once: one reads, the others wait for it
            cached = self._cache.get(key)
            if cached is not None and cached.version == snapshot.version:
                return {**cached.details, "version": snapshot.version}
            with Table.open(location, write=False) as table:
                head = str(table.head())
                if cached is None or cached.head != head:
                    now = time.monotonic()
                    recent = cached is not None and now - cached.proved < self.prove_every
                    kept = cached if recent else None
                    details = self.compute(table, key, kept.details if kept else None)
                    cached = _Cached(snapshot.version, head, details,
                                     kept.proved if kept else now)  # fmt: skip
                cached.version = snapshot.version
            self._cache[key] = cached
            return {**cached.details, "version": snapshot.version}
