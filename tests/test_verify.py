"""``table verify`` proves the state from the audit, keeps heads outside the table, and a
keyed table is never written nor verified without its key: on both backends, through the
command a pit boss runs."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from callbets.table.chain import KEY_VARIABLE

from .conftest import Where

KEY = "the casino's key"


def cb(*args: str, key: str | None = None) -> subprocess.CompletedProcess[str]:
    import os

    env = {k: v for k, v in os.environ.items() if k != KEY_VARIABLE}
    if key is not None:
        env[KEY_VARIABLE] = key
    return subprocess.run([sys.executable, "-m", "callbets", *args], capture_output=True,
                          text=True, env=env, timeout=60)  # fmt: skip


def evening(table: str, key: str | None = None) -> None:
    for args in (("open", "--house", "venice-french", "--lang", "fr"), ("player", "rouge"),
                 ("bet", "rouge", "voisins du zéro à 2"), ("close",), ("spin", "26")):  # fmt: skip
        proc = cb("table", "--table", table, *args, key=key)
        assert proc.returncode == 0, proc.stderr


def test_a_head_kept_shows_a_cut_tail_that_verify_alone_cannot(where: Where, tmp_path: Path):
    table = where("anchored")
    evening(table)
    anchor = tmp_path / "heads.txt"
    first = cb("table", "--table", table, "verify", "--anchor", str(anchor))
    assert first.returncode == 0 and "ajoutée à" in first.stdout
    assert anchor.stat().st_mode & 0o777 == 0o600  # owner-only
    head = re.findall(r"\b\d+:[0-9a-f]{16}\b", first.stdout)[-1]  # "tête du journal : 5:…"
    assert cb("table", "--table", table, "verify", "--head", head).returncode == 0
    more = cb("table", "--table", table, "bet", "rouge", "noir à 5")
    assert more.returncode == 0
    grown = cb("table", "--table", table, "verify", "--anchor", str(anchor))
    assert grown.returncode == 0 and "est toujours dans la chaîne" in grown.stdout
    rewritten = head[:-1] + ("1" if head[-1] == "0" else "0")  # another hash for that row
    bad = cb("table", "--table", table, "verify", "--head", rewritten)
    assert bad.returncode == 1 and "le journal a été réécrit" in bad.stdout
    cut = cb("table", "--table", table, "verify", "--head", "999:" + "a" * 16)
    assert cut.returncode == 1 and "des lignes ont été coupées à la fin" in cut.stdout
    wrong = cb("table", "--table", table, "verify", "--head", "abc")
    assert wrong.returncode == 2 and "ROWS:HASH" in wrong.stderr


def test_a_keyed_table_is_never_written_nor_verified_without_its_key(where: Where):
    table = where("keyed")
    evening(table, key=KEY)
    assert cb("table", "--table", table, "verify", key=KEY).returncode == 0
    for key, says in ((None, "donnez sa clé"), ("another key", "n'est pas la clé")):
        for args in (("bet", "rouge", "rouge à 5"), ("verify",)):
            proc = cb("table", "--table", table, *args, key=key)
            assert proc.returncode == 2 and says in proc.stderr, (args, proc.stderr)
            assert "Traceback" not in proc.stderr and "ROMPUE" not in proc.stdout
    assert cb("table", "--table", table, "verify", key=KEY).returncode == 0  # nothing written


def test_an_unkeyed_table_refuses_rows_written_with_a_key(where: Where):
    table = where("plain")
    evening(table)
    proc = cb("table", "--table", table, "bet", "rouge", "rouge à 5", key=KEY)
    assert proc.returncode == 2 and "sans clé de journal" in proc.stderr
    assert cb("table", "--table", table, "verify").returncode == 0


def test_verify_names_each_difference_of_the_state_in_the_table_language(where: Where):
    import json

    table = where("named")
    evening(table)
    from .test_tamper_suite import SUITE

    lab = SUITE.Lab(table)
    lab.sql("UPDATE spins SET number = 5 WHERE table_id = :t AND round = 1")
    lab.sql("UPDATE bets SET amount = 200 WHERE table_id = :t AND id = 1")
    proc = cb("table", "--table", table, "verify")
    assert proc.returncode == 1
    assert "le coup du tour 1 : numéro 5 dans les livres, 26 d'après le journal" in proc.stdout
    assert "la mise 1 : montant 200 dans les livres, 4 d'après le journal" in proc.stdout
    assert json.loads(cb("table", "--table", table, "show", "--json").stdout)["round"] == 2


def test_the_floor_flags_a_state_not_from_its_audit_and_a_cut_audit(where: Where, tmp_path: Path):
    import json

    from .test_tamper_suite import SUITE

    table = where("watched")
    evening(table)
    anchor = str(tmp_path / "floor-heads.txt")

    def flags() -> list[str]:
        proc = cb("floor", "--table", table, "--json", "--anchor", anchor)
        assert proc.returncode == 0, proc.stderr
        return list(json.loads(proc.stdout)["tables"][0]["flags"])

    assert flags() == []  # and the floor keeps the head it saw
    lab = SUITE.Lab(table)
    before = lab.snapshot()
    lab.sql("UPDATE outcomes SET paid = '3500' WHERE table_id = :t")
    assert any(f.startswith("STATE NOT FROM ITS AUDIT") for f in flags())
    lab.restore(before)
    assert flags() == []
    assert cb("table", "--table", table, "bet", "rouge", "noir à 5").returncode == 0
    assert flags() == []  # a new head, kept
    lab.restore(before)  # the last bet cut away, state and audit alike: consistent
    cut = flags()
    assert len(cut) == 1 and cut[0].startswith("AUDIT CUT: the floor saw head"), cut


def test_a_look_checks_only_the_new_rows_and_still_finds_them_changed(tmp_path: Path):
    """The floor's look checks the chain from where it was found good (a busy table's
    whole chain takes a second), and finds an edited row after that point; when the row
    it stopped at no longer holds its hash, it checks the whole chain again."""
    import sqlite3

    from callbets.table import Table
    from callbets.table.books import table_chain
    from callbets.table.chain import Head

    path = tmp_path / "t.sqlite"
    with Table.create(str(path), "venice-french", "fr") as t:
        t.add_player("rouge")
        t.bet("rouge", "rouge à 10")
    with Table.open(str(path), write=False) as t:
        whole = table_chain(t.store)
        done = Head(whole.rows, whole.head)
    with Table.open(str(path)) as t:
        t.bet("rouge", "noir à 5")
    with Table.open(str(path), write=False) as t:
        more = table_chain(t.store, after=done)
        assert more.ok and more.rows == table_chain(t.store).rows > done.rows
    with sqlite3.connect(path) as db:  # behind callbets' back
        db.execute("DROP TRIGGER IF EXISTS audit_no_update")
        db.execute("UPDATE audit SET payload = replace(payload, '5', '50') WHERE id = ?",
                   (done.rows + 1,))  # fmt: skip
    with Table.open(str(path), write=False) as t:
        assert table_chain(t.store, after=done).first_bad == done.rows + 1
        moved = Head(done.rows, "0" * 64)  # not the hash there: the whole chain again
        assert table_chain(t.store, after=moved).first_bad == done.rows + 1


# ---- forgeries by an insider with write access to the database, not the key ----------
# (issue 41, findings 1-4: each makes verify exit 1 and say what was changed)


def _verify(table: str, *more: str, key: str | None = None) -> subprocess.CompletedProcess[str]:
    return cb("table", "--table", table, "verify", *more, key=key)


def test_rows_whose_hashes_were_removed_are_never_chained_on(where: Where):
    from .test_tamper_suite import SUITE

    table = where("unhashed")
    evening(table, key=KEY)
    lab = SUITE.Lab(table)
    lab.sql("UPDATE audit SET payload = replace(payload, '2', '200'), hash = NULL"
            " WHERE table_id = :t AND kind = 'settlement'")  # fmt: skip
    bet = cb("table", "--table", table, "bet", "rouge", "noir à 5", key=KEY)
    assert bet.returncode == 1 and "n'a pas de hachage" in bet.stderr  # nothing signed
    proc = _verify(table, key=KEY)
    assert proc.returncode == 1 and "ROMPUE à la ligne" in proc.stdout


def test_a_keyed_table_rewritten_unkeyed_is_named_by_the_anchor(where: Where, tmp_path: Path):
    from .test_tamper_suite import SUITE

    table, anchor = where("unkeyed-now"), str(tmp_path / "heads.txt")
    evening(table, key=KEY)
    assert _verify(table, "--anchor", anchor, key=KEY).returncode == 0
    lab = SUITE.Lab(table)
    lab.sql("DELETE FROM meta WHERE table_id = :t AND key = 'key_check'")
    lab.sql("UPDATE audit SET payload = replace(payload, '\"keyed\": true', '\"keyed\": false')"
            " WHERE table_id = :t AND kind = 'open'")  # fmt: skip
    lab.recompute(None)
    lines = Path(anchor).read_text()
    for key in (KEY, None):  # the pit boss's key set, or not
        proc = _verify(table, "--anchor", anchor, key=key)
        assert proc.returncode == 1, (key, proc.stdout, proc.stderr)
        assert "avec un journal signé ; il ne l'est plus" in proc.stdout
        assert "le journal a été réécrit" in proc.stdout
    assert Path(anchor).read_text() == lines  # the forged head is not kept


def test_a_table_rekeyed_with_another_key_is_tampering_against_a_kept_head(where: Where):
    from callbets.table.chain import key_check

    from .test_tamper_suite import SUITE

    table = where("rekeyed")
    evening(table, key=KEY)
    kept = re.findall(r"\b\d+:[0-9a-f]{16}\b", _verify(table, key=KEY).stdout)[-1]
    lab, theirs = SUITE.Lab(table), "the insider's own key"
    uid = lab.sql("SELECT value FROM meta WHERE table_id = :t AND key = 'uid'")[0][0]
    lab.sql("UPDATE meta SET value = :v WHERE table_id = :t AND key = 'key_check'",
            v=key_check(theirs.encode(), uid))  # fmt: skip
    lab.recompute(theirs.encode())
    assert _verify(table, key=theirs).returncode == 0  # it verifies with their key…
    alone = _verify(table, key=KEY)
    assert alone.returncode == 2 and "n'est pas la clé" in alone.stderr  # …not with his
    proc = _verify(table, "--head", kept, key=KEY)
    assert proc.returncode == 1 and "le journal a été réécrit" in proc.stdout
    assert "n'est pas la clé" in proc.stdout and "il a été réécrit" in proc.stdout


def test_a_table_put_in_anothers_place_is_named_by_the_anchor(where: Where, tmp_path: Path):
    from .test_tamper_suite import SUITE

    table, other, anchor = where("kept-here"), where("newcomer"), str(tmp_path / "heads.txt")
    evening(table)
    evening(other)
    assert _verify(table, "--anchor", anchor).returncode == 0
    SUITE.Lab(table).restore(SUITE.Lab(other).snapshot())  # every row, its identity too
    lines = Path(anchor).read_text()
    proc = _verify(table, "--anchor", anchor)
    assert proc.returncode == 1 and "la table a été remplacée" in proc.stdout
    assert Path(anchor).read_text() == lines  # the newcomer's head is not kept
    new = _verify(table, "--anchor", anchor, "--new-table")  # the pit boss says it is new
    assert new.returncode == 0 and "ajoutée à" in new.stdout
    assert _verify(table, "--anchor", anchor).returncode == 0


def test_a_damaged_line_of_one_table_never_hides_the_others_heads(tmp_path: Path):
    """One line of an anchor file that is not a head (another table's, or a hostile
    location) is said when its own table is checked, and only then."""
    from callbets.errors import InputError
    from callbets.table.anchor import kept_heads, kept_lines, record_head
    from callbets.table.chain import Head

    anchor = tmp_path / "heads.txt"
    record_head(anchor, "a" * 32, Head(3, "f" * 64), True, str(tmp_path / "t\x85\u2028 x.sqlite"))
    with open(anchor, "a", encoding="utf-8") as f:
        f.write("b" * 32 + " 99:x 2026-12-07T00:00:00Z unkeyed /somewhere\n")
    assert kept_heads(anchor, "a" * 32) == [Head(3, "f" * 64)]
    (line,) = kept_lines(anchor)  # the damaged one left out
    assert line.keyed and line.location == str((tmp_path / "t\x85\u2028 x.sqlite").resolve())
    with pytest.raises(InputError, match="line 2: not a head"):
        kept_heads(anchor, "b" * 32)
