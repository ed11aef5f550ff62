"""Tamper evidence and retries: the audit chain shows an edit, a deletion, a reordering and a
replaced row; a bet retried after a SIGKILL is placed once; older files are upgraded."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from callbets.errors import AuditKeyError
from callbets.table import Table, TableError
from callbets.table.chain import KEY_VARIABLE

from .conftest import ROOT


@pytest.fixture
def played(tmp_path: Path) -> Path:
    """A table with an evening's worth of audit rows."""
    path = tmp_path / "t.sqlite"
    t = Table.create(path, "venice-french", "fr")
    t.add_player("rouge")
    t.bet("rouge", "voisins du zéro à 5")
    t.bet("rouge", "rouge à 10")
    t.close()
    t.spin(26)
    t.bet("rouge", "tiers à 2")
    t.close_file()
    return path


def tamper(path: Path, *sql: str) -> None:
    """What someone with the file and an SQLite shell can do: drop the triggers, edit."""
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER IF EXISTS audit_no_update")
    db.execute("DROP TRIGGER IF EXISTS audit_no_delete")
    for statement in sql:
        db.execute(statement)
    db.commit()
    db.close()


def verdict(path: Path) -> tuple[bool, int | None, tuple[str, ...]]:
    found = Table.open(path, write=False).verify()
    return found.ok, found.chain.first_bad, found.problems


def test_an_untouched_table_verifies(played: Path) -> None:
    ok, first_bad, problems = verdict(played)
    assert ok and first_bad is None and problems == ()
    proc = subprocess.run([sys.executable, "-m", "callbets", "table", "--table", str(played),
                           "verify"], capture_output=True, text=True)  # fmt: skip
    assert proc.returncode == 0 and "chaque ligne se vérifie (11)" in proc.stdout
    assert "celui que donne le journal rejoué" in proc.stdout  # the state proved


@pytest.mark.parametrize(
    ("sql", "first_bad"),
    [
        (["UPDATE audit SET payload = replace(payload, 'voisins', 'tiers') WHERE id = 4"],
         4),  # an edit
        (["DELETE FROM audit WHERE id = 3"], 4),  # a deletion: row 4 follows row 2
        (["UPDATE audit SET id = 100 WHERE id = 3", "UPDATE audit SET id = 3 WHERE id = 5",
          "UPDATE audit SET id = 5 WHERE id = 100"], 3),  # a reordering
        (["INSERT OR REPLACE INTO audit (id, ts, kind, payload, hash) SELECT id, ts, kind,"
          " '{\"player\": \"vert\"}', hash FROM audit WHERE id = 2"], 2),  # a replaced row
    ],
    ids=["edit", "deletion", "reordering", "replaced"],
)  # fmt: skip
def test_every_kind_of_tampering_is_found(played: Path, sql: list[str], first_bad: int) -> None:
    tamper(played, *sql)
    ok, bad, _ = verdict(played)
    assert not ok and bad == first_bad


def test_a_recomputed_chain_is_caught_by_the_key(played: Path, monkeypatch) -> None:
    """Without the key, someone who edits a row and recomputes every hash after it leaves a
    chain that verifies as plain SHA-256 but not as the casino's HMAC."""
    monkeypatch.setenv(KEY_VARIABLE, "the casino's secret")
    keyed = played.with_name("keyed.sqlite")
    t = Table.create(keyed, "venice-french", "fr")
    t.add_player("rouge")
    t.bet("rouge", "rouge à 10")
    t.close_file()
    assert verdict(keyed)[0]
    from callbets.table.chain import genesis, row_hash

    db = sqlite3.connect(keyed)
    db.execute("DROP TRIGGER audit_no_update")
    db.execute("UPDATE audit SET payload = replace(payload, '10', '1000')")
    (uid,) = db.execute("SELECT value FROM meta WHERE key = 'uid'").fetchone()
    previous = genesis(uid)
    for seq, ts, kind, payload in db.execute("SELECT id, ts, kind, payload FROM audit ORDER BY id"
                                             ).fetchall():  # fmt: skip
        previous = row_hash(previous, seq, ts, kind, payload, None)  # no key
        db.execute("UPDATE audit SET hash = ? WHERE id = ?", (previous, seq))
    db.commit()
    db.close()
    assert not verdict(keyed)[0]
    monkeypatch.delenv(KEY_VARIABLE)
    with pytest.raises(AuditKeyError):  # a keyed table is never verified without its key
        verdict(keyed)
    db = sqlite3.connect(keyed)  # nor is it, once its key check is deleted, unkeyed
    db.execute("DELETE FROM meta WHERE key = 'key_check'")
    db.commit()
    db.close()
    assert verdict(keyed)[0] is False


