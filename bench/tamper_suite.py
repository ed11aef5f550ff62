"""The tamper suite: an insider with the database's keys against ``callbets table verify``.

Each case plays the same short evening on a new table (two spins, each with its head kept
as a pit boss keeps the head printed by ``verify`` at the end of a spin, then a third
round's bets), changes the table behind callbets' back with SQL, and reports what found
it:

* ``verify``: ``table verify`` alone (the chain, the books, the state replayed);
* ``anchor``: only the heads kept outside the table (``verify --head`` / ``--anchor``),
  checked whatever the key;
* ``inherent``: nothing can, without a key (said so in the README).

    python bench/tamper_suite.py [--postgres URL]     # SQLite, and PostgreSQL if given

Prints one line per case and backend; exits 1 when a case is found otherwise than
expected.  ``tests/test_tamper_suite.py`` runs it on both backends.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import sys
import tempfile
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from callbets.errors import AuditKeyError, TableError
from callbets.table import Head, Table
from callbets.table.chain import KEY_VARIABLE, genesis, key_check, row_hash
from callbets.table.locations import upgrade
from callbets.table.postgres import split_url
from callbets.table.store import pyformat

KEY = "the casino's audit key"
STATE = ("meta", "players", "announcements", "bets", "spins", "outcomes")
Snapshot = dict[str, tuple[list[str], list[tuple[Any, ...]]]]
"""Each table's columns (but ``table_id``) and rows."""


class Lab:
    """One played table and raw SQL on its database, as an insider would have."""

    def __init__(self, location: str) -> None:
        self.location = location
        self.postgres = location.startswith("postgresql://")
        self.table_id = split_url(location)[1] if self.postgres else ""
        self.heads: list[Head] = []
        self.after_first_spin: Snapshot = {}

    @contextmanager
    def connection(self) -> Iterator[Any]:
        """A raw connection that may change the audit too (its guards switched off)."""
        if self.postgres:
            import psycopg  # the postgres extra, only for that backend

            with psycopg.connect(split_url(self.location)[0], autocommit=True) as conn:
                conn.execute("ALTER TABLE audit DISABLE TRIGGER USER")
                try:
                    yield conn
                finally:
                    conn.execute("ALTER TABLE audit ENABLE TRIGGER USER")
        else:
            db = sqlite3.connect(self.location, isolation_level=None)
            db.execute("DROP TRIGGER IF EXISTS audit_no_update")
            db.execute("DROP TRIGGER IF EXISTS audit_no_delete")
            try:
                yield db
            finally:
                db.close()

    def sql(self, statement: str, **params: Any) -> list[tuple[Any, ...]]:
        """Run a statement on this table's rows (``:t`` is its id)."""
        params = {"t": self.table_id, **params}
        with self.connection() as conn:
            if self.postgres:
                cur = conn.execute(pyformat(statement), params)
                return list(cur.fetchall()) if cur.description else []
            return list(conn.execute(statement, params).fetchall())

    def columns(self, name: str) -> list[str]:
        """A table's columns but ``table_id`` (and PostgreSQL's generated ``rowid``)."""
        with self.connection() as conn:
            cur = conn.execute(f"SELECT * FROM {name} LIMIT 0")
            return [d[0] for d in cur.description if d[0] not in ("table_id", "rowid")]

    def snapshot(self) -> Snapshot:
        """Every row of the table (to put back later: a backup restored)."""
        out = {}
        for name in (*STATE, "audit"):
            columns = self.columns(name)
            rows = self.sql(f"SELECT {', '.join(columns)} FROM {name} WHERE table_id = :t")
            out[name] = (columns, rows)
        return out

    def restore(self, snapshot: Snapshot) -> None:
        """The table as it was in a :meth:`snapshot` (of this table or another)."""
        for name in ("outcomes", "spins", "bets", "announcements", "players", "meta", "audit"):
            self.sql(f"DELETE FROM {name} WHERE table_id = :t")
        for name in ("meta", "players", "announcements", "bets", "spins", "outcomes", "audit"):
            columns, rows = snapshot[name]
            marks = ", ".join(f":c{i}" for i in range(len(columns)))
            for row in rows:
                values = {f"c{i}": v for i, v in enumerate(row)}
                names = ", ".join(columns)
                self.sql(f"INSERT INTO {name} (table_id, {names}) VALUES (:t, {marks})", **values)

    def recompute(self, key: bytes | None, since: int = 1) -> None:
        """Write every hash again from row ``since`` on (a forger's last step)."""
        uid = self.sql("SELECT value FROM meta WHERE table_id = :t AND key = 'uid'")[0][0]
        rows = self.sql("SELECT id, ts, kind, payload, hash FROM audit WHERE table_id = :t"
                        " ORDER BY id")  # fmt: skip
        previous = genesis(uid)
        for seq, ts, kind, payload, stored in rows:
            if seq >= since:
                stored = row_hash(previous, seq, ts, kind, payload, key)
                self.sql("UPDATE audit SET hash = :h WHERE table_id = :t AND id = :seq",
                         h=stored, seq=seq)  # fmt: skip
            previous = stored

    def last_audit(self) -> int:
        return int(self.sql("SELECT max(id) FROM audit WHERE table_id = :t")[0][0])


