"""What recognisers may hear, generated from the grammar: templates, JSGF, phrase lists.

The templates below are sequences of grammar terminals and number slots, in orders that
:mod:`callbets.assemble` accepts in every language.  They are filled with each
language's own phrases (``grammar/<lang>.lark``), so one source drives typed text, the
PocketSphinx JSGF grammar, the Vosk phrase list and the vocabulary report.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Sequence
from functools import cache

from ..dialogue import confirmation_phrases
from ..errors import AnnouncementError
from ..grammar import language
from ..house import find_house
from ..lexicon import spoken_form
from ..normalize import fold
from ..parse import parse
from ..talk import TABLE_TALK
from ..vocabulary import spellings

# Slots: a terminal name, or "#n" (0-36), "#digit" (0-9), "#count" (1-4), "#amount".
CALLS: tuple[tuple[str, ...], ...] = (
    ("VOISINS",), ("NEIGHBOURS",), ("TIERS",), ("ORPHELINS",), ("ORPHELINS", "STRAIGHT"),
    ("JEU_ZERO",), ("NASSA",),
    ("#n", "AND", "NEIGHBOURS"), ("#n", "WITH", "NEIGHBOURS"), ("NEIGHBOURS", "OF", "#n"),
    ("#n", "AND", "#count", "NEIGHBOURS"), ("#n", "WITH", "#count", "NEIGHBOURS"),
    ("FINALE", "#digit"), ("FINALE", "#digit", "STRAIGHT"), ("FINALE", "#digit", "#digit"),
    ("SPLIT", "FINALE", "#digit", "#digit"), ("FINALE", "SPLIT", "#digit", "#digit"),
    ("#n", "COMPLETE"), ("COMPLETE", "#n"),
    ("#n",), ("#n", "STRAIGHT"), ("STRAIGHT", "#n"), ("#n", "#n"),
    ("SPLIT", "#n", "#n"), ("#n", "#n", "SPLIT"), ("STREET", "#n", "#n"),
    ("CORNER", "#n", "#n"), ("SIXLINE", "#n", "#n"), ("SERIE", "#digit", "#digit"),
    ("FIRST", "DOZEN"), ("SECOND", "DOZEN"), ("THIRD", "DOZEN"), ("LAST", "DOZEN"),
    ("MIDDLE", "DOZEN"), ("DOZEN", "MIDDLE"), ("FIRST", "COLUMN"), ("SECOND", "COLUMN"),
    ("THIRD", "COLUMN"), ("COLUMN", "#n"), ("#n", "FIRST"), ("FIRST", "#n"), ("#n", "LAST"),
    ("RED",), ("BLACK",), ("EVEN",), ("ODD",), ("LOW",), ("HIGH",),
)  # fmt: skip
"""The shapes of one call."""

STAKES: tuple[tuple[str, ...], ...] = (
    ("PIECE_PREFIX", "#amount"), ("#amount", "EACH"), ("PIECE_PREFIX", "#amount", "EACH"),
    ("TOTAL_PREFIX", "#amount"), ("#amount", "IN_ALL"),
)  # fmt: skip
"""The shapes of a stake."""

AMOUNTS = (*range(1, 37), 40, 45, 50, 60, 70, 75, 80, 90, 100, 150, 200, 250, 300, 500, 1000)
"""Stakes a recogniser is prepared to hear."""

_SPEAKABLE = re.compile(r"^[a-z' ]+$")


def _speakable(words: tuple[str, ...]) -> bool:
    """Whether a recogniser can say a phrase: letters only, and no typed contraction."""
    return bool(_SPEAKABLE.match(" ".join(words))) and spoken_form(words)


@cache
def terminal_phrases(lang: str) -> dict[str, tuple[str, ...]]:
    """Terminal → its phrases that can be spoken (no digits or symbols)."""
    out: dict[str, list[str]] = {}
    lexicon = language(lang).lexicon
    for words, name in lexicon.phrases.items():
        phrase = " ".join(words)
        if name not in lexicon.fillers and _speakable(words) and lexicon.spoken(words):
            out.setdefault(name, []).append(phrase)
    return {k: tuple(sorted(v)) for k, v in out.items()}


@cache
def number_phrases(lang: str, slot: str) -> tuple[str, ...]:
    """The spoken forms a number slot allows."""
    values = {
        "#n": range(37),
        "#digit": range(10),
        "#count": range(1, 5),
        "#amount": AMOUNTS,
    }[slot]
    return tuple(dict.fromkeys(p for v in values for p in spellings(lang, v)))


def slot_phrases(lang: str, slot: str) -> tuple[str, ...]:
    """Every phrase a slot can be said as (empty when the language lacks the terminal)."""
    if slot.startswith("#"):
        return number_phrases(lang, slot)
    return terminal_phrases(lang).get(slot, ())


def usable(lang: str, template: tuple[str, ...]) -> bool:
    """Whether the language has words for every slot of a template."""
    return all(slot_phrases(lang, slot) for slot in template)


def _jsgf_name(slot: str) -> str:
    return {"#n": "num", "#digit": "num", "#count": "count", "#amount": "amount"}.get(
        slot, slot.lower()
    )


NAMES = (
    ("VOISINS",), ("NEIGHBOURS",), ("TIERS",), ("ORPHELINS",), ("ORPHELINS", "STRAIGHT"),
    ("ORPHELINS", "SPLIT"), ("JEU_ZERO",), ("NASSA",), ("RED",), ("BLACK",), ("EVEN",),
    ("ODD",), ("LOW",), ("HIGH",), ("FIRST", "DOZEN"), ("SECOND", "DOZEN"),
    ("THIRD", "DOZEN"), ("LAST", "DOZEN"), ("MIDDLE", "DOZEN"), ("DOZEN", "MIDDLE"),
    ("FIRST", "COLUMN"), ("SECOND", "COLUMN"), ("THIRD", "COLUMN"),
)  # fmt: skip
"""Calls that take no number."""

ARTICLES = frozenset({"the", "le", "la", "les", "il", "i", "gli", "lo", "l'"})
"""Filler words the recogniser grammar lets a croupier say inside a call."""

SPOKEN_AMOUNTS = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 75, 100, 150, 200,
                  250, 300, 500, 1000)  # fmt: skip
"""Stakes the PocketSphinx grammar listens for (fewer choices, fewer confusions)."""


def _spoken(lang: str, numbers: tuple[int, ...]) -> str:
    """JSGF alternatives for saying a group of numbers in order ("five eight")."""
    parts = [f"( {' | '.join(spellings(lang, n))} )" for n in numbers]
    return " ".join(parts)


def _groups(lang: str, groups: Sequence[tuple[int, ...]]) -> str:
    return " | ".join(f"( {_spoken(lang, g)} )" for g in groups)


def legal_groups(kind: str) -> list[tuple[int, ...]]:
    """The numbers a croupier says for each legal position of a kind (rules.md 1.2)."""
    from ..layout import INSIDE, BetKind

    out: list[tuple[int, ...]] = []
    for p in INSIDE.values():
        if p.kind is not BetKind(kind):
            continue
        nums = p.numbers
        out.append(nums if kind == "split" or 0 in nums else (nums[0], nums[-1]))
    return sorted(set(out))


def _rule(lang: str, name: str, body: str) -> str:
    return f"<{name}> = {body};"


def _words(lang: str, slot: str) -> str:
    return "( " + " | ".join(slot_phrases(lang, slot)) + " )"


def _ignored_phrases(lang: str) -> list[str]:
    lexicon = language(lang).lexicon
    return sorted(
        " ".join(words)
        for words, name in lexicon.phrases.items()
        if name in lexicon.fillers and _speakable(words) and lexicon.spoken(words)
    )


TALK_TERMINALS = ("CLOSE", "REFAIRE", "COMPLETER", "TOUT")
"""Table talk the console acts on, so recognisers should hear it."""


def jsgf(lang: str, calls_at_most: int = 2) -> str:
    """A JSGF grammar of legal announcements (one or two calls, each with a stake), a
    confirm or cancel phrase of ``grammar/dialogue.toml``, or table talk that the console
    acts on ("no more bets", the replays).

    Positions are listed as the layout allows them (only real splits, streets, corners
    and six-lines; only offered finales), following voice.md's lesson: expand the legal
    moves into phrasings rather than let the recogniser combine any words.
    """
    from ..house import find_house

    have = terminal_phrases(lang)
    house = find_house()

    def w(slot: str) -> str:
        return f"<{slot.lower()}>"

    finales = sorted(house.horizontal_finales) + [(d, d + 3) for d in range(10)]
    lines = ["#JSGF V1.0;", f"grammar callbets_{lang};"]
    for slot in sorted(have):
        if slot.lower() not in TABLE_TALK:
            lines.append(_rule(lang, slot.lower(), " | ".join(have[slot])))
    lines += [
        _rule(lang, "num", _groups(lang, [(n,) for n in range(37)])),
        _rule(lang, "digit", _groups(lang, [(n,) for n in range(10)])),
        _rule(lang, "count", _groups(lang, [(n,) for n in range(1, 5)])),
        _rule(lang, "amount", _groups(lang, [(n,) for n in SPOKEN_AMOUNTS])),
        _rule(lang, "split_pair", _groups(lang, legal_groups("split"))),
        _rule(lang, "street_pair", _groups(lang, legal_groups("street"))),
        _rule(lang, "corner_pair", _groups(lang, legal_groups("corner"))),
        _rule(lang, "six_pair", _groups(lang, legal_groups("sixline"))),
        _rule(lang, "finale_pair", _groups(lang, finales)),
        _rule(lang, "run", _groups(lang, [(3,), (4,), (6,), (12,)])),
        _rule(lang, "column_number", _groups(lang, [(34,), (35,), (36,)])),
        _rule(lang, "series", _groups(lang, [(5, 8), (0, 2, 3)])),
    ]
    # Only the articles a croupier says inside a call ("and the neighbours"): other
    # filler words are short and would swallow the end of what was said.
    fillers = [f for f in _ignored_phrases(lang) if f in ARTICLES]
    lines.append(_rule(lang, "filler", " | ".join(fillers) or "<VOID>"))
    names = ["[<filler>] " + " ".join(w(s) for s in t) for t in NAMES if usable(lang, t)]
    calls = [
        *names,
        f"{w('SPLIT')} <split_pair>",
        f"<split_pair> [{w('SPLIT')}]",
        f"{w('STREET')} <street_pair>",
        f"{w('CORNER')} <corner_pair>",
        f"{w('SIXLINE')} <six_pair>",
        f"{w('STRAIGHT')} <num>",
        f"<num> [{w('STRAIGHT')}]",
        f"<num> {w('COMPLETE')}",
        f"{w('COMPLETE')} <num>",
        f"<num> ({w('AND')} | {w('WITH')}) [<filler>] [<count>] {w('NEIGHBOURS')}",
        f"{w('NEIGHBOURS')} {w('OF')} <num>",
        f"{w('FINALE')} <digit> [{w('STRAIGHT')}]",
        f"{w('FINALE')} {w('STRAIGHT')} <digit>",
        f"{w('FINALE')} <finale_pair> [{w('SPLIT')}]",
        f"{w('FINALE')} {w('SPLIT')} <finale_pair>",
        f"{w('SPLIT')} {w('FINALE')} <finale_pair>",
        f"<run> ({w('FIRST')} | {w('LAST')})",
        f"{w('FIRST')} <run>",
        f"{w('COLUMN')} <column_number>",
    ]
    if "SERIE" in have:
        calls.append(f"{w('SERIE')} <series>")
    stakes = [" ".join(w(s) if not s.startswith("#") else "<amount>" for s in t)
              for t in STAKES if usable(lang, t)]  # fmt: skip
    lines += [
        "<call> = " + " | ".join(f"( {c} )" for c in calls) + ";",
        "<stake> = " + " | ".join(f"( {s} )" for s in stakes) + ";",
        "<item> = <call> [<stake>];",
        _rule(lang, "dialogue", " | ".join(fold(p) for p in confirmation_phrases(lang))),
        _rule(lang, "talk", " | ".join(p for s in TALK_TERMINALS for p in have.get(s, ()))),
        "public <announcement> = ( <item>"
        + (f" [{w('AND')} <item>] )" if calls_at_most > 1 else " )")
        + " | <dialogue> | <talk>;",
    ]
    return "\n".join(lines) + "\n"


def fill(lang: str, template: tuple[str, ...], rng: random.Random) -> str:
    """One random phrase for a template."""
    return " ".join(rng.choice(slot_phrases(lang, slot)) for slot in template)


def sample_announcements(lang: str, count: int, seed: int = 0) -> list[str]:
    """Spoken-style announcements from the templates that parse at the default house."""
    rng = random.Random(seed)
    calls = [t for t in CALLS if usable(lang, t)]
    stakes = [t for t in STAKES if usable(lang, t)]
    found: dict[str, None] = {}
    joiner = terminal_phrases(lang)["AND"]
    for _ in range(count * 30):
        items = []
        for _ in range(1 + (rng.random() < 0.3)):
            item = fill(lang, rng.choice(calls), rng)
            if rng.random() < 0.6:
                item += " " + fill(lang, rng.choice(stakes), rng)
            items.append(item)
        text = f" {rng.choice(joiner)} ".join(items)
        try:
            parse(text, lang, find_house())
        except AnnouncementError:
            continue
        found[text] = None
        if len(found) >= count:
            break
    return list(found)


def phrase_list(lang: str, samples: int = 400) -> list[str]:
    """The Vosk phrase list: every grammar phrase and number word, then sample announcements.

    Vosk turns it into a bigram model, so single words keep every word reachable and the
    samples teach it which words follow which.
    """
    singles = {p for phrases in terminal_phrases(lang).values() for p in phrases}
    singles |= set(_ignored_phrases(lang)) | set(confirmation_phrases(lang))
    numbers = {p for slot in ("#n", "#amount") for p in number_phrases(lang, slot)}
    return sorted(singles | numbers) + sample_announcements(lang, samples)


def words(lang: str) -> list[str]:
    """Every word a recogniser must know for this language."""
    out = set(itertools.chain.from_iterable(p.split() for p in phrase_list(lang, 0)))
    return sorted(out)
