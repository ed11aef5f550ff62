"""The floor: every open table of a casino at a glance, for a pit boss (read-only).

:func:`survey` opens each table read-only and reads what a pit boss watches: who deals,
the round, betting open or closed, what is staked and in prison, the last numbers, the
announcements waiting, and the flags for what needs a look (a position at the table's
maximum, a large win on the last spin, an audit that does not verify, a state that is not
the one its audit gives, an audit cut or rewritten since the floor saw it:
:mod:`.watch`).  Nothing is
written; a table that cannot be read is shown with the reason instead of stopping the
floor.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..errors import CallbetsError
from ..messages import redacted, said
from ..roulette.layout import Position
from ..roulette.limits import counted_stakes, room, totals
from .postgres import split_url, table_ids, url_label
from .store import is_url
from .table import Table, money
from .watch import Watch

log = logging.getLogger(__name__)

LAST_NUMBERS = 8
"""How many of the last numbers are shown."""
LARGE_WIN = 1000
"""Net win of one player on the last spin, in stake units, that is flagged (default)."""


@dataclass
class TableView:
    """One table as the floor shows it."""

    table: str
    """Its name (the table id, or the file's name)."""
    location: str
    """Its URL (without password) or file."""
    house: str = ""
    croupier: str = ""
    """Who last acted at the table (from its audit log)."""
    round: int = 0
    betting: str = ""
    """``open`` or ``closed``."""
    players: int = 0
    staked: int = 0
    prison: int = 0
    last_numbers: list[int] = field(default_factory=list)
    """Newest first."""
    pending: int = 0
    """Announcements waiting for the croupier's confirmation."""
    flags: list[str] = field(default_factory=list)
    """What a pit boss must look at, in words."""
    error: str = ""
    """Why the table could not be read (then only ``table`` and ``location`` are set)."""


def survey(
    locations: Iterable[str | Path], large_win: int = LARGE_WIN, watch: Watch | None = None
) -> list[TableView]:
    """Read every table, each on its own read-only connection; a database URL without a
    ``table`` parameter stands for every table in that database.  Each table stands
    alone: one that cannot be read (a database out of reach, a damaged row) is a view
    with its reason, and the others are read all the same.  ``watch`` remembers heads
    and proofs from one look to the next (a new one proves every table now)."""
    watch = watch or Watch()
    out: list[TableView] = []
    for where in locations:
        try:
            found = expand([where])
        except Exception as err:  # any reason, said on the floor in one line
            out.append(_unreadable(where, err))
            continue
        out += [view(one, large_win, watch) for one in found]
        out += gone_views(where, found, watch)
    return out


def gone_views(where: str | Path, found: list[str | Path], watch: Watch) -> list[TableView]:
    """For a folder: a view of each table seen in it before and not there now (deleted or
    moved: the floor says so rather than let it vanish)."""
    if is_url(where) or not Path(where).is_dir():
        return []
    return [
        TableView(redacted(Path(w).name), redacted(w), error=said("floor_table_gone"))
        for w in watch.gone(where, found)
    ]


def expand(locations: Iterable[str | Path]) -> list[str | Path]:
    """Locations with a whole database replaced by each of its tables, and a folder by
    each table file (``*.sqlite``) in it.

    :raises TableError: a database that cannot be reached or has no callbets schema.
    """
    out: list[str | Path] = []
    for where in locations:
        if is_url(where) and not split_url(str(where))[1]:
            sep = "&" if "?" in str(where) else "?"
            out += [f"{where}{sep}table={name}" for name in table_ids(str(where))]
        elif not is_url(where) and Path(where).is_dir():  # a folder: each table file in it
            out += sorted(p for p in Path(where).glob("*.sqlite") if p.is_file())
        else:
            out.append(where)
    return out


def view(
    location: str | Path,
    large_win: int = LARGE_WIN,
    watch: Watch | None = None,
    checked: bool = True,
) -> TableView:
    """One table's view (or the reason it cannot be read: a table damaged in any way is
    the floor's to show, not to stop at); ``checked=False``: without SQLite's quick
    check of the whole file (for a floor that proves its tables apart)."""
    try:
        with Table.open(location, write=False, checked=checked, kept=True) as table:
            return _read(table, large_win, watch or Watch())
    except Exception as err:  # a damaged row may fail anywhere in the reading
        return _unreadable(location, err)


def _unreadable(location: str | Path, err: Exception) -> TableView:
    """The view of a table (or a database) that cannot be read, with the reason in one
    line, the location without its password."""
    if is_url(location):
        try:
            _, name, label = split_url(str(location))
        except CallbetsError:
            name, label = "", url_label(str(location))
        name = name or label.split("/")[-1].split("?")[0] or label
    else:  # a file, or what was meant as a database (a key/value connection string)
        name, label = redacted(Path(location).name), redacted(str(location))
    if isinstance(err, CallbetsError):
        reason = str(err)
    else:
        log.warning("%s cannot be read", label, exc_info=True)
        reason = f"it is damaged ({type(err).__name__}: {err})"
    return TableView(name, label, error=" ".join(redacted(reason).split()))


def shown_round(table: Table) -> int:
    """The round the floor shows: the one being played, or, once the evening has ended,
    the last one played (not the round that will never come)."""
    return table.round - 1 if table.ended else table.round


def _read(table: Table, large_win: int, watch: Watch) -> TableView:
    """What the floor shows of a table, from a few short queries: the bets are summed by
    the database, never read one by one (a busy round holds hundreds).  Once the evening
    has ended nothing is in prison: what was there came to what the house says at closing
    (the report says how)."""
    stakes = table.open_stakes()
    last = table.store.rows(
        "SELECT number FROM spins WHERE table_id = :t ORDER BY round DESC LIMIT :n",
        n=LAST_NUMBERS,
    )
    found = TableView(
        redacted(table.name), redacted(table.location), table.house.name, _croupier(table),
        shown_round(table), table.betting, len(table.players()),
        sum(amount for _, amount, prison in stakes if not prison),
        0 if table.ended else sum(amount for _, amount, prison in stakes if prison),
        [int(n) for (n,) in last], len(table.pending()),
    )  # fmt: skip
    found.flags = [*_at_maximum(table, stakes), *_large_wins(table, large_win),
                   *watch.flags(table)]  # fmt: skip
    return found


def _croupier(table: Table) -> str:
    row = table.store.one("SELECT payload FROM audit WHERE table_id = :t ORDER BY id DESC LIMIT 1")
    try:
        by = json.loads(row[0]).get("by", {}) if row else {}
    except (ValueError, AttributeError):
        return ""
    return str(by.get("croupier", "")) if isinstance(by, dict) else ""


def _at_maximum(table: Table, stakes: list[tuple[Position, int, int]]) -> list[str]:
    """A flag for each position whose stake leaves no room under the house's maximum."""
    layout = totals(counted_stakes(stakes, table.house))
    full = [p for p, total in layout.items() if room(p, table.house, total) == 0]
    return [said("floor_at_maximum", position=p) for p in sorted(full, key=str)]


def _large_wins(table: Table, large_win: int) -> list[str]:
    row = table.store.one(
        "SELECT round, report FROM spins WHERE table_id = :t ORDER BY round DESC LIMIT 1"
    )
    if row is None:
        return []
    try:
        players = json.loads(row[1]).get("players", {})
        return [
            said("floor_large_win", player=name, net=money(Fraction(entry["net"])), round=row[0])
            for name, entry in players.items()
            if entry["net"] >= large_win
        ]
    except (ValueError, TypeError, AttributeError, KeyError, OverflowError):
        return [said("floor_settlement_unreadable", round=row[0])]


def as_json(views: list[TableView]) -> dict[str, Any]:
    """The floor for other systems: every table, and the totals."""
    readable = [v for v in views if not v.error]
    return {
        "tables": [asdict(v) for v in views],
        "open_tables": sum(v.betting == "open" for v in readable),
        "staked": sum(v.staked for v in readable),
        "prison": sum(v.prison for v in readable),
        "flags": sum(len(v.flags) for v in readable) + sum(bool(v.error) for v in views),
    }
