"""The floor's one look at the tables, shared by every page: a background poller.

One thread surveys every table (:func:`~callbets.table.floor.view`, with one
:class:`~callbets.table.watch.Watch` for the whole floor) every ``every`` seconds, and at
once when a glance at the tables' rounds between two looks finds a spin, and keeps the
latest :class:`Snapshot`, numbered: its version moves only when what the floor shows
has changed.  Every page, JSON answer and event stream is served from that snapshot, so
twenty open pages cost the tables no more than one.  A table page's details (the picture,
the bets read back, the spins, the report) are read at most once per table and version
(:class:`~.details.Details`), and again only when the table's audit head has moved.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..messages import message_in, say_in
from ..roulette.layout import BLACK, RED
from ..table.floor import (
    LARGE_WIN,
    TableView,
    as_json,
    expand,
    gone_views,
    shown_round,
    survey,
    view,
)
from ..table.table import Table
from ..table.watch import Watch
from .prover import Prover

log = logging.getLogger(__name__)


GLANCE = 0.5
"""Seconds between two glances at the tables' rounds, between two looks (:meth:`Poller.spun`)."""


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
    text: str = ""
    """``data`` as the pages get it (:func:`safe_json`), written once for every page and
    event stream."""


def safe_json(content: Any) -> str:
    """JSON on one line with ``<``, ``>`` and ``&`` escaped (``\\u003c``…): a name a
    player typed can never read as markup, whatever a client does with the text."""
    text = json.dumps(content, ensure_ascii=False, separators=(",", ":"))
    for char, code in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        text = text.replace(char, code)
    return text


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
            views.append(view(one, large_win, watch, checked=watch.proving))
            where.append(one)
        gone = gone_views(source, found, watch)
        views += gone
        where += [None] * len(gone)
    return views, where


def floor_data(views: list[TableView], keys: list[str], lang: str) -> dict[str, Any]:
    """The floor as the page reads it (``/api/floor``)."""
    data = as_json(views)
    for entry, key, v in zip(data["tables"], keys, views, strict=True):
        entry["key"] = key
        entry["flags"] = [str(f) for f in v.flags]
        entry["said_flags"] = [message_in(f, lang) for f in v.flags]
        reason = message_in(v.error, lang)
        entry["said_error"] = say_in(lang, "floor_unreadable", reason=reason) if v.error else ""
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
    snapshot: Snapshot = field(
        default_factory=lambda: Snapshot(0, (), {}, {"tables": []}, safe_json({"tables": []}))
    )
    listeners: list[Callable[[], None]] = field(default_factory=list)
    """Called from the poller's thread each time the snapshot changes, and once when the
    floor closes: the event streams wait for them rather than ask every few tenths of a
    second (twenty pages asking five times a second cost the floor more than its looks)."""
    closing: threading.Event = field(default_factory=threading.Event)
    """Set when the floor stops (:meth:`close`): the poller, the prover and the event
    streams end."""
    prover: Prover | None = None
    """Proves the tables apart from the looks, once started (:mod:`.prover`)."""
    _thread: threading.Thread | None = None

    def refresh(self) -> Snapshot:
        """Look at every table once; a new version if anything shown has changed."""
        views, where = look(self.sources, self.lang, self.watch, self.large_win)
        keys = keyed(views)
        data = floor_data(views, keys, self.lang)
        data["proofs"] = self.prover.made if self.prover is not None else 0
        old = self.snapshot
        if old.version and data == {k: v for k, v in old.data.items() if k != "version"}:
            return old  # nothing shown has changed: the pages have nothing to read again
        locations = {k: w for k, w, v in zip(keys, where, views, strict=True)
                     if w is not None and not v.error}  # fmt: skip
        version = old.version + 1
        shown = {**data, "version": version}
        new = Snapshot(version, tuple(views), locations, shown, safe_json(shown))
        self.snapshot = new
        self._tell()
        return new

    def _tell(self) -> None:
        for listener in list(self.listeners):
            listener()

    def close(self) -> None:
        """Say the floor is closing: the threads and the event streams end."""
        self.closing.set()
        self._tell()

    def start(self) -> None:
        """Look once now, then every ``every`` seconds in a daemon thread; the tables are
        proved in another (:class:`~.prover.Prover`), never inside a look."""
        self.watch.proving = False
        self.prover = Prover(lambda: self.snapshot.locations, self.watch, self.closing,
                             self.every)  # fmt: skip
        self.refresh()
        self._thread = threading.Thread(target=self._run, name="floor-poller", daemon=True)
        self._thread.start()
        self.prover.start()

    def stop(self) -> None:
        """Stop looking and proving (the threads end within a look, or after a proof)."""
        self.close()
        if self._thread is not None:
            self._thread.join(timeout=30)
        if self.prover is not None:
            self.prover.join(timeout=5)  # a daemon: a proof under way does not hold the exit

    def _run(self) -> None:
        due = time.monotonic()
        while True:
            # every ``every`` seconds from the start of the last look, not from its end:
            # a look that takes long does not add to the pages' wait; sooner when a glance
            # finds a table spun
            looked = due
            due = max(due + self.every, time.monotonic())
            while (left := due - time.monotonic()) > 0:
                if self.closing.wait(min(GLANCE, left)):
                    return
                # half a period at least between two looks: on a busy floor some table
                # spins every few seconds, and each look makes every open page read again
                early = time.monotonic() - looked >= self.every / 2
                if early and left > GLANCE and self.spun():
                    due = time.monotonic()
                    break
            try:
                self.refresh()
            except Exception:  # the floor goes on: the next look may succeed
                log.exception("the floor's look at the tables failed")

    def spun(self) -> bool:
        """True when a table's round has moved since the last look (a spin was played):
        one short read a table, so that a spin reaches the pages within about
        :data:`GLANCE` seconds rather than a whole period."""
        shown = {t["key"]: t["round"] for t in self.snapshot.data["tables"] if "key" in t}
        for key, location in self.snapshot.locations.items():
            try:
                with Table.open(location, write=False, checked=False, kept=True) as table:
                    if shown_round(table) != shown.get(key):
                        return True
            except Exception:  # the next look says why, on its card
                continue
        return False
