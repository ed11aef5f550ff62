"""Refusals in the table's language (grammar/messages.toml)."""

from __future__ import annotations

import json
import pickle
import string
import subprocess
import sys
from pathlib import Path

import pytest

from callbets import find_house
from callbets._resources import language_words
from callbets.console.session import Session
from callbets.errors import CallbetsError
from callbets.messages import Said, message_in, said
from callbets.parse import parse
from callbets.table import Table

LANGS = ("fr", "it", "en")


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_language_has_every_message_with_the_same_fields():
    english = language_words("messages.toml", "en")
    for lang in LANGS:
        words = language_words("messages.toml", lang)
        assert words.keys() == english.keys(), lang
        for key, template in words.items():
            assert fields(template) == fields(english[key]), (lang, key)


@pytest.mark.parametrize(
    ("lang", "text", "shown"),
    [("fr", "cheval 5/7", "pas de cheval 5/7 : 5 et 7 ne se touchent pas"),
     ("it", "cavallo 5/7", "nessun cavallo 5/7: 5 e 7 non sono vicini"),
     ("en", "split 5/7", "no split 5/7: 5 and 7 are not next to each other"),
     ("fr", "voisins blabla", "mot inconnu « blabla »"),
     ("it", "vicini blabla", "parola sconosciuta «blabla»")],
)  # fmt: skip
def test_parser_refusals_in_the_language_asked(lang, text, shown):
    proc = subprocess.run(
        [sys.executable, "-m", "callbets", "parse", "--json", "--lang", lang, text],
        capture_output=True, text=True,
    )  # fmt: skip
    error = json.loads(proc.stdout)["error"]
    assert error["message"] == shown and error["key"] in ("no_split", "unknown_word")
    assert error["kind"] in ("illegal", "unrecognized")  # kinds stay language-neutral


@pytest.mark.parametrize(
    ("lang", "bet", "shown"),
    [("fr", "17 en plein à 20", "plein 17 à 20, avec 20 déjà dessus : le maximum"),
     ("it", "17 pieno da 20", "pieno 17 da 20, con 20 già sopra: il massimo"),
     ("en", "17 straight up by 20", "straight 17 at 20 with 20 already on it: the table max")],
)  # fmt: skip
def test_the_console_says_limits_and_table_errors_in_its_language(tmp_path: Path, lang, bet,
                                                                  shown):  # fmt: skip
    s = Session(Table.create(tmp_path / f"{lang}.sqlite", "france", lang))
    s.handle("/seat rouge")
    s.handle(f"rouge: {bet}")
    s.handle("")
    out = "".join(text for _, text in s.handle(f"rouge: {bet}"))
    assert shown in out
    s.handle("/undo")
    undo = "".join(text for _, text in s.handle("/undo"))
    assert message_in(said("nothing_to_undo"), lang) in undo


def test_a_message_keeps_its_key_through_pickling_and_falls_back_to_english():
    m = said("unknown_player", player="bleu")
    again = pickle.loads(pickle.dumps(CallbetsError(m))).args[0]
    assert isinstance(again, Said) and message_in(again, "it").startswith("giocatore")
    assert message_in("not a keyed message", "fr") == "not a keyed message"
    with pytest.raises(CallbetsError) as info:
        parse("cheval 5/9", "fr", find_house())
    assert message_in(info.value, "fr").startswith("pas de cheval 5/9")


@pytest.mark.parametrize(
    ("lang", "bet", "seated", "settled", "shown"),
    [("fr", "rouge à 5", "rouge est à la table", "rouge : misé 5 · rendu 10",
      "coup 2, jeu ouvert"),
     ("it", "rosso da 5", "rouge è al tavolo", "rouge: puntato 5 · reso 10",
      "colpo 2, gioco aperto"),
     ("en", "red by 5", "rouge is at the table", "rouge: staked 5 · back 10",
      "round 2, betting open")],
)  # fmt: skip
def test_callbets_table_speaks_the_tables_language(tmp_path: Path, lang, bet, seated, settled,
                                                   shown):  # fmt: skip
    def t(*args: str) -> str:
        return subprocess.run(
            [sys.executable, "-m", "callbets", "table", "--table", str(tmp_path / "t.sqlite"),
             *args], capture_output=True, text=True,
        ).stdout  # fmt: skip

    t("open", "--lang", lang)
    assert seated in t("player", "rouge")
    t("bet", "rouge", bet)
    t("close")
    assert settled in t("spin", "1")
    assert shown in t("show")


@pytest.mark.parametrize(
    ("lang", "text", "lines"),
    [("fr", "rouge à 10", ["numéro 0", "rouge en prison : rendu 0", "en prison 10"]),
     ("it", "rosso da 10", ["numero 0", "rosso in prigione: reso 0", "in prigione 10"]),
     ("en", "red by 10", ["spin 0", "red in prison: returns 0", "in prison 10"])],
)  # fmt: skip
def test_callbets_settle_speaks_the_language_asked(lang, text, lines):
    proc = subprocess.run(
        [sys.executable, "-m", "callbets", "settle", "--spin", "0", "--lang", lang, text],
        capture_output=True, text=True,
    )  # fmt: skip
    for expected in lines:
        assert expected in proc.stdout
