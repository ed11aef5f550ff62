"""Refusals in the table's language (grammar/messages.toml)."""

from __future__ import annotations

import ast
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
from callbets.errors import AnnouncementError, CallbetsError
from callbets.language.grammar import LANGUAGES
from callbets.language.parse import parse
from callbets.messages import Said, message_in, said
from callbets.roulette.limits import LimitError, check_limits
from callbets.roulette.settle import SettlementError, settle
from callbets.table import Table

from .conftest import ROOT
from .test_corpus import CASES

LANGS = LANGUAGES


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


LESS_COMMON = {
    "fr": [
        ("5/8 à 10", "serie_or_position",
         "« 5/8 » : cheval 5/8, ou la série 5/8 (tiers du cylindre) ? Dites son nom"),
        ("vingt cinq vingt neuf", "bare_pair",
         "« 25 29 » sans rien entre les deux : carré 25/26/28/29, ou un plein sur chacun ? "
         "Dites son nom (« carré 25/26/28/29 ») ou « et » entre les deux"),
        ("tiers du deux", "no_serie", "pas de tiers 2 (série 5/8 ou 0/2/3)"),
        ("trente le deux en plein", "article_in_number",
         "« le » au milieu des nombres : un numéro, ou deux ?"),
        ("série 0/2/3 à cheval", "not_all_cheval", "pas de voisins du zéro tout à cheval"),
        ("gioco ferrari", "not_played", "gioco Ferrari ne se joue pas dans cette maison"),
    ],
    "it": [
        ("cinque otto", "bare_pair",
         "«5 8» senza niente in mezzo: cavallo 5/8, o un pieno su ciascuno? "
         "Dite il nome («cavallo 5/8») o «e» tra i due"),
        ("serie quattro sette", "no_serie", "«serie 4/7» non esiste (serie 5/8 o 0/2/3)"),
        ("serie 5/8 da 5 5 e zero spiel da 10", "after_stake",
         "«5» subito dopo la posta: una puntata sul 5, o la posta detta due volte? "
         "Dite «e» prima di un'altra puntata"),
        ("serie 0/2/3 in pieno", "no_plein_of", "niente vicini dello zero in pieno"),
        ("tiers da 12", "tiers_twelve",
         "«da 12»: la serie 5/8 da 12 al pezzo, o la serie 5/8 in pieno "
         "(i suoi 12 numeri in pieno)?"),
    ],
    "en": [
        ("five eight", "bare_pair",
         "'5 8' with nothing between: the split 5/8, or a straight-up on each? "
         "Say its name ('split 5/8') or 'and' between them"),
        ("45 euros in all", "forward_of_which",
         "'45 in all': on which bet? Say it after the amount"),
        ("split 5/8 at 2.5", "decimal",
         "'2.5' is unclear: amounts are whole pieces, and numbers are separated by spaces"),
        ("17 and two two either side", "count_twice",
         "'2' said twice before 'each side': a number, or the count?"),
        ("5 30 on 5", "no_stake_of_its_own",
         "'straight 5' has no stake, and the others do: is it a bet of its own? "
         "Say its stake, or 'and' between the bets"),
        ("tiers of two", "no_serie", "no tiers 2 (serie 5/8 or 0/2/3)"),
    ],
    "es": [
        ("caballo 5/9 a 5", "no_split_but",
         "no hay caballo 5/9: el 5 y el 9 no están juntos (5/9 indica: cuadro 5/6/8/9)"),
        ("vecinos por 45", "piece_or_total", "«por 45»: ¿45 por ficha, o 45 en total?"),
        ("tercio a 12", "tiers_twelve",
         "«a 12»: ¿el tercio a 12 la ficha, o el tercio en pleno (sus 12 números a pleno)?"),
    ],
}  # fmt: skip
"""Less common refusals, each as the table hears it: its key and its message."""


