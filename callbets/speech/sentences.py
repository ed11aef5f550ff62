"""Spoken announcements generated from the grammar, for the recognisers' language models.

Templates are sequences of slots: a grammar terminal (filled with one of the language's
phrases for it), an optional terminal (``"ARTICLE?"``), or a number class (``#n`` 0-36,
``#amount`` …).  Positions are drawn from the layout (only real splits, streets, corners,
six-lines; only the finales the house offers), so a sentence says a legal bet far more
often than not; the parser, not the language model, decides what is legal.  The same
templates serve every language: a language without a terminal skips the templates that
need it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from functools import cache

from ..language.grammar import language
from ..language.lexicon import Tok
from ..language.vocabulary import spellings
from ..roulette.calls import ONE_WORD_CALLS
from ..roulette.house import find_house
from ..roulette.layout import INSIDE, BetKind

# ---- templates --------------------------------------------------------------------------
CALLS: tuple[tuple[str, ...], ...] = (
    ("ARTICLE?", "VOISINS"), ("ARTICLE?", "TIERS"), ("ARTICLE?", "ORPHELINS"),
    ("ORPHELINS", "STRAIGHT"), ("ARTICLE?", "JEU_ZERO"), ("ARTICLE?", "NASSA"),
    ("SERIE", "#serie"),
    ("#n", "AND", "ARTICLE?", "NEIGHBOURS"), ("#n", "WITH", "ARTICLE?", "NEIGHBOURS"),
    ("#n", "AND", "#count", "NEIGHBOURS"), ("#n", "AND", "#count", "NEIGHBOURS", "SIDES"),
    ("#n", "WITH", "#count", "NEIGHBOURS"), ("#n", "AND", "#count", "SIDES"),
    ("ARTICLE?", "NEIGHBOURS", "OF", "#n"), ("#n", "AND", "#n", "AND", "ARTICLE?", "NEIGHBOURS"),
    ("FINALE", "#digit"), ("FINALE", "#digit", "STRAIGHT"), ("FINALE", "#finale"),
    ("SPLIT", "FINALE", "#finale"), ("FINALE", "#finale", "SPLIT"),
    ("COMPLETE", "#n"), ("#n", "COMPLETE"),
    ("STRAIGHT", "#n"), ("#n", "STRAIGHT"), ("SPLIT", "#split"), ("STREET", "#street"),
    ("CORNER", "#corner"), ("SIXLINE", "#sixline"), ("FIRST", "#four"),
    ("FIRST", "DOZEN"), ("SECOND", "DOZEN"), ("THIRD", "DOZEN"), ("LAST", "DOZEN"),
    ("MIDDLE", "DOZEN"), ("DOZEN", "MIDDLE"), ("FIRST", "COLUMN"), ("SECOND", "COLUMN"),
    ("THIRD", "COLUMN"), ("LAST", "COLUMN"), ("#dozen_run", "FIRST"), ("#dozen_run", "LAST"),
    ("RED",), ("BLACK",), ("EVEN",), ("ODD",), ("LOW",), ("HIGH",), ("#range",),
)  # fmt: skip
"""The shapes of one call."""

RARE_CALLS: tuple[tuple[str, ...], ...] = (
    ("ARTICLE?", "FIRST", "#two", "DOZENS"), ("ARTICLE?", "#two", "FIRST", "DOZENS"),
    ("ARTICLE?", "LAST", "#two", "DOZENS"), ("ARTICLE?", "#two", "LAST", "DOZENS"),
    ("ARTICLE?", "FIRST", "#two", "COLUMNS"), ("ARTICLE?", "#two", "FIRST", "COLUMNS"),
    ("ARTICLE?", "LAST", "#two", "COLUMNS"), ("ARTICLE?", "#two", "LAST", "COLUMNS"),
    ("ARTICLE?", "DOZENS", "#third", "AND", "#third"),
    ("ARTICLE?", "COLUMNS", "#third", "AND", "#third"),
    ("ARTICLE?", "FINALES", "#digit"), ("ARTICLE?", "FINALES", "#digit", "AND", "#digit"),
    ("FINALE", "HORIZONTAL", "#finale"), ("FINALE", "VERTICAL", "#finale"),
    ("ARTICLE?", "FERRARI"), ("COLUMN", "#column"), ("RANGE_FROM", "#range"),
)  # fmt: skip
"""Shapes said less often (two dozens, finales in the plural …): one call in sixteen."""

LATE_CALLS: tuple[tuple[str, ...], ...] = (
    ("#n", "WITH_SPLITS"), ("#times", "TIMES", "ARTICLE?", "VOISINS"),
    ("ARTICLE?", "TIERS", "#times", "TIMES"), ("#n", "#times", "TIMES"),
    ("ARTICLE?", "TIERS", "ALSO"), ("ALSO", "ARTICLE?", "ORPHELINS"),
    ("ARTICLE?", "DOUBLE_ZERO"), ("MONEY5", "ON", "RED"), ("BLACK", "MONEY10"),
)  # fmt: skip
"""Shapes the parser learnt after the model's decision thresholds were calibrated (a
number with its splits, "deux fois", "aussi", the double zero, heard so that it is
refused rather than misheard as the zero, and English "a fiver", "a tenner").  They
are drawn on their own (:func:`late_sentences`), so that the sentences drawn before
stay the same and the calibrated model moves as little as it can."""

STAKES: tuple[tuple[str, ...], ...] = (
    ("PIECE_PREFIX", "#amount"), ("#amount", "EACH"), ("TOTAL_PREFIX", "#amount"),
    ("#amount", "IN_ALL"), ("PIECE_PREFIX", "#amount", "CURRENCY"),
    ("TOTAL_PREFIX", "#amount", "EACH"),
)  # fmt: skip
"""The shapes of a stake."""

RARE_STAKES: tuple[tuple[str, ...], ...] = (
    ("#pieces", "PIECES", "PIECE_PREFIX", "#amount"), ("EQUALS", "#amount"),
    ("EITHER_PREFIX", "#amount"), ("BOTH", "PIECE_PREFIX", "#amount"),
)  # fmt: skip
"""Stakes said less often ("9 pièces à 5", "ça fait 50", "tous les deux à 5")."""
LEAD_STAKE = ("#amount", "ON", "ARTICLE?")
"""A stake said before its bet ("5 on red", "10 sur le 17")."""

COMMON_AMOUNTS = (*range(1, 31), 35, 40, 45, 50, 60, 70, 75, 80, 90, 100, 120, 125, 150, 200,
                  250, 300, 400, 500, 1000)  # fmt: skip
"""Stakes croupiers say most."""
AMOUNTS = tuple(sorted({*COMMON_AMOUNTS, *range(1, 101), *range(110, 310, 10),
                        *range(350, 1050, 50)}))  # fmt: skip
"""Every amount a recogniser is prepared to hear (totals are any number: in Italian
"cinquantacinque" is one word of its own)."""

NUMBER_CLASSES = {
    "#n": tuple(range(37)), "#digit": tuple(range(10)), "#count": (1, 2, 3, 4),
    "#amount": AMOUNTS, "#two": (2,), "#third": (1, 2, 3), "#column": (34, 35, 36),
    "#pieces": (5, 6, 7, 8, 9, 17, 27, 40), "#times": (2, 3),
}  # fmt: skip


@cache
def glues_numbers(lang: str) -> bool:
    """Whether the language writes a ten and its unit as one word, as recognisers then
    output them (Italian "cinquantacinque"): its grammar lists such words itself
    ("ventidue"), where French and English list only the parts."""
    values = language(lang).lexicon.number_values
    return any(v > 20 and v % 10 and " " not in w for w, v in values.items())


VOWELS = frozenset("aeiou")


@cache
def said_numbers(lang: str, value: int) -> tuple[str, ...]:
    """How a number is said and written by a recogniser: :func:`spellings`, with the
    parts glued into one word where the language glues them ("cinquanta cinque" →
    "cinquantacinque"; an elided form before a vowel: "quarant" + "otto")."""
    regional = language(lang).lexicon.roles.get("REGIONAL", frozenset())
    common = tuple(f for f in spellings(lang, value) if not set(f.split()) & regional)
    forms = common or spellings(lang, value)  # "septante": Swiss tables are heard, but
    # the model is counted from the words every table says ("soixante dix")
    if not glues_numbers(lang):
        return forms
    glued = [_glue(lang, form.split(), value) if " " in form else form for form in forms]
    return tuple(dict.fromkeys(g for g in glued if g)) or forms


def _glue(lang: str, parts: list[str], value: int) -> str | None:
    """The parts as one word, each in its full or elided form as the next part needs;
    None when the grammar would not read the glued word back as the value."""
    lexicon = language(lang).lexicon
    words = lexicon.number_values
    chosen = []
    for i, part in enumerate(parts):
        same = sorted((w for w, v in words.items() if v == words.get(part) and " " not in w),
                      key=len)  # fmt: skip
        if not same:
            return None
        before_vowel = i + 1 < len(parts) and parts[i + 1][0] in VOWELS
        chosen.append(same[0] if before_vowel else same[-1])
    glued = "".join(chosen)
    split = lexicon.glued_numbers(glued)
    composer = language(lang).composer
    if split is None:
        return None
    toks = [Tok("N", w, 0, 0, words[w]) for w in split]
    return glued if composer.value(toks) == value else None


@cache
def phrases(lang: str) -> dict[str, tuple[str, ...]]:
    """Terminal → the phrases a speaker may say for it (typed forms left out)."""
    lexicon = language(lang).lexicon
    out: dict[str, list[str]] = {}
    for words, name in lexicon.phrases.items():
        if lexicon.spoken(words) and all(w.replace("'", "").isalpha() for w in words):
            out.setdefault(name, []).append(" ".join(words))
    return {k: tuple(sorted(v)) for k, v in out.items()}


@cache
def _positions(kind: str) -> tuple[tuple[int, ...], ...]:
    """The numbers said for each legal position of a kind (two ends, or all for zero's)."""
    out = set()
    for p in INSIDE.values():
        if p.kind is BetKind(kind):
            nums = p.numbers
            out.add(nums if kind == "split" or 0 in nums else (nums[0], nums[-1]))
    return tuple(sorted(out))


@cache
def _finales() -> tuple[tuple[int, int], ...]:
    house = find_house()
    return (*sorted(house.horizontal_finales), *((d, d + 3) for d in range(7)))


GROUPS: dict[str, Callable[[], tuple[tuple[int, ...], ...]]] = {
    "#split": lambda: _positions("split"),
    "#street": lambda: _positions("street"),
    "#corner": lambda: _positions("corner"),
    "#sixline": lambda: _positions("sixline"),
    "#finale": _finales,
    "#serie": lambda: ((5, 8), (0, 2, 3)),
    "#four": lambda: ((4,),),
    "#dozen_run": lambda: ((3,), (4,), (6,), (12,), (24,)),
    "#range": lambda: ((1, 18), (19, 36), (1, 12), (13, 24), (25, 36)),
}
"""Number groups said together: legal positions, finales, runs."""  # fmt: skip


def usable(lang: str, template: Sequence[str]) -> bool:
    """Whether the language has words for every slot of a template."""
    have = phrases(lang)
    return all(s.startswith("#") or s.endswith("?") or s in have for s in template) and (
        not any(s == "#range" for s in template) or "RANGE_TO" in have
    )


class Sentences:
    """Random announcements of one language, said as a croupier says them."""

    def __init__(self, lang: str, seed: int = 0) -> None:
        self.lang, self.rng = lang, random.Random(seed)
        self.have = phrases(lang)
        self.calls = [t for t in CALLS if usable(lang, t)]
        self.rare_calls = [t for t in RARE_CALLS if usable(lang, t)]
        self.stakes = [t for t in STAKES if usable(lang, t)]
        self.rare_stakes = [t for t in RARE_STAKES if usable(lang, t)]

    def call(self) -> str:
        """One call, now and then of a rarer shape, now and then with its stake first."""
        rng = self.rng
        rare = self.rare_calls and rng.random() < 1 / 16
        text = self.fill(rng.choice(self.rare_calls if rare else self.calls))
        if usable(self.lang, LEAD_STAKE) and rng.random() < 0.05:
            return f"{self.fill(LEAD_STAKE)} {text}"
        if self.stakes and rng.random() < 0.65:
            rare = self.rare_stakes and rng.random() < 0.1
            text += " " + self.fill(rng.choice(self.rare_stakes if rare else self.stakes))
        return text

    def number(self, n: int) -> str:
        """One way of saying a number."""
        return self.rng.choice(said_numbers(self.lang, n))

    def slot(self, slot: str) -> str:
        """Words for one slot of a template ("" for an optional slot left out)."""
        rng = self.rng
        if slot.endswith("?"):
            name = slot[:-1]
            return rng.choice(self.have[name]) if name in self.have and rng.random() < 0.4 else ""
        if slot == "#amount" and rng.random() < 0.93:
            return self.number(rng.choice(COMMON_AMOUNTS))
        if slot in NUMBER_CLASSES:
            return self.number(rng.choice(NUMBER_CLASSES[slot]))
        if slot == "#range":
            low, high = rng.choice(GROUPS[slot]())
            if "RANGE_TO" not in self.have:
                return ""
            return f"{self.number(low)} {rng.choice(self.have['RANGE_TO'])} {self.number(high)}"
        if slot in GROUPS:
            return " ".join(self.number(n) for n in rng.choice(GROUPS[slot]()))
        return rng.choice(self.have[slot])

    def fill(self, template: Sequence[str]) -> str:
        """Words for a whole template."""
        return " ".join(w for w in (self.slot(s) for s in template) if w)

    def announcement(self) -> str:
        """One announcement: one to three calls, most with a stake, now and then polite."""
        rng = self.rng
        items = []
        for _ in range(rng.choice((1, 1, 1, 1, 2, 2, 3))):
            items.append(self.call())
        joiner = self.have.get("AND", ("and",))
        text = f" {rng.choice(joiner)} ".join(items)
        if "POLITE" in self.have and rng.random() < 0.08:
            polite = rng.choice(self.have["POLITE"])
            text = f"{text} {polite}" if rng.random() < 0.6 else f"{polite} {text}"
        return text

    def __iter__(self) -> Iterator[str]:
        while True:
            yield self.announcement()


def sentences(lang: str, count: int, seed: int = 0) -> list[str]:
    """``count`` spoken announcements (repeats allowed: they weigh a language model)."""
    gen = iter(Sentences(lang, seed))
    return [next(gen) for _ in range(count)]


def regional_sentences(lang: str, said: list[str], per_word: int = 20) -> list[str]:
    """A few of the sentences ``said`` again with each regional number word (the
    ``REGIONAL`` role: Swiss "septante", British "nought") in place of the common words
    for its value, so that the recognisers can say it without it taking the common
    word's place in every other sentence."""
    lexicon = language(lang).lexicon
    out = []
    for word in sorted(lexicon.roles.get("REGIONAL", frozenset())):
        value = lexicon.number_values.get(word)
        common = f" {said_numbers(lang, value)[0]} " if value is not None else ""
        found = [s for s in said if common and common in f" {s} "][:per_word]
        out += [f" {s} ".replace(common, f" {word} ", 1).strip() for s in found]
    return out


def registry_sentences(lang: str, count: int, seed: int = 3) -> list[str]:
    """Announcements of the called bets one word names (the registry's,
    :data:`callbets.roulette.calls.ONE_WORD_CALLS`) that no template above says, so that
    a called bet added to the registry and the grammars is heard without a template of
    its own, and without moving the sentences of the others (none today)."""
    templated = {t for shape in (*CALLS, *RARE_CALLS, *LATE_CALLS) for t in shape}
    words = sorted(w.upper() for w in ONE_WORD_CALLS if w.upper() not in templated)
    gen = Sentences(lang, seed)
    gen.calls = [t for t in (("ARTICLE?", w) for w in words) if usable(lang, t)]
    gen.rare_calls = []
    return [gen.call() for _ in range(count)] if gen.calls else []


def late_sentences(lang: str, count: int, seed: int = 0) -> list[str]:
    """``count`` spoken announcements of the :data:`LATE_CALLS` shapes, each with a stake
    now and then, as :meth:`Sentences.call` says a call."""
    gen = Sentences(lang, seed)
    gen.calls = [t for t in LATE_CALLS if usable(lang, t)]
    gen.rare_calls = []
    return [gen.call() for _ in range(count)] if gen.calls else []