def play(location: str) -> Lab:
    """The evening: two spins (a head kept after each), then a third round's bets."""
    lab = Lab(location)
    t = Table.create(location, "venice-french", "fr")
    t.add_player("rouge")
    t.add_player("bleu")
    t.bet("rouge", "voisins du zéro à 2")
    t.bet("bleu", "17 en plein à 10")
    t.announce("bleu", "tiers à 5")
    t.close()
    t.spin(17)
    lab.heads.append(t.head())
    lab.after_first_spin = lab.snapshot()
    t.bet("rouge", "rouge à 10")
    t.bet("bleu", "pair à 10")
    t.close()
    t.spin(0)  # the even chance goes to prison
    lab.heads.append(t.head())
    t.bet("rouge", "finale 8 à 5")
    t.bet("bleu", "noir à 20")
    t.close_file()
    return lab


@dataclass(frozen=True)
class Case:
    """One way to change a table behind callbets' back."""

    name: str
    tamper: Callable[[Lab], None]
    expect: str
    """``verify``, ``anchor``, ``inherent`` (see the module docstring) or ``nothing``
    (the control: a table left alone verifies)."""
    keyed: bool = False


def _edit_payload(lab: Lab) -> None:
    lab.sql("UPDATE audit SET payload = replace(payload, '10', '1000') WHERE table_id = :t"
            " AND kind = 'announce' AND payload LIKE :plein", plein="%plein%")  # fmt: skip


def _delete_middle(lab: Lab) -> None:
    lab.sql("DELETE FROM audit WHERE table_id = :t AND id = 4")


def _reorder(lab: Lab) -> None:
    lab.sql("UPDATE audit SET id = 1000 WHERE table_id = :t AND id = 4")
    lab.sql("UPDATE audit SET id = 4 WHERE table_id = :t AND id = 5")
    lab.sql("UPDATE audit SET id = 5 WHERE table_id = :t AND id = 1000")


def _replace_row(lab: Lab) -> None:
    (payload, digest) = lab.sql("SELECT payload, hash FROM audit WHERE table_id = :t AND id = 3")[0]
    lab.sql("UPDATE audit SET payload = :p, hash = :h WHERE table_id = :t AND id = 2",
            p=payload, h=digest)  # fmt: skip


def _spin_number(lab: Lab) -> None:
    lab.sql("UPDATE spins SET number = 5 WHERE table_id = :t AND round = 1")


def _paid(lab: Lab) -> None:
    lab.sql("UPDATE outcomes SET paid = '3500' WHERE table_id = :t AND result = 'won'")


def _open_bets_times_100(lab: Lab) -> None:
    lab.sql("UPDATE bets SET amount = amount * 100 WHERE table_id = :t AND status = 'open'")


def _delete_round(lab: Lab) -> None:
    lab.sql("DELETE FROM outcomes WHERE table_id = :t AND round = 2")
    lab.sql("DELETE FROM spins WHERE table_id = :t AND round = 2")


def _closed(lab: Lab) -> None:
    lab.sql("UPDATE meta SET value = 'closed' WHERE table_id = :t AND key = 'state'")


def _delete_last_row(lab: Lab) -> None:
    lab.sql("DELETE FROM audit WHERE table_id = :t AND id = :last", last=lab.last_audit())


