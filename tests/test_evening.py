"""The end of the evening: the last spin closes the table for good, and the report a pit
boss signs adds up the evening from the settled rounds and the audit, on both backends,
in the table's language; the console marks the last spin, shows the report, and offers
at a zero everything the house offers (Venice: move to another simple chance)."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from callbets.console.report import plain
from callbets.console.session import Session
from callbets.table import Table

from .conftest import Where


def cb(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "callbets", *args], capture_output=True,
                          text=True, timeout=60)  # fmt: skip


def test_the_last_spin_ends_the_evening_and_the_report_adds_it_up(where: Where):
    table = where("evening")

    def t(*args: str, croupier: str = "Marie") -> subprocess.CompletedProcess[str]:
        proc = cb("table", "--table", table, "--croupier", croupier, *args)
        assert proc.returncode == 0, proc.stderr
        return proc

    t("open", "--house", "venice-french", "--lang", "fr")
    t("player", "rouge")
    t("player", "bleu")
    t("bet", "rouge", "17 en plein à 1000")  # over the maximum: 100 play, 900 handed back
    t("bet", "bleu", "pair à 20")
    t("close")
    t("spin", "0", croupier="Paul")  # bleu's even chance goes to prison
    t("bet", "rouge", "tiers à 1")
    t("close")
    t("spin", "26", "--last")  # even: bleu's stake leaves prison, freed
    refused = cb("table", "--table", table, "bet", "rouge", "noir à 5")
    assert refused.returncode == 1 and "la soirée est finie" in refused.stderr
    data = json.loads(t("report", "--json").stdout)
    assert data["spins"] == 2 and data["ended"] is True
    assert data["players"]["bleu"] == {"staked": 20, "returned": 20, "net": 0}
    rouge = data["players"]["rouge"]
    assert rouge["staked"] == 1006 and rouge["returned"] == 900 and rouge["net"] == -106
    assert data["staked"] == 1026 and data["net"] == -106
    assert data["prison"] == {"imprisoned": 20, "freed": 20, "still": 0}
    assert data["handed_back"] == {"rouge": 900}
    assert data["croupiers"] == ["Marie", "Paul"]
    assert data["audit"]["verifies"] and data["audit"]["head"].startswith(
        f"{data['audit']['rows']}:"
    )
    text = t("report").stdout
    assert "coups joués : 2 · dernier coup joué" in text
    assert "rouge : misé 1006 · rendu 900 · net -106" in text
    assert "rendu au-delà du maximum : rouge 900" in text
    assert "résultat de la banque +106" in text


@pytest.mark.parametrize(
    ("lang", "lines", "says"),
    [("fr", ["rouge: rouge à 10", "", "rien ne va plus", "/dernier", "0",
             "rouge: déplacer sur noir", "", "rouge: noir à 5", "/rapport"],
      ["rouge: déplacer sur noir", "la soirée est finie", "rendu 5 · gardé par la banque 5"]),
     ("it", ["rosso: rosso da 10", "", "rien ne va plus", "/ultimo", "0",
             "rosso: spostare su nero", "", "rosso: nero da 5", "/rapporto"],
      ["rosso: spostare su nero", "la serata è finita", "reso 5 · tenuto dal banco 5"]),
     ("en", ["red: red by 10", "", "no more bets", "/last", "0", "red: move to black", "",
             "red: black by 5", "/report"],
      ["red: move to black", "the evening is over", "handed back 5 · kept by the bank 5"])],
)  # fmt: skip
def test_the_console_marks_the_last_spin_moves_at_zero_and_reports(lang, lines, says):
    folder = Path(tempfile.mkdtemp())
    table = Table.create(folder / "t.sqlite", "venice-french", lang)
    table.add_player(lines[0].split(":")[0])
    session = Session(table)
    shown = "\n".join(plain(session.handle(line)) for line in lines)
    for text in says:
        assert text in shown
    assert table.ended and table.open_bets()[0].position.kind.value == "black"
    assert "✗" not in shown.split(says[0])[0]  # nothing refused before the move


@pytest.mark.parametrize(
    ("house", "back", "bank"), [("venice-french", 25, 75), ("bank-keeps", 0, 100)]
)
def test_stakes_still_in_prison_at_the_end_come_to_what_the_house_says(
    where: Where, tmp_path: Path, house: str, back: int, bank: int
):
    """Issue 42: after the last spin the report showed 'encore en prison 100' and counted
    it in the bank's result, and the floor showed PRISON 100 on a finished table.  The
    house says (zero.prison_at_close): Venice hands back what is still in play (100 in
    prison twice: 25), a house that keeps it says so."""
    table = where("closing")
    if house == "bank-keeps":
        profile = tmp_path / "bank-keeps.toml"
        profile.write_text('extends = "venice-french"\nname = "bank-keeps"\n'
                           'description = "keeps prison at closing"\n'
                           '[zero]\nprison_at_close = "bank"\n', encoding="utf-8")  # fmt: skip
        house = str(profile)

    def t(*args: str) -> subprocess.CompletedProcess[str]:
        proc = cb("table", "--table", table, *args)
        assert proc.returncode == 0, proc.stderr
        return proc

    t("open", "--house", house, "--lang", "fr")
    t("player", "bleu")
    t("bet", "bleu", "rouge à 100")
    t("close")
    t("spin", "0")
    t("close")
    t("spin", "0", "--last")  # prison twice: a quarter of the stake still in play
    data = json.loads(t("report", "--json").stdout)
    assert data["prison"]["still"] == 0
    assert data["prison"]["at_close"] == {"rule": "half" if back else "bank",
                                          "handed_back": back, "bank": bank}  # fmt: skip
    assert data["players"]["bleu"] == {"staked": 100, "returned": back, "net": back - 100}
    assert data["net"] == back - 100  # the bank's result counts only what it keeps
    text = t("report").stdout
    assert f"rendu {back} · gardé par la banque {bank}" in text
    assert "la moitié de ce qui reste en jeu est rendue" in text or not back
    floor = json.loads(cb("floor", "--table", table, "--json", "--no-anchor").stdout)
    assert [t["prison"] for t in floor["tables"]] == [0]  # nothing left in prison
