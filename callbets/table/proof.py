"""The table's state proved from its audit log: every audited action replayed, in order,
on an empty table in memory through the same code (the settlement included), and the
state it gives compared field by field with the state stored beside the audit.

The audit log is the table's history; the state tables (players, announcements, bets,
spins, outcomes, the round and whether betting is open) are what the next action reads.
An insider who changes the state without the audit (a spin's number, a bet's amount, a
deleted round) leaves a state the history does not give: :func:`prove` names each
difference (which round, which bet, which field, both values), in the table's language.

What the replay takes from the audit: who sat down, each announcement as it was read back
(its notation, not its words parsed again: a later grammar cannot change a past bet),
each confirmation, cancellation, undo, clear, close, spin (with the croupier's zero
choices and whether it was the last) and replay (an upgrade of the file changes no
state).  What it cannot know is left out of the
comparison: timestamps, idempotency keys, and the language of announcements audited
before their language was.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ..errors import CallbetsError
from ..messages import Said, said
from ..roulette.announcement import parse_notation
from .replays import Replaying
from .sqlite import SCHEMA, SqliteStore
from .store import Row, Store

MOST_DIFFERENCES = 20
"""Differences named before the rest are only counted (one change can cascade)."""


class Rebuilt(Replaying):
    """A table in memory, rebuilt from another table's audit rows."""

    @classmethod
    def empty(cls, meta: dict[str, str]) -> Rebuilt:
        """A new table in memory with the header (house profile, language) of the table
        being proved, at round 1, open."""
        db = sqlite3.connect(":memory:", isolation_level=None)
        db.executescript(SCHEMA)
        store = SqliteStore(db, Path(":memory:"), True)
        header = {k: v for k, v in meta.items() if k != "key_check"}
        header.update(state="open", round="1")
        store.many(
            "INSERT INTO meta (table_id, key, value) VALUES (:t, :key, :value)",
            [{"key": k, "value": v} for k, v in header.items()],
        )
        table = cls(store)
        table.who["croupier"] = "verify"  # houses that require a croupier's name
        table.header = dict(meta)
        return table

    header: dict[str, str]
    """The header of the table being proved."""

    def _audit_key(self) -> bytes | None:
        return None  # the rebuilt table's own audit is not kept

    def replay_announce(self, event: dict[str, Any]) -> int:
        """An announcement as it was read back (its notation), waiting to be confirmed."""
        announcement = parse_notation(str(event["notation"]), self.house)
        picked = bool(event.get("picked"))
        with self._transaction():
            self._need_open()
            self._need_player(str(event["player"]))
            return self._insert_announcement(
                str(event["player"]),
                announcement.notation() if picked else str(event["text"]),
                str(event.get("lang") or self.lang),
                announcement,
                "pending",
                origin=f"reading:{str(event['text'])[:200]}" if picked else None,
            )


def prove(store: Store, meta: dict[str, str]) -> tuple[Said, ...]:
    """Replay ``store``'s audit log on an empty table with the header ``meta`` and compare
    the two states; every difference, first one first (empty when the state is the one
    its audit gives)."""
    rebuilt = Rebuilt.empty(meta)
    found = list(_replay(rebuilt, store.audit_rows()))
    if not found:
        found += compare(store, rebuilt.store)
    rebuilt.close_file()
    if len(found) > MOST_DIFFERENCES:
        more = len(found) - MOST_DIFFERENCES
        found = [*found[:MOST_DIFFERENCES], said("proof_more", count=more)]
    return tuple(found)