def _delete_every_row(lab: Lab) -> None:
    lab.sql("DELETE FROM audit WHERE table_id = :t")


def _cut_tail(lab: Lab) -> None:
    """The table put back as it was after its first spin (an older copy restored)."""
    lab.restore(lab.after_first_spin)


def _other_chain(lab: Lab) -> None:
    """Another table's audit rows in place of this one's."""
    other = play(_sibling(lab.location, "other"))
    rows = other.sql("SELECT id, ts, kind, payload, hash FROM audit WHERE table_id = :t")
    lab.sql("DELETE FROM audit WHERE table_id = :t")
    for seq, ts, kind, payload, digest in rows:
        lab.sql("INSERT INTO audit (table_id, id, ts, kind, payload, hash)"
                " VALUES (:t, :seq, :ts, :kind, :payload, :digest)",
                seq=seq, ts=ts, kind=kind, payload=payload, digest=digest)  # fmt: skip


def _whole_table(lab: Lab) -> None:
    """Every row replaced by another table's, its identity included."""
    other = play(_sibling(lab.location, "whole"))
    lab.restore(other.snapshot())


def _forged_croupier(since: int | None, key: bytes | None) -> Callable[[Lab], None]:
    """Who acted rewritten in one row, every hash after it written again."""

    def tamper(lab: Lab) -> None:
        seq = since if since is not None else lab.last_audit()
        lab.sql("UPDATE audit SET payload = replace(payload, '\"terminal\"', '\"forged\": 1,"
                " \"terminal\"') WHERE table_id = :t AND id = :seq", seq=seq)  # fmt: skip
        lab.recompute(key, since=seq)

    return tamper


def _key_check_deleted(lab: Lab) -> None:
    lab.sql("DELETE FROM meta WHERE table_id = :t AND key = 'key_check'")
    saved = os.environ.pop(KEY_VARIABLE)
    try:
        t = Table.open(lab.location)
        t.bet("rouge", "impair à 5")
        t.close_file()
    finally:
        os.environ[KEY_VARIABLE] = saved


def _unhashed_then_upgraded(lab: Lab) -> None:
    """Forged rows, their hashes removed (and an SQLite file said to be of version 2),
    then the croupier's next bet and an upgrade, both with the key: neither may sign
    them."""
    lab.sql("UPDATE audit SET payload = replace(payload, '10', '1000'), hash = NULL"
            " WHERE table_id = :t AND kind = 'announce'")  # fmt: skip
    if not lab.postgres:
        lab.sql("PRAGMA user_version = 2")
    for attempt in (lambda: Table.open(lab.location).bet("rouge", "impair à 5"),
                    lambda: upgrade(lab.location)):  # fmt: skip
        with contextlib.suppress(TableError):  # refused, as it must be
            attempt()


def _unkeyed_rewrite(lab: Lab) -> None:
    """A keyed table made unkeyed: its key check deleted, its opening said unkeyed, its
    whole chain recomputed with SHA-256."""
    lab.sql("DELETE FROM meta WHERE table_id = :t AND key = 'key_check'")
    lab.sql("UPDATE audit SET payload = replace(payload, '\"keyed\": true', '\"keyed\": false')"
            " WHERE table_id = :t AND kind = 'open'")  # fmt: skip
    lab.recompute(None)


def _rekeyed(lab: Lab) -> None:
    """A keyed table re-keyed with the insider's own key: key check and chain."""
    theirs = b"the insider's own key"
    uid = lab.sql("SELECT value FROM meta WHERE table_id = :t AND key = 'uid'")[0][0]
    lab.sql("UPDATE meta SET value = :v WHERE table_id = :t AND key = 'key_check'",
            v=key_check(theirs, uid))  # fmt: skip
    lab.recompute(theirs)


