"""Which of the grammar's words a Vosk model's lexicon knows, and in which spelling.

Vosk drops a word its lexicon lacks without a word, so every grammar word is looked up
(``find_word(w) >= 0``) under each of its spellings: by the engine as it starts, and by
``callbets models`` when it checks an installed model.
"""

from __future__ import annotations

from typing import Any

from ..language.grammar import written_forms
from .phrases import phrase_list, table_words, words


def spelling(find_word: Any, lang: str) -> dict[str, str]:
    """Each grammar word → how the model's lexicon spells it: the first of the grammar's
    spellings ("zero", "zéro"; "à") that the model knows (``find_word(w) >= 0``); words it
    knows under none are left out."""
    forms = written_forms(lang)
    out = {}
    for word in words(lang):
        spellings = (*forms.get(word, ()), word, *final_accents(word))
        known = [w for w in spellings if find_word(w) >= 0]
        if known:
            out[word] = known[0]
    return out


FINAL_ACCENTS = {"a": "à", "e": "éè", "i": "ì", "o": "ò", "u": "ù"}


def final_accents(word: str) -> tuple[str, ...]:
    """The word with an accent on its last vowel, as Italian and French write some
    ("quarantatré", "più"): tried when the grammar gives no accented spelling."""
    if not word or word[-1] not in FINAL_ACCENTS:
        return ()
    return tuple(word[:-1] + accented for accented in FINAL_ACCENTS[word[-1]])


def missing_words(find_word: Any, lang: str) -> list[str]:
    """Grammar words the model's lexicon lacks under every spelling (Vosk would drop
    them silently)."""
    known = spelling(find_word, lang)
    return [w for w in words(lang) if w not in known]


def missing_table_words(find_word: Any, lang: str) -> list[str]:
    """The table's words (:func:`~callbets.speech.phrases.table_words`) the model lacks:
    without them it would hear "à cinq" as another legal bet, or nothing."""
    known = spelling(find_word, lang)
    return [w for w in table_words(lang) if w not in known]


def model_phrases(find_word: Any, lang: str) -> list[str]:
    """The phrase list in the model's spelling, leaving out phrases with unknown words."""
    known = spelling(find_word, lang)
    return [
        " ".join(known[w] for w in p.split())
        for p in phrase_list(lang)
        if all(w in known for w in p.split())
    ]
