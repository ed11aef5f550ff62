"""What recognisers must be able to say, from the grammar: the Vosk phrase list and the
words every engine must know.

Everything comes from ``grammar/<lang>.lark`` and ``grammar/dialogue.toml`` through
:mod:`.sentences` (announcements) and :mod:`.lm` (dialogue and table talk), the same
source as the PocketSphinx language model, so the engines can say the same things.
"""

from __future__ import annotations

import itertools

from ..language.dialogue import confirmation_phrases, pick_phrases
from ..language.grammar import language
from ..language.normalize import fold
from .sentences import AMOUNTS, phrases, said_numbers, sentences

VOSK_SAMPLES = 2000
"""Generated announcements in the Vosk phrase list (it learns word order from them)."""
TALK = ("CLOSE", "REFAIRE", "COMPLETER", "TOUT", "CHATTER")
"""Table talk the recognisers must hear (to act on it, or to know it is no bet)."""


def table_talk(lang: str) -> list[str]:
    """Confirm and cancel phrases, the table talk the console acts on ("no more bets",
    the replays) and the phrases that pick a reading, each a sentence of its own."""
    have = phrases(lang)
    talk = [p for name in TALK for p in have.get(name, ())]
    picks = [fold(p) for p in pick_phrases(lang)]  # "le premier": one of several readings
    return [fold(p) for p in confirmation_phrases(lang)] + talk + picks


def single_phrases(lang: str) -> list[str]:
    """Every phrase of every spoken terminal, every number a croupier says, and the
    dialogue and table talk: each reachable on its own."""
    said = {p for name, ps in phrases(lang).items() if name != "TYPED" for p in ps}
    said |= {s for n in {*range(37), *AMOUNTS} for s in said_numbers(lang, n)}
    said |= set(table_talk(lang))
    return sorted(said)


def phrase_list(lang: str, samples: int = VOSK_SAMPLES) -> list[str]:
    """The Vosk phrase list: single phrases, then generated announcements.

    Vosk turns it into a bigram model, so single phrases keep every word reachable and
    the samples teach it which words follow which.
    """
    return single_phrases(lang) + sentences(lang, samples, seed=2)


def table_words(lang: str) -> list[str]:
    """The words without which a bet or the dialogue cannot be heard: every word a
    recogniser must know, but those said only in politeness ("s'il vous plaît")."""
    ignored = language(lang).lexicon.ignored
    polite = {p for name, ps in phrases(lang).items() if name in ignored for p in ps}
    said = [p for p in single_phrases(lang) if p not in polite]
    return sorted(set(itertools.chain.from_iterable(p.split() for p in said)))


def words(lang: str) -> list[str]:
    """Every word a recogniser must know for this language."""
    language(lang)  # an unknown language fails here, with the reason
    out = set(itertools.chain.from_iterable(p.split() for p in single_phrases(lang)))
    return sorted(out)