CASES = (
    Case("nothing changed (the control)", lambda lab: None, "nothing"),
    Case("an audit row edited", _edit_payload, "verify"),
    Case("an audit row deleted in the middle", _delete_middle, "verify"),
    Case("two audit rows swapped", _reorder, "verify"),
    Case("an audit row replaced by another, hash and all", _replace_row, "verify"),
    Case("a spin's winning number changed (state only)", _spin_number, "verify"),
    Case("an outcome's paid amount changed (state only)", _paid, "verify"),
    Case("the open bets multiplied by 100 (state only)", _open_bets_times_100, "verify"),
    Case("a round's spin and outcomes deleted (state only)", _delete_round, "verify"),
    Case("the table set closed (state only)", _closed, "verify"),
    Case("the last audit row deleted", _delete_last_row, "verify"),
    Case("every audit row deleted (truncated)", _delete_every_row, "verify"),
    Case("the tail cut: an older copy of the table put back", _cut_tail, "anchor"),
    Case("another table's audit chain in its place", _other_chain, "verify"),
    Case("the whole table replaced by another's", _whole_table, "anchor"),
    Case("a row edited, the whole chain recomputed (no key)", _forged_croupier(3, None), "anchor"),
    Case(
        "a row edited, the whole chain recomputed without the key",
        _forged_croupier(3, None),
        "verify",
        keyed=True,
    ),
    Case(
        "the last row edited, the chain recomputed (no key)",
        _forged_croupier(None, None),
        "inherent",
    ),
    Case(
        "the last row edited, the chain recomputed without the key",
        _forged_croupier(None, None),
        "verify",
        keyed=True,
    ),
    Case(
        "the key check deleted, a bet written without the key",
        _key_check_deleted,
        "verify",
        keyed=True,
    ),
    Case(
        "rows forged without hashes, then a bet and an upgrade with the key",
        _unhashed_then_upgraded,
        "verify",
        keyed=True,
    ),
    Case(
        "a keyed table rewritten unkeyed, chain and all",
        _unkeyed_rewrite,
        "anchor",
        keyed=True,
    ),
    Case(
        "a keyed table re-keyed with another key, chain and all",
        _rekeyed,
        "anchor",
        keyed=True,
    ),
)


def _sibling(location: str, name: str) -> str:
    """A new table beside ``location`` (another file, or another table of its database)."""
    if location.startswith("postgresql://"):
        return location.rsplit("=", 1)[0] + f"={name}-{uuid.uuid4().hex[:8]}"
    return str(Path(location).with_name(f"{name}-{uuid.uuid4().hex[:8]}.sqlite"))


def found_by(lab: Lab) -> str:
    """What finds the change: ``verify``, ``anchor``, ``key`` (only the key is refused:
    verify exits 2) or ``nothing``.  As ``table verify --head``: the heads are checked
    whatever the key."""
    with Table.open(lab.location, write=False) as t:
        try:
            if not t.verify().ok:
                return "verify"
            refused = False
        except AuditKeyError:
            refused = True
        if any(t.check_head(head) for head in lab.heads):
            return "anchor"
    return "key" if refused else "nothing"


def run_case(case: Case, location: str) -> str:
    """Play, tamper, and say what found it."""
    if case.keyed:
        os.environ[KEY_VARIABLE] = KEY
    try:
        lab = play(location)
        case.tamper(lab)
        return found_by(lab)
    finally:
        os.environ.pop(KEY_VARIABLE, None)


def run(places: dict[str, Callable[[str], str]]) -> list[tuple[str, str, str, str]]:
    """Every case on every backend: (backend, case, expected, found)."""
    out = []
    for backend, where in places.items():
        for i, case in enumerate(CASES):
            found = run_case(case, where(f"tamper{i}"))
            out.append((backend, case.name, case.expect, found))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--postgres", metavar="URL", help="a database with the callbets schema")
    args = ap.parse_args()
    os.environ.pop(KEY_VARIABLE, None)
    with tempfile.TemporaryDirectory() as folder:
        places: dict[str, Callable[[str], str]] = {
            "sqlite": lambda name: str(Path(folder) / f"{name}.sqlite")
        }
        if args.postgres:
            run_id = uuid.uuid4().hex[:8]
            places["postgresql"] = lambda name: f"{args.postgres}?table={name}-{run_id}"
        results = run(places)
    wrong = 0
    words = {"verify": "found by verify", "anchor": "found by the kept head",
             "key": "only the key refused", "nothing": "nothing found",
             "inherent": "inherent without a key"}  # fmt: skip
    for backend, name, expect, found in results:
        ok = found == expect or (expect == "inherent" and found == "nothing")
        wrong += not ok
        print(f"{backend:<10} {name:<62} {words[found]:<24} {'' if ok else 'UNEXPECTED'}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