@pytest.mark.parametrize("lang", LANGS)
def test_less_common_refusals_in_the_language_asked(lang):
    cases = LESS_COMMON[lang]
    proc = subprocess.run(
        [sys.executable, "-m", "callbets", "parse", "--jsonl", "--lang", lang],
        input="".join(f"{text}\n" for text, _, _ in cases), capture_output=True, text=True,
    )  # fmt: skip
    errors = [json.loads(line)["error"] for line in proc.stdout.splitlines()]
    assert [(e["key"], e["message"]) for e in errors] == [(k, m) for _, k, m in cases]


def test_every_refusal_of_the_corpus_has_its_message_in_the_tables_language():
    refused = [c for c in CASES if "refuse" in c["expect"]]
    assert len(refused) >= 200
    for case in refused:
        with pytest.raises(AnnouncementError) as info:
            parse(case["text"], case["lang"], find_house(case.get("house", "venice-french")))
        message = info.value.message
        assert isinstance(message, Said), (case["text"], message)
        assert message.key in language_words("messages.toml", case["lang"]), case["text"]


REFUSALS = frozenset({
    "AnnouncementError", "UnrecognizedError", "IllegalBetError", "StakeError", "AmbiguousError",
    "LimitError", "ReplayError", "SettlementError", "_illegal", "_unused",
})  # fmt: skip
"""What raises a refusal a croupier reads: each takes a message of grammar/messages.toml."""


def test_no_refusal_is_worded_in_the_code():
    """A refusal built from a string literal would be said in English at every table."""
    worded = []
    for path in sorted((ROOT / "callbets").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", "")
            if name in REFUSALS and isinstance(node.args[0], ast.Constant | ast.JoinedStr):
                worded.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not worded


def test_limits_and_settlement_refusals_in_the_tables_language():
    fair = find_house("venice-fair")
    with pytest.raises(LimitError) as limit:
        check_limits(parse("rouge à 1", "it", fair), fair)
    assert message_in(limit.value, "it").startswith("rosso da 1: almeno 5 pezzi")
    with pytest.raises(SettlementError) as spin:
        settle([], 37, fair)
    assert message_in(spin.value, "fr") == "37 n'est pas sur le cylindre (0 à 36)"


def test_what_the_console_heard_is_said_in_the_tables_language():
    from callbets.console.voice import Listener
    from callbets.speech.decide import decide
    from callbets.speech.engines import Candidate, Hearing

    def heard(text: str, confs: list[float]) -> Hearing:
        words = tuple(zip(text.split(), confs, strict=True))
        return Hearing((Candidate(text, 1.0, words),), "vosk")

    unsure = decide(heard("tiers à cinq", [0.99, 0.99, 0.5]), "fr")
    assert message_in(unsure.reason, "fr") == "pas sûr du mot « cinq » (0.50)"
    assert unsure.reason == "not sure of the word 'cinq' (0.50)"  # the JSON stays English
    unclear = decide(heard("cinque otto", [0.99, 0.99]), "it")
    assert message_in(unclear.reason, "it").startswith("«cinque otto»: «5 8» senza niente")
    talk = Listener("fr", find_house()).hear(heard("rien ne va plus", [0.99] * 4))
    assert message_in(talk.reason, "fr") == "parole de table : Entrée pour l'exécuter"


@pytest.mark.parametrize(
    ("lang", "seated", "settled"),
    [("fr", "« rouge » est déjà à la table", "le coup 1 a déjà été payé sur le 17, pas sur le 5"),
     ("it", "«rouge» è già al tavolo", "il colpo 1 è già stato pagato sul 17, non sul 5"),
     ("en", "'rouge' is already at the table", "round 1 was already settled on 17, not 5")],
)  # fmt: skip
def test_the_tables_own_refusals_in_its_language(tmp_path: Path, lang, seated, settled):
    path = str(tmp_path / "t.sqlite")

    def table(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "callbets", "table", "--table", path, *args],
                              capture_output=True, text=True)  # fmt: skip

    table("open", "--lang", lang)
    table("player", "rouge")
    assert seated in table("player", "rouge").stderr
    table("close")
    table("spin", "17")
    assert settled in table("spin", "5", "--round", "1").stderr