def _replay(table: Rebuilt, rows: Iterable[Row]) -> Iterable[Said]:
    """Replay each audit row on ``table``; stop at the first that cannot be, or whose
    replay differs from what it records (what follows would only repeat it)."""
    spun: dict[str, Any] = {}
    for seq, _ts, kind, payload, _hash in rows:
        try:
            event = json.loads(payload)
            if not isinstance(event, dict):
                raise ValueError(payload)
        except ValueError:
            yield said("proof_unreadable", seq=seq, kind=_event(kind))
            return
        if kind == "spin":  # its settlement, the next row, is replayed
            spun = event
            continue
        step = STEPS.get(str(kind))
        if step is None:
            yield said("proof_unknown", seq=seq, kind=kind)
            return
        try:
            wrong = step(table, event) or _same_number(kind, spun, event)
        except (CallbetsError, KeyError, TypeError, ValueError) as err:
            yield said("proof_not_replayed", seq=seq, kind=_event(kind), reason=_reason(err))
            return
        if wrong is not None:
            name, recorded, replayed = wrong
            yield said("proof_field", seq=seq, kind=_event(kind), field=said(f"field_{name}"),
                       audit=recorded, replayed=replayed)  # fmt: skip
            return


def _event(kind: object) -> object:
    """An audit row's kind in words (as stored when it is not one callbets writes)."""
    return said(f"event_{kind}") if kind in STEPS or kind == "spin" else kind


def _reason(err: Exception) -> object:
    return getattr(err, "message", None) or err


Mismatch = tuple[str, object, object]
"""A field an audit row records, and what its replay gives instead."""
Step = Callable[["Rebuilt", dict[str, Any]], Mismatch | None]


def _expect(name: str, recorded: object, replayed: object) -> Mismatch | None:
    return None if recorded == replayed else (name, recorded, replayed)


def _same_number(kind: str, spun: dict[str, Any], event: dict[str, Any]) -> Mismatch | None:
    """A settlement is of the number its spin row names."""
    if kind != "settlement":
        return None
    return _expect("number", spun.get("number"), event.get("spin"))


def _open(table: Rebuilt, event: dict[str, Any]) -> Mismatch | None:
    """The table opened is this one: its house, language, identity and key."""
    header = table.header
    return (
        _expect("house", event.get("house"), table.house.name)
        or _expect("lang", event.get("lang"), table.lang)
        or _expect("uid", event.get("uid"), header.get("uid"))
        or _expect("keyed", event.get("keyed", "key_check" in header), "key_check" in header)
    )


def _player(table: Rebuilt, event: dict[str, Any]) -> Mismatch | None:
    table.add_player(str(event["name"]))
    return None


def _announce(table: Rebuilt, event: dict[str, Any]) -> Mismatch | None:
    return _expect("id", event["announcement"], table.replay_announce(event))


def _confirm(table: Rebuilt, event: dict[str, Any]) -> Mismatch | None:
    placed = table.confirm(int(event["announcement"])).notation()
    return _expect("notation", event.get("notation"), placed)


def _cancel(table: Rebuilt, event: dict[str, Any]) -> Mismatch | None:
    table.cancel(int(event["announcement"]))
    return None


def _undo(table: Rebuilt, event: dict[str, Any]) -> Mismatch | None:
    return _expect("id", event["announcement"], table.undo())


def _clear(table: Rebuilt, event: dict[str, Any]) -> Mismatch | None:
    return _expect("bets", event.get("bets"), table.clear(str(event["player"])))


def _close(table: Rebuilt, event: dict[str, Any]) -> Mismatch | None:
    return _expect("pending", event.get("pending_dropped"), len(table.close()))


def _settlement(table: Rebuilt, event: dict[str, Any]) -> Mismatch | None:
    report = table.spin(int(event["spin"]), None, event.get("choices") or {},
                        bool(event.get("last_spin")))  # fmt: skip
    again = {**report.to_json(), "choices": event.get("choices") or {},
             "last_spin": bool(event.get("last_spin"))}  # fmt: skip
    for name in ("round", "staked", "returned", "net", "prison"):
        wrong = _expect(name, event.get(name), again[name])
        if wrong is not None:
            return wrong
    return _expect("outcomes", event.get("outcomes"), again["outcomes"])


def _replayed(table: Rebuilt, event: dict[str, Any]) -> Mismatch | None:
    aid, kind, call = int(event["announcement"]), str(event["replay"]), int(event["call"])
    if event.get("pending"):  # read back in the console, confirmed or dropped after
        done = table.replay_pending(aid, kind, call)[1]
    else:
        done = table.replay(aid, kind, call)
    return _expect("placed", event.get("placed"), done.placed.notation())


