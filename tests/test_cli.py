"""The command line, run the way users and other tools run it."""

from __future__ import annotations

import json
import subprocess
import sys

from callbets.cli import main


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "callbets", *args], input=stdin, capture_output=True, text=True
    )


def test_parse_readback(capsys):
    assert main(["parse", "--lang", "fr", "voisins du zéro à 5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("voisins du zéro, 9 pièces à 5 = 45")
    assert "transversale 0/2/3 ×2 = 10" in out and "cheval 4/7 = 5" in out


def test_parse_refusal_has_reason_and_caret(capsys):
    assert main(["parse", "cheval 5/9"]) == 1
    err = capsys.readouterr().err
    # in the table's language, the kind of refusal too (French is the default)
    assert "refusée (pas une mise du tapis)" in err and "\n       ^" in err


def test_json_contract(capsys):
    assert main(["parse", "--json", "--lang", "it", "serie 5/8 da 10"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] and data["total"] == 60 and data["calls"][0]["call"] == "tiers"


def test_jsonl_from_stdin_keeps_order_and_skips_blank_lines():
    proc = run("parse", "--lang", "en", "--jsonl", stdin="tiers by 5\n\nsplit 4/8\nred at 10\n")
    assert proc.returncode == 0
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [line["input"] for line in lines] == ["tiers by 5", "split 4/8", "red at 10"]
    assert [line["ok"] for line in lines] == [True, False, True]
    assert lines[1]["error"]["kind"] == "illegal"


def test_jsonl_unreadable_file_exits_nonzero():
    proc = run("parse", "--jsonl", "/nonexistent/file.txt")
    assert proc.returncode == 1 and "cannot read" in proc.stderr


def test_unknown_house_is_a_clear_usage_error(capsys):
    assert main(["parse", "--house", "nowhere", "voisins"]) == 2
    assert "unknown house 'nowhere'" in capsys.readouterr().err


def test_houses_lists_profiles(capsys):
    assert main(["houses"]) == 0
    out = capsys.readouterr().out
    assert "venice-french" in out and "venice-fair" in out and "france" in out


def test_every_command_is_mapped_to_the_door_that_defines_it() -> None:
    """The command → door map behind the lazy start-up cannot go stale: each command of
    the full parser is built alone by its door, and the map names no other command."""
    from callbets.cli import COMMANDS, build_parser

    full = build_parser()
    sub = next(a for a in full._actions if a.dest == "command")
    assert set(sub.choices) == set(COMMANDS)  # type: ignore[arg-type]
    for command in COMMANDS:
        alone = next(a for a in build_parser(command)._actions if a.dest == "command")
        assert command in alone.choices  # type: ignore[operator]


def test_command_word_skips_top_level_options() -> None:
    from callbets.cli import command_word

    assert command_word(["--log", "parse", "table", "show"]) == "table"
    assert command_word(["-v", "parse", "x"]) == "parse"
    assert command_word(["--log=f", "settle"]) == "settle"
    assert command_word(["--help"]) is None


def test_parse_does_not_import_the_other_rooms() -> None:
    """``callbets parse`` starts without the table, speech, regress and console rooms."""
    code = (
        "import sys; from callbets.cli import main; "
        "main(['parse', '--lang', 'fr', '--json', 'tiers à 5']); "
        "print(' '.join(m for m in sys.modules if m.startswith('callbets.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    loaded = out.splitlines()[-1].split()
    assert "callbets.cli.parse" in loaded
    for room in ("table", "speech", "regress", "console"):
        assert not any(m.startswith(f"callbets.{room}") for m in loaded), room
