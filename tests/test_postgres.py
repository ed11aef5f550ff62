"""What only a PostgreSQL store has: many tables in one database, the schema made and
checked by version, two processes racing on one table, errors in a croupier's words.
(Everything a table does is tested on both backends by tests/test_store.py and others.)"""

from __future__ import annotations

import subprocess
import sys
import uuid
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import psycopg
import pytest

from callbets.table import Table, TableError, exists
from callbets.table.locations import upgrade
from callbets.table.postgres import split_url

from .conftest import ROOT


def cb(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "callbets", *args], capture_output=True,
                          text=True, cwd=ROOT)  # fmt: skip


@pytest.fixture
def empty_db(postgres_server: str) -> str:
    """A new database of the test server, with no schema."""
    name = f"empty_{uuid.uuid4().hex[:8]}"
    admin = postgres_server.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return postgres_server.rsplit("/", 1)[0] + f"/{name}"


def test_the_schema_is_made_by_db_upgrade_and_checked_at_every_open(empty_db: str):
    url = f"{empty_db}?table=T1"
    with pytest.raises(TableError, match="callbets db upgrade"):
        Table.create(url, "france", "fr")
    first = cb("db", "upgrade", empty_db)
    assert first.returncode == 0 and "schema 3 created" in first.stdout
    again = cb("db", "upgrade", empty_db)
    assert again.returncode == 0 and "already up to date" in again.stdout
    Table.create(url, "france", "fr").close_file()
    with psycopg.connect(empty_db, autocommit=True) as conn:
        conn.execute("UPDATE callbets_schema SET version = 99")
    with pytest.raises(TableError, match="newer callbets"):
        Table.open(url)
    proc = cb("table", "--table", url, "show")
    assert proc.returncode == 1 and "newer callbets" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_another_applications_tables_are_not_taken_for_ours(empty_db: str):
    with psycopg.connect(empty_db, autocommit=True) as conn:
        conn.execute("CREATE TABLE audit (x int)")
    with pytest.raises(TableError, match="other tables"):
        upgrade(empty_db)


def test_many_tables_in_one_database_keep_their_own_numbers_and_chains(postgres_server: str):
    run = uuid.uuid4().hex[:6]
    tables = [Table.create(f"{postgres_server}?table=T{i}-{run}", "venice-french", "fr")
              for i in range(3)]  # fmt: skip
    for i, t in enumerate(tables):
        t.add_player("rouge")
        for _ in range(i + 1):
            t.bet("rouge", "voisins du zéro à 5")
    assert [t.pending() for t in tables] == [[], [], []]
    assert [len(t.open_bets()) for t in tables] == [7, 14, 21]
    assert [t.state()["staked"] for t in tables] == [45, 90, 135]
    assert [t.announcement(1)[0] for t in tables] == ["rouge"] * 3  # each table's own #1
    for t in tables:
        t.close()
        t.spin(26)
        check = t.verify()
        assert check.ok and check.chain.rows == 1 + 1 + (tables.index(t) + 1) * 2 + 1 + 2
    with pytest.raises(TableError, match="no table"):
        Table.open(f"{postgres_server}?table=nowhere-{run}")
    assert not exists(f"{postgres_server}?table=nowhere-{run}")
    assert exists(f"{postgres_server}?table=T0-{run}")


def test_a_second_table_of_the_same_name_is_refused(where):
    location = where("twice")
    Table.create(location, "france", "fr").close_file()
    with pytest.raises(TableError, match="already exists"):
        Table.create(location, "france", "fr")


def _race_spin(location: str) -> str:
    t = Table.open(location)
    try:
        return f"paid {t.spin(26).settlement.returned()}"
    except TableError as err:
        return f"refused {err}"


def _race_bet(location: str) -> str:
    t = Table.open(location)
    aid, _ = t.bet("rouge", "voisins du zéro à 5", key="croupier-7")
    return str(aid)


@pytest.mark.parametrize("backend", ["postgresql", "sqlite"], indirect=True)
def test_two_processes_racing_settle_a_spin_once_and_place_a_bet_once(where):
    location = where("race")
    t = Table.create(location, "venice-french", "fr")
    t.add_player("rouge")
    with ProcessPoolExecutor(4) as pool:
        ids = list(pool.map(_race_bet, [location] * 8))
    assert len(set(ids)) == 1 and len(t.open_bets()) == 7  # one bet, whoever came first
    t.close()
    with ProcessPoolExecutor(4) as pool:
        results = list(pool.map(_race_spin, [location] * 8))
    assert sum(r.startswith("paid 90") for r in results) == 1, results
    assert all("betting is still open" in r for r in results if r.startswith("refused")), results
    assert t.round == 2 and t.verify().ok


def test_errors_in_a_croupiers_words(postgres_server: str):
    host = postgres_server.split("@", 1)[1].split("/", 1)[0]
    dead = "postgresql://callbets@127.0.0.1:1/casino?table=T1"
    proc = cb("table", "--table", dead, "show")
    assert proc.returncode == 1 and "cannot reach the database" in proc.stderr
    assert "Traceback" not in proc.stderr
    with pytest.raises(TableError, match="name the table"):
        Table.open(postgres_server)
    for bad in ("a:b", "../etc", "x" * 41, "T 12"):
        with pytest.raises(TableError, match="cannot name a table"):
            Table.open(f"{postgres_server}?table={bad}")
    assert host


