"""The table's doors (issue 22): whatever reaches ``callbets table``, ``db`` and ``floor``
(huge numbers, a malformed URL, escape sequences, a password, a key used again, a
database lost mid-commit, a damaged row) ends in one clear line, never a traceback, on
both backends, and nothing reaches the terminal raw."""

from __future__ import annotations

import contextlib
import io
import json
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from callbets.errors import OutcomeUnknown
from callbets.language.grammar import LANGUAGES
from callbets.messages import say_in
from callbets.table import Table

from .conftest import ROOT, Where

BIG = str(2**63)
SECRET = "s3cr3t-Pa55"


USAGE = tuple(say_in(lang, "usage_word") for lang in LANGUAGES)
"""argparse's usage line begins so, in each language."""


def cb(*args: str, log: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    first = ["--log", str(log), "-v"] if log else []
    return subprocess.run([sys.executable, "-m", "callbets", *first, *args],
                          capture_output=True, cwd=ROOT, timeout=60)  # fmt: skip


def one_line(proc: subprocess.CompletedProcess[bytes]) -> str:
    """The one line said on stderr (argparse's usage before it aside); nothing raw."""
    err = proc.stderr.decode("utf-8")
    assert "Traceback" not in err and "unexpected error" not in err, err
    lines = [ln for ln in err.strip().splitlines() if not ln.startswith((" ", *USAGE))]
    assert len(lines) == 1, err
    raw(proc)
    return lines[0]


def raw(proc: subprocess.CompletedProcess[bytes]) -> None:
    """No control character but line breaks reaches the terminal."""
    for stream in (proc.stdout, proc.stderr):
        text = stream.decode("utf-8")
        assert all(c in "\n\t" or c.isprintable() or c.isspace() for c in text), text


@contextlib.contextmanager
def database(location: str) -> Iterator[tuple[Any, bool]]:
    """A connection straight to a table's database (someone with its keys), for
    damaging rows by hand, and whether it is PostgreSQL."""
    if "://" not in location:
        db = sqlite3.connect(location, isolation_level=None)
        db.execute("DROP TRIGGER IF EXISTS audit_no_update")
        try:
            yield db, False
        finally:
            db.close()
        return
    import psycopg

    with psycopg.connect(location.split("?")[0], autocommit=True) as conn:
        yield conn, True


def table_id(location: str) -> str:
    return location.rsplit("table=", 1)[-1] if "://" in location else ""


def damage(location: str, sql: str, value: str = "") -> None:
    """Run ``sql`` with ``{t}`` standing for the table's id and ``{v}`` for ``value``."""
    with database(location) as (db, postgres):
        marks = {"t": "%(t)s", "v": "%(v)s"} if postgres else {"t": ":t", "v": ":v"}
        db.execute(sql.format(**marks), {"t": table_id(location), "v": value})


@pytest.fixture
def seated(where: Where) -> str:
    location = where("doors")
    with Table.create(location, "venice-french", "fr") as t:
        t.add_player("rouge")
    return location


# ---- 1. huge integers ------------------------------------------------------------------
@pytest.mark.parametrize(
    "args",
    [["confirm", BIG], ["cancel", "9" * 30], ["confirm", "-" + BIG], ["replay", BIG, "tout"],
     ["replay", f"1.{BIG}", "refaire"], ["spin", "0", "--round", BIG],
     ["spin", "0", "--round", str(2**31)], ["spin", BIG], ["spin", "0", "--choice", f"{BIG}=half"]],
    ids=["confirm", "cancel", "negative", "replay", "call", "round", "round32", "number", "choice"],
)  # fmt: skip
def test_huge_integers_are_refused_at_the_door(seated: str, args: list[str]) -> None:
    if args[0] == "spin":
        assert cb("table", "--table", seated, "close").returncode == 0
    proc = cb("table", "--table", seated, *args)
    said = one_line(proc)  # the range asked for, in the table's words (French here)
    assert proc.returncode == 2 and (" de " in said or " from " in said), said
    assert Table.open(seated).round == 1


# ---- 2. a malformed URL ------------------------------------------------------------------
MALFORMED = [
    "postgresql://[::1",
    f"postgresql://pit:{SECRET}@[::1/casino?table=T1",
    "postgresql://db.casino:99999/casino?table=T1",
    f"postgresql://pit:{SECRET}@db.casino:port/casino?table=T1",
    "postgresql://127.0.0.1/casino%zz?table=T1",
    f"postgresql://pit:%zz{SECRET}@127.0.0.1/casino?table=T1",
    "postgresql://127.0.0.1/casino?table=T1&nonsense=1",
]


@pytest.mark.parametrize("url", MALFORMED)
def test_a_malformed_url_is_one_line_and_exit_2(url: str) -> None:
    for command in (["table", "--table", url, "show"], ["table", "--table", url, "open"],
                    ["db", "upgrade", url]):  # fmt: skip
        proc = cb(*command)
        said = one_line(proc)
        french = "n'est pas une URL de base de données"  # 'open' speaks its --lang (fr)
        assert proc.returncode == 2 and ("not a database URL" in said or french in said), said
        assert SECRET not in said
    floor = cb("floor", "--table", url, "--json")
    (view,) = json.loads(floor.stdout)["tables"]
    assert "not a database URL" in view["error"] and SECRET not in floor.stdout.decode()


# ---- 3. escape sequences -----------------------------------------------------------------
HOSTILE = "\x1b[2J\x1b]0;pwned\x07\x9b31m\u202e"


def test_escape_sequences_never_reach_the_terminal(where: Where, tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    profile = (ROOT / "callbets" / "houses" / "france.toml").read_text(encoding="utf-8")
    house.write_text(profile.replace('name = "france"', 'name = "fr\\u001b[2Jance"'))
    location = where("esc")
    if "://" not in location:  # a file's name is the user's to choose
        location = str(tmp_path / f"t{HOSTILE}.sqlite")
    opened = cb("table", "--table", location, "open", "--house", str(house))
    assert opened.returncode == 0 and b"\\x1b[2J" in opened.stdout
    raw(opened)
    refused = cb("table", "--table", location, "bet", f"bleu{HOSTILE}", "rouge à 5")
    assert refused.returncode == 1 and "\\x1b]0;pwned\\x07" in one_line(refused)
    cb("table", "--table", location, "player", "rouge")
    damage(location, "UPDATE players SET name = {v} WHERE table_id = {t}", f"r{HOSTILE}")
    payload = json.dumps({"by": {"croupier": f"c{HOSTILE}"}})
    damage(location, "INSERT INTO audit (table_id, id, ts, kind, payload, hash)"
                     " VALUES ({t}, 99, 'now', 'x', {v}, 'x')", payload)  # fmt: skip
    for args in (["show"], ["audit"], ["verify"]):
        proc = cb("table", "--table", location, *args)
        assert proc.returncode in (0, 1)
        raw(proc)
    show = cb("table", "--table", location, "show", "--json")
    raw(show)
    assert f"r{HOSTILE}" in json.loads(show.stdout)["players"]
    for line in cb("table", "--table", location, "audit").stdout.splitlines():
        json.loads(line)
    floor = cb("floor", "--table", location, "--once")
    raw(floor)
    assert b"c\\x1b[2J" in floor.stdout  # the croupier, shown as codes
    data = cb("floor", "--table", location, "--json")
    raw(data)
    assert json.loads(data.stdout)["tables"][0]["croupier"] == f"c{HOSTILE}"
    usage = cb("table", "--table", location, "replay", f"1{HOSTILE}", "tout")
    assert usage.returncode == 2
    one_line(usage)


def test_an_announcement_refused_is_shown_without_its_escapes(tmp_path: Path) -> None:
    for args in (["parse", f"cheval{HOSTILE} 5/9"], ["settle", "--spin", "3", f"x{HOSTILE}"],
                 ["parse", "--jsonl", str(tmp_path / f"no{HOSTILE}.txt")]):  # fmt: skip
        proc = cb(*args)
        assert proc.returncode == 1 and b"\\x1b" in proc.stderr, proc.stderr
        raw(proc)
    caret = cb("parse", "rouge \x1b[2J foo").stderr.decode().splitlines()
    assert caret[-2][caret[-1].index("^") :].startswith("\\x1b[2J")  # under it, as shown


# ---- 4. passwords --------------------------------------------------------------------
def test_a_password_is_never_shown_nor_logged(postgres_server: str, tmp_path: Path) -> None:
    parts = urlsplit(postgres_server)  # the test server trusts any password
    base = f"postgresql://{parts.username}:{SECRET}@{parts.hostname}:{parts.port}{parts.path}"
    log = tmp_path / "callbets.log"
    said = []
    for url in (f"{base}?table=pw-{tmp_path.name[-8:]}",
                f"{postgres_server}?password={SECRET}&table=pwq-{tmp_path.name[-8:]}"):  # fmt: skip
        for args in (["table", "--table", url, "open"], ["table", "--table", url, "player", "a"],
                     ["table", "--table", url, "show"], ["table", "--table", url, "open"],
                     ["table", "--table", url, "backup", str(tmp_path / "x")],
                     ["floor", "--table", url, "--json"], ["floor", "--table", url, "--once"],
                     ["floor", "--table", url.split("?")[0], "--json"],
                     ["db", "upgrade", url]):  # fmt: skip
            proc = cb(*args, log=log)
            said.append(proc.stdout + proc.stderr)
    for url in (f"postgresql://pit:{SECRET}@127.0.0.1:1/casino?table=T1",
                f"postgresql://pit@127.0.0.1:1/casino?table=T1&password={SECRET}",
                f"host=127.0.0.1 port=1 password={SECRET} dbname=casino",
                f"POSTGRESQL://pit:{SECRET}@127.0.0.1:1/casino?table=T1"):  # fmt: skip
        for args in (["table", "--table", url, "show"], ["floor", "--table", url, "--json"],
                     ["db", "upgrade", url]):  # fmt: skip
            proc = cb(*args, log=log)
            assert proc.returncode in ((0,) if "--json" in args else (1, 2))
            said.append(proc.stdout + proc.stderr)
    meant = f"host=db password={SECRET} dbname=casino"  # never taken for a file
    for args in (["open"], ["show"], ["player", "a"]):
        proc = cb("table", "--table", meant, *args, log=log)
        told = one_line(proc)  # 'open' speaks its --lang (fr), the others English
        assert proc.returncode == 2 and (
            "connection string" in told or "chaîne de connexion" in told
        )
        said.append(proc.stdout + proc.stderr)
    assert not (ROOT / meant).exists()
    assert all(SECRET.encode() not in s for s in said)
    assert SECRET not in log.read_text(encoding="utf-8")
    assert "***" in log.read_text(encoding="utf-8")  # the command line, logged without it


# ---- 5. a key used again -------------------------------------------------------------------
def test_a_key_used_in_a_settled_round_is_refused(seated: str) -> None:
    bet = ["table", "--table", seated, "bet", "--id", "rouge-1", "rouge", "17 en plein à 10"]
    first, again = cb(*bet), cb(*bet)
    assert first.returncode == again.returncode == 0 and first.stdout == again.stdout
    assert cb("table", "--table", seated, "close").returncode == 0
    assert cb("table", "--table", seated, "spin", "3").returncode == 0
    later = cb(*bet)
    said = one_line(later)
    assert later.returncode == 2 and "au coup 1, qui est réglé" in said, said
    with Table.open(seated) as t:
        assert t.state()["staked"] == 0 and t.round == 2
    with Table.open(seated) as t:  # a key of the round still open answers with its bet
        first_id, _ = t.bet("rouge", "rouge à 5", key="rouge-2")
        assert t.bet("rouge", "rouge à 5", key="rouge-2")[0] == first_id
        assert t.state()["staked"] == 5


# ---- 6. the database lost during a commit -------------------------------------------------
@pytest.mark.parametrize(
    ("args", "hint"),
    [(["bet", "--id", "k-1", "rouge", "rouge à 10"], "--id"),
     (["bet", "rouge", "rouge à 10"], "table show"), (["close"], "table show")],
)  # fmt: skip
def test_a_commit_cut_short_says_it_may_or_may_not_be_done(
    postgres_server: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, args: list[str],
    hint: str,
) -> None:  # fmt: skip
    import psycopg

    from callbets.cli import main
    from callbets.table.core import TableCore

    location = f"{postgres_server}?table=lost-{tmp_path.name[-8:]}"
    with Table.create(location, "venice-french", "fr") as t:
        t.add_player("rouge")

    def server_dies(self: TableCore) -> None:
        pid = self.store.conn.info.backend_pid  # type: ignore[attr-defined]
        with psycopg.connect(postgres_server, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))

    monkeypatch.setattr(TableCore, "_before_commit", server_dies)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["table", "--table", location, *args])
    said = err.getvalue()
    assert code == 1 and said.count("\n") == 1, said
    assert "peut-être" in said or "a pu être fait, ou non" in said, said
    assert hint in said
    monkeypatch.undo()
    assert main(["table", "--table", location, *args]) == 0  # the same again goes through
    if hint == "--id":
        assert main(["table", "--table", location, *args]) == 0  # and again: placed once
    with Table.open(location) as t:
        assert t.verify().ok
        assert t.state()["staked"] == (10 if args[0] == "bet" else 0)