STEPS: dict[str, Step] = {
    "open": _open,
    "player": _player,
    "announce": _announce,
    "refused": lambda table, event: None,  # recorded, never on the layout
    "confirm": _confirm,
    "cancel": _cancel,
    "undo": _undo,
    "clear": _clear,
    "close": _close,
    "settlement": _settlement,
    "replay": _replayed,
    "upgrade": lambda table, event: None,  # the schema brought up to date (db upgrade)
}
"""How each kind of audit row is replayed (``spin`` rows go with the next
``settlement``)."""


# ---- the two states side by side ---------------------------------------------------

SNAPSHOTS: dict[str, tuple[str, tuple[str, ...]]] = {
    # what: (the rows, keyed by their first columns; the fields compared)
    "player": ("SELECT name, name FROM players WHERE table_id = :t", ("name",)),
    "announcement": (
        "SELECT id, player, text, notation, total, round, status FROM announcements"
        " WHERE table_id = :t",
        ("player", "text", "notation", "total", "round", "status"),
    ),
    "bet": (
        "SELECT id, announcement, call_index, call, kind, numbers, amount, prison, round,"
        " status FROM bets WHERE table_id = :t",
        (
            "announcement",
            "call_index",
            "call",
            "kind",
            "numbers",
            "amount",
            "prison",
            "round",
            "status",
        ),
    ),
    "spin": ("SELECT round, number, report FROM spins WHERE table_id = :t", ("number", "report")),
    "outcome": (
        "SELECT bet, round, result, paid, returned FROM outcomes WHERE table_id = :t",
        ("round", "result", "paid", "returned"),
    ),
}
"""What is compared, by the name of the thing in messages (``proof_<what>``)."""


def compare(stored: Store, rebuilt: Store) -> list[Said]:
    """Every field that differs between the stored state and the rebuilt one."""
    out: list[Said] = []
    for what, (sql, fields) in SNAPSHOTS.items():
        books, audit = _keyed(stored.rows(sql)), _keyed(rebuilt.rows(sql))
        for key in sorted(books.keys() | audit.keys(), key=str):
            thing = said(f"proof_{what}", id=key)
            if key not in audit:
                out.append(said("proof_only_in_books", what=thing))
            elif key not in books:
                out.append(said("proof_only_in_audit", what=thing))
            else:
                out += _fields(thing, fields, books[key], audit[key])
    sql = "SELECT value FROM meta WHERE table_id = :t AND key = :key"
    for key in ("round", "state"):
        books_value, audit_value = stored.value(sql, key=key), rebuilt.value(sql, key=key)
        if books_value != audit_value:
            out.append(said("proof_differs", what=said("proof_table"), field=said(f"field_{key}"),
                            books=books_value, audit=audit_value))  # fmt: skip
    return out


def _keyed(rows: list[Row]) -> dict[object, Row]:
    return {row[0]: tuple(_plain(v) for v in row[1:]) for row in rows}


def _plain(value: object) -> object:
    """A stored value as compared: a JSON report as data (its key order aside)."""
    if isinstance(value, str) and value.startswith("{"):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _fields(thing: Said, fields: tuple[str, ...], books: Row, audit: Row) -> list[Said]:
    return [
        said(
            "proof_differs",
            what=thing,
            field=said(f"field_{name}"),
            books=_shown(b),
            audit=_shown(a),
        )
        for name, b, a in zip(fields, books, audit, strict=True)
        if b != a
    ]


STATUSES = frozenset(
    {"pending", "confirmed", "cancelled", "undone", "cleared", "open", "closed", "ended",
     "settled", "removed"}
)  # fmt: skip
"""Stored statuses, said in words (``status_<status>``)."""


def _shown(value: object) -> object:
    """A value for a message: a status in words, a report by its totals."""
    if isinstance(value, str) and value in STATUSES:
        return said(f"status_{value}")
    if isinstance(value, dict):
        return ", ".join(f"{k} {value[k]}" for k in ("staked", "returned", "net") if k in value)
    return value
