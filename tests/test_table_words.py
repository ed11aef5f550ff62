"""Everything a croupier or a pit boss reads at a French or Italian table is in that
language: an evening walked through every table command, each line checked against
English words and internal ids."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ENGLISH = re.compile(
    r"\b(opened|written|records|refused|illegal|ambiguous|settled|chain|books|placed|"
    r"waiting|neighbours|rows|spins|cannot|unknown|players|staked|returned|verify\b(?!\s*--)|"
    r"finale_\w+|jeu_zero|orphelins_plein|two_dozens|with_splits)\b"
)
"""English words and internal ids no French or Italian line may hold (the command names
a line tells the user to type, such as 'callbets table verify', aside)."""

EVENINGS = {
    "fr": ["rouge", "17 en plein à 1000", "finale 7 à 2", "le 17 et les voisins à 1",
           "tiers à 5", "pas de cheval 5/9"],
    "it": ["rosso", "17 pieno da 1000", "finale 7 da 2", "il 17 con i vicini da 1",
           "serie 5/8 da 5", "cavallo 5/9"],
    "es": ["rojo", "17 pleno a 1000", "final 7 a 2", "el 17 y sus vecinos a 1",
           "serie 5/8 a 5", "caballo 5/9"],
}  # fmt: skip
OTHER_LANGUAGES = re.compile(
    r"\b(pièces?|mises?|joueur|soirée|tableau|refusée?|pezzi|puntat[ae]|giocatore|serata|"
    r"tavolo|rifiutat[ao]|voisins|orphelins|vicini|orfanelli|cheval|cavallo|plein|pieno)\b"
)
"""French and Italian words no Spanish line may hold."""


def run(*args: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "callbets", *args], capture_output=True,
                          text=True, timeout=60)  # fmt: skip
    return proc.stdout + proc.stderr


@pytest.mark.parametrize("lang", sorted(EVENINGS))
def test_an_evening_at_the_table_speaks_its_language(tmp_path: Path, lang: str) -> None:
    player, big, finale, neighbours, pending, illegal = EVENINGS[lang]
    table = str(tmp_path / "t.sqlite")

    def t(*args: str) -> str:
        return run("table", "--table", table, *args)

    said = [
        t("open", "--house", "venice-french", "--lang", lang),
        t("player", player),
        t("bet", player, big),
        t("bet", player, finale),
        t("bet", player, neighbours),
        t("announce", player, pending),
        t("bet", player, illegal),
        t("bet", "nobody", finale),
        t("close"),
        t("spin", "17"),
        t("show"),
        t("audit", "--output", str(tmp_path / "audit.jsonl")),
        t("verify"),
        t("report"),
        run("parse", "--lang", lang, illegal),
    ]
    for output in said:
        for line in output.splitlines():
            if line.lstrip().startswith("callbets table --table"):
                continue  # a command to type
            found = ENGLISH.search(line.replace("callbets table verify", ""))
            assert found is None, f"{found.group(0)!r} in {line!r}"
            other = OTHER_LANGUAGES.search(line) if lang == "es" else None
            assert other is None, f"{other.group(0)!r} in {line!r}"


CONSOLE = {
    "fr": ["/asseoir rouge bleu", "rouge: 17 en plein à 1000", "", "bleu: rouge à 10", "",
           "rouge: finale 7 à 2", "", "rouge: voisins 45", "2", "", "rouge: pas de cheval 5/9",
           "rouge: tiers à 5", "annule", "/tableau", "rien ne va plus", "0", "bleu: à partager",
           "", "rouge: à refaire", "", "/dernier", "rien ne va plus", "dix-sept", "/rapport",
           "rouge: noir à 5", "/aide"],
    "it": ["/sedere rosso blu", "rosso: 17 pieno da 1000", "", "blu: rosso da 10", "",
           "rosso: finale 7 da 2", "", "rosso: vicini 45", "2", "", "rosso: cavallo 5/9",
           "rosso: serie 5/8 da 5", "annulla", "/tavolo", "rien ne va plus", "0",
           "blu: spostare su nero", "", "rosso: a rifare", "", "/ultimo", "rien ne va plus",
           "diciassette", "/rapporto", "rosso: nero da 5", "/aiuto"],
    "es": ["/sentar rojo azul", "rojo: 17 pleno a 1000", "", "azul: rojo a 10", "",
           "rojo: final 7 a 2", "", "rojo: vecinos 45", "2", "", "rojo: caballo 5/9",
           "rojo: serie 5/8 a 5", "anula", "/mesa", "no va más", "0", "azul: la mitad",
           "", "rojo: a repetir", "", "/ultima", "no va más", "diecisiete", "/informe",
           "rojo: negro a 5", "/ayuda"],
}  # fmt: skip


@pytest.mark.parametrize("lang", sorted(CONSOLE))
def test_an_evening_at_the_console_speaks_its_language(tmp_path: Path, lang: str) -> None:
    from callbets.console.report import plain
    from callbets.console.session import Session
    from callbets.table import Table

    session = Session(Table.create(tmp_path / "t.sqlite", "venice-french", lang))
    for typed in CONSOLE[lang]:
        for line in plain(session.handle(typed)).splitlines():
            found = ENGLISH.search(line.replace("callbets table verify", ""))
            assert found is None, f"{found.group(0)!r} in {line!r} (after {typed!r})"
            other = OTHER_LANGUAGES.search(line) if lang == "es" else None
            assert other is None, f"{other.group(0)!r} in {line!r} (after {typed!r})"
    assert session.table.ended  # the whole evening was played


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_bad_input_is_refused_in_the_table_language(lang: str) -> None:
    """Issue 23's class: bad input says why in the user's language, not in English."""
    for args in (["parse", "  "], ["settle", "--spin", "40", "rouge"]):
        english = run(*args, "--lang", "en")
        said = run(*args, "--lang", lang)
        assert said.strip() and said != english, (args, said)
        assert not ENGLISH.search(said) and "nothing" not in said and "wheel" not in said


@pytest.mark.parametrize(
    ("lang", "unclear", "clear"),
    [("fr", "cinq huit", "tiers à cinq"), ("it", "cinque otto", "serie 5/8 da cinque")],
)  # fmt: skip
def test_listen_says_its_decisions_in_the_table_language(lang, unclear, clear) -> None:
    """What ``callbets listen`` prints of a refusal, a doubt and a clear reading."""
    from callbets.cli.speech import say_decision
    from callbets.roulette.house import find_house
    from callbets.speech.decide import decide
    from callbets.speech.engines import Candidate, Hearing

    def heard(text: str, sure: float) -> Hearing:
        words = tuple((w, sure) for w in text.split())
        return Hearing((Candidate(text, 1.0, words),), "vosk")

    house = find_house("venice-french")
    for text, sure in ((unclear, 0.99), (clear, 0.4), (clear, 0.99), ("bonjour", 0.99)):
        lines = say_decision(decide(heard(text, sure), lang, house), lang, house)
        english = say_decision(decide(heard(text, sure), "en", house), "en", house)
        assert lines and lines != english, text
        for line in lines:
            assert not ENGLISH.search(line) and "not sure" not in line, line


def test_an_english_table_says_no_more_bets(tmp_path):
    """Issue 42: "rien ne va plus" was said at English tables, whose console closes
    betting with "no more bets"."""
    table = str(tmp_path / "en.sqlite")
    run = [sys.executable, "-m", "callbets", "table", "--table", table]
    subprocess.run([*run, "open", "--lang", "en"], check=True, capture_output=True)
    subprocess.run([*run, "player", "red"], check=True, capture_output=True)
    closed = subprocess.run([*run, "close"], capture_output=True, text=True)
    assert "no more bets" in closed.stdout and "rien ne va plus" not in closed.stdout
    late = subprocess.run([*run, "bet", "red", "tiers by 5"], capture_output=True, text=True)
    assert "no more bets" in late.stderr and "rien" not in late.stderr
    early = subprocess.run([*run, "report"], capture_output=True, text=True)
    assert "rien" not in early.stdout