def test_the_label_never_shows_the_password():
    conn, table, label = split_url(
        "postgresql://pit:s3cret@db:5433/floor?table=T12&sslmode=require"
    )
    assert "s3cret" not in label and label == "postgresql://pit@db:5433/floor?table=T12"
    assert table == "T12" and "table=" not in conn and "sslmode=require" in conn


def test_read_only_opens_cannot_write(where):
    location = where("ro")
    Table.create(location, "france", "fr").close_file()
    t = Table.open(location, write=False)
    with pytest.raises(TableError, match="read-only"):
        t.add_player("rouge")


def test_backup_of_a_database_table_points_to_the_databases_tools(postgres_server, tmp_path):
    location = f"{postgres_server}?table=bk-{uuid.uuid4().hex[:6]}"
    Table.create(location, "france", "fr").close_file()
    proc = cb("table", "--table", location, "backup", str(tmp_path / "copy.sqlite"))
    assert proc.returncode == 1 and "pg_dump" in proc.stderr


@pytest.mark.parametrize(
    ("sql", "first_bad"),
    [("UPDATE audit SET payload = '{}' WHERE table_id = %s AND id = 3", 3),
     ("DELETE FROM audit WHERE table_id = %s AND id = 4", 5),
     ("UPDATE audit SET id = id + 100 WHERE table_id = %s AND id = 2", 3)],
)  # fmt: skip
def test_tampering_by_someone_with_the_databases_keys_is_found(postgres_server, sql, first_bad):
    name = f"tamper-{uuid.uuid4().hex[:6]}"
    t = Table.create(f"{postgres_server}?table={name}", "venice-french", "fr")
    t.add_player("rouge")
    t.bet("rouge", "voisins du zéro à 5")
    t.close()
    t.spin(26)
    assert t.verify().ok
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute("ALTER TABLE audit DISABLE TRIGGER audit_no_change")
        try:
            conn.execute(sql, (name,))
        finally:
            conn.execute("ALTER TABLE audit ENABLE TRIGGER audit_no_change")
    found = t.verify()
    assert not found.ok and found.chain.first_bad == first_bad


def test_a_lost_connection_fails_one_action_and_the_next_goes_through(postgres_server):
    t = Table.create(f"{postgres_server}?table=lost-{uuid.uuid4().hex[:6]}", "france", "fr")
    t.add_player("rouge")
    pid = t.store.conn.info.backend_pid  # type: ignore[attr-defined]
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    with pytest.raises(TableError):
        t.bet("rouge", "rouge à 10")
    t.bet("rouge", "rouge à 10")
    assert t.state()["staked"] == 10 and t.verify().ok


def test_a_table_held_by_a_hung_terminal_is_said_to_be_busy(postgres_server, monkeypatch):
    from callbets.table import postgres

    monkeypatch.setattr(postgres, "LOCK_WAIT_S", 1)
    location = f"{postgres_server}?table=busy-{uuid.uuid4().hex[:6]}"
    t = Table.create(location, "venice-french", "fr")
    t.add_player("rouge")
    hung = Table.open(location)
    # a terminal stopped inside a transaction
    with hung.store.transaction(), pytest.raises(TableError, match="in use by another terminal"):
        t.bet("rouge", "rouge à 10")
    t.bet("rouge", "rouge à 10")  # free again once it ends
    assert t.state()["staked"] == 10


def test_a_floor_keeps_one_read_only_connection_per_thread_and_database(postgres_server: str):
    """``kept=True``: the tables of a database are read on one connection the thread keeps
    open (a floor opens them every 2 s), read-only; another thread has its own; a lost one
    fails one look and the next look reads on a new one."""
    run = uuid.uuid4().hex[:6]
    a, b = (f"{postgres_server}?table=kept-{run}-{n}" for n in "ab")
    for location in (a, b):
        Table.create(location, "france", "fr").add_player("rouge")

    def backend(location: str) -> int:
        with Table.open(location, write=False, kept=True) as t:
            assert t.players() == ["rouge"]
            return int(t.store.conn.info.backend_pid)  # type: ignore[attr-defined]

    first = backend(a)
    assert backend(b) == first == backend(a)  # one connection, still open after each
    with ThreadPoolExecutor(1) as other:
        assert other.submit(backend, a).result() != first
    with Table.open(a, write=False) as t:  # not kept: a connection of its own
        assert t.store.conn.info.backend_pid != first  # type: ignore[attr-defined]
    with Table.open(a, write=False, kept=True) as t, pytest.raises(TableError):
        t.add_player("noir")  # read-only
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (first,))
    with pytest.raises(TableError), Table.open(a, write=False, kept=True) as t:
        t.players()  # the loss is met once
    assert backend(a) != first  # then a new connection