def test_the_books_are_checked_too(played: Path) -> None:
    db = sqlite3.connect(played)
    db.execute("UPDATE bets SET amount = 50 WHERE id = (SELECT min(id) FROM bets)")
    db.commit()
    db.close()
    ok, bad, problems = verdict(played)
    assert not ok and bad is None
    assert any("announcement 1" in p for p in problems)
    assert any("spin of round 1" in p for p in problems)


def one_bet(path: Path) -> None:
    """A new table with one player and one bet."""
    t = Table.create(path, "venice-french", "fr")
    t.add_player("rouge")
    t.bet("rouge", "rouge à 10")
    t.close_file()


def made_before_the_chain(path: Path) -> None:
    """Make a table file look as version 1 made it: no hashes, no identity, no
    idempotency keys, no application id."""
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER audit_no_update")
    db.execute("ALTER TABLE audit DROP COLUMN hash")
    db.execute("DELETE FROM meta WHERE key IN ('uid', 'key_check')")
    db.execute("UPDATE audit SET payload = json_remove(payload, '$.uid', '$.keyed')"
               " WHERE kind = 'open'")  # fmt: skip
    db.execute("DROP INDEX one_announcement_per_key")
    db.execute("ALTER TABLE announcements DROP COLUMN idem")
    db.execute("PRAGMA application_id = 0")
    db.execute("PRAGMA user_version = 0")
    db.commit()
    db.close()


def db_upgrade(path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "callbets", "db", "upgrade", str(path)],
                          capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, **env})  # fmt: skip