def test_the_store_says_a_lost_commit_is_unknown(postgres_server: str, tmp_path: Path) -> None:
    import psycopg

    t = Table.create(f"{postgres_server}?table=unk-{tmp_path.name[-8:]}", "france", "fr")
    t.add_player("rouge")
    lost = pytest.raises(OutcomeUnknown, match="may or may not have been made")
    with lost, t.store.transaction():
        t.store.rows("SELECT 1")
        pid = t.store.conn.info.backend_pid  # type: ignore[attr-defined]
        with psycopg.connect(postgres_server, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    t.bet("rouge", "rouge à 5", key="after")  # the next action goes through
    assert t.state()["staked"] == 5


# ---- 7. one damaged table does not blank the floor ----------------------------------------
DAMAGE = {
    "kind": "UPDATE bets SET kind = 'nonsense' WHERE table_id = {t}",
    "numbers": "UPDATE bets SET numbers = 'not json' WHERE table_id = {t}",
    "position": "UPDATE bets SET numbers = '[1, 36]' WHERE table_id = {t}",
    "round": "UPDATE meta SET value = 'abc' WHERE table_id = {t} AND key = 'round'",
    "report": "UPDATE spins SET report = '{{\"players\": [1]}}' WHERE table_id = {t}",
    "report-net": 'UPDATE spins SET report = \'{{"players": {{"a": {{"net": "x"}}}}}}\''
    " WHERE table_id = {t}",
    "report-json": "UPDATE spins SET report = 'garbage' WHERE table_id = {t}",
    "orphan": "UPDATE players SET name = 'ghost' WHERE table_id = {t}",
}


@pytest.mark.parametrize("how", list(DAMAGE))
def test_one_damaged_table_does_not_blank_the_floor(where: Where, how: str) -> None:
    if how == "orphan" and "://" in where("x"):
        pytest.skip("PostgreSQL's foreign keys keep a bet's player seated")
    good, bad = where("good"), where(f"bad-{how}")
    for location in (good, bad):
        with Table.create(location, "venice-french", "fr") as t:
            t.add_player("rouge")
            t.bet("rouge", "rouge à 10")
            t.close()
            t.spin(3)
            t.bet("rouge", "rouge à 5")
    damage(bad, DAMAGE[how])
    dead = "postgresql://pit@127.0.0.1:1/casino"
    proc = cb("floor", "--table", good, "--table", bad, "--table", dead, "--json", "--lang", "en")
    assert proc.returncode == 0, proc.stderr
    good_view, bad_view, dead_view = json.loads(proc.stdout)["tables"]
    assert not good_view["error"] and good_view["staked"] == 5
    assert "cannot reach" in dead_view["error"] and dead_view["table"] == "casino"
    if how == "orphan":  # read, with the bet counted for a player no longer seated
        assert not bad_view["error"] and bad_view["staked"] == 5
    elif how.startswith("report"):  # the table is read; its last settlement is flagged
        assert bad_view["flags"][0] == "round 1: its settlement cannot be read"
    else:
        assert bad_view["error"] and "\n" not in bad_view["error"], bad_view
    screen = cb("floor", "--table", good, "--table", bad, "--table", dead, "--once", "--lang", "en")
    assert screen.returncode == 1 and "Traceback" not in screen.stderr.decode()
    unreadable = 1 + (how != "orphan" and not how.startswith("report"))
    assert screen.stdout.decode().count("! cannot be read") == unreadable
    show = cb("table", "--table", bad, "show")
    assert show.returncode in (0, 1) and "Traceback" not in show.stderr.decode()