def test_an_older_table_is_chained_only_by_db_upgrade_which_says_so(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    one_bet(path)
    made_before_the_chain(path)
    before = path.read_bytes()
    with pytest.raises(TableError, match="callbets db upgrade"):
        Table.open(path)  # an ordinary command writes nothing, chains nothing
    assert path.read_bytes() == before
    proc = db_upgrade(path)
    assert proc.returncode == 0 and "schema 1 upgraded to 3" in proc.stdout, proc.stderr
    t = Table.open(path)
    t.bet("rouge", "noir à 5", key="k1")
    assert t.verify().ok
    assert sqlite3.connect(path).execute("PRAGMA application_id").fetchone()[0] != 0
    verify = subprocess.run([sys.executable, "-m", "callbets", "table", "--table", str(path),
                             "verify"], capture_output=True, text=True)  # fmt: skip
    assert verify.returncode == 0  # the upgrade is recorded, and said
    assert "chaînées par « db upgrade »" in verify.stdout and "(4)" in verify.stdout


def test_forged_rows_without_hashes_are_never_signed_by_an_upgrade(
    tmp_path: Path, monkeypatch
) -> None:
    """Forged rows, their hashes set to NULL and the file said to be of version 2: the
    croupier's next command with the key refuses to write, ``db upgrade`` refuses to
    chain them, and verify with the key names them (issue 41, finding 1)."""
    monkeypatch.setenv(KEY_VARIABLE, "the pit boss's key")
    path = tmp_path / "keyed.sqlite"
    one_bet(path)
    tamper(path, "UPDATE audit SET payload = replace(payload, '10', '1000'), hash = NULL"
                 " WHERE kind = 'announce'", "UPDATE bets SET amount = 1000",
           "UPDATE announcements SET total = 1000", "PRAGMA user_version = 2")  # fmt: skip
    with pytest.raises(TableError, match="callbets db upgrade"):
        Table.open(path).bet("rouge", "noir à 5")
    proc = db_upgrade(path)
    assert proc.returncode == 1 and "3 have no hash" in proc.stderr  # row 3: the announce
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 2
    verify = subprocess.run([sys.executable, "-m", "callbets", "table", "--table", str(path),
                             "verify"], capture_output=True, text=True)  # fmt: skip
    assert verify.returncode == 1 and "ROMPUE à la ligne 3" in verify.stdout


def test_a_row_without_a_hash_at_the_end_of_the_chain_is_never_chained_on(played: Path) -> None:
    tamper(played, "UPDATE audit SET hash = NULL WHERE id = (SELECT max(id) FROM audit)")
    t = Table.open(played)
    with pytest.raises(TableError, match="has no hash"):
        t.bet("rouge", "noir à 5")
    assert not t.verify().ok


# ---- a retried bet is placed once -----------------------------------------------------------
CHILD = """
import sys, time
from pathlib import Path
from callbets.table import Table
t = Table.open(Path(sys.argv[1]))
t.bet("rouge", "voisins du zéro à 5", key="croupier-42")
print("COMMITTED", flush=True)   # killed here: after the commit, before any output
time.sleep(60)
"""


def test_a_bet_killed_after_commit_and_retried_is_placed_once(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    t = Table.create(path, "venice-french", "fr")
    t.add_player("rouge")
    t.close_file()
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE,
                             text=True, cwd=ROOT)  # fmt: skip
    assert child.stdout is not None and child.stdout.readline().strip() == "COMMITTED"
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    child.stdout.close()
    for _ in range(2):  # the croupier retries, twice
        proc = subprocess.run(
            [sys.executable, "-m", "callbets", "table", "--table", str(path), "bet", "rouge",
             "voisins du zéro à 5", "--id", "croupier-42"], capture_output=True, text=True,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
    state = Table.open(path, write=False).state()
    assert state["staked"] == 45
    other = subprocess.run(
        [sys.executable, "-m", "callbets", "table", "--table", str(path), "bet", "rouge",
         "tiers à 5", "--id", "croupier-42"], capture_output=True, text=True,
    )  # fmt: skip
    assert other.returncode == 1 and "a déjà servi pour une autre annonce" in other.stderr


def test_confirming_twice_places_once(tmp_path: Path) -> None:
    t = Table.create(tmp_path / "t.sqlite", "venice-french", "fr")
    t.add_player("rouge")
    aid, _ = t.announce("rouge", "tiers à 2")
    t.confirm(aid)
    t.confirm(aid)
    assert t.state()["staked"] == 12
    time.sleep(0)


def test_a_version_2_file_is_upgraded_by_db_upgrade_and_keeps_its_chain(tmp_path: Path) -> None:
    path = tmp_path / "v2.sqlite"
    one_bet(path)
    db = sqlite3.connect(path)  # as version 2 made it: no table_id anywhere
    for index in ("announcements_by_table", "bets_by_table", "open_bets",
                  "announcements_by_status"):  # fmt: skip
        db.execute(f"DROP INDEX {index}")
    for table in ("meta", "players", "announcements", "bets", "spins", "outcomes", "audit"):
        db.execute(f"ALTER TABLE {table} DROP COLUMN table_id")
    db.execute("CREATE INDEX open_bets ON bets(id) WHERE status = 'open'")
    db.execute("PRAGMA user_version = 2")
    db.commit()
    db.close()
    proc = subprocess.run([sys.executable, "-m", "callbets", "db", "upgrade", str(path)],
                          capture_output=True, text=True, cwd=ROOT)  # fmt: skip
    assert proc.returncode == 0 and "schema 2 upgraded to 3" in proc.stdout
    t = Table.open(path)
    assert t.verify().ok  # the old rows' hashes were kept, not recomputed
    t.bet("rouge", "noir à 5")
    assert t.state()["staked"] == 15 and t.verify().ok
    newer = sqlite3.connect(path)
    newer.execute("PRAGMA user_version = 9")
    newer.commit()
    newer.close()
    with pytest.raises(TableError, match="newer callbets"):
        Table.open(path)
