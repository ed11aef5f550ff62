"""Mutants of accepted announcements, and how a test decides what each one means.

The cardinal sin is a wrong bet that looks right.  A recogniser loses the first or the last
word, drops or repeats a number word, or swaps two words; a hurried croupier does the same.
For every accepted announcement of the corpus this module makes those mutants, and
:func:`verdict` decides whether the parser's answer to each is acceptable:

* **refused or asked**: always acceptable (the croupier asks again);
* **accepted with the original chips**: acceptable only when the words changed mean
  nothing the rest does not already say: articles, politeness (the grammar's ``ARTICLE``,
  ``POLITE`` and ``BOTH`` terminals), the name of a position whose numbers name it anyway
  ("cheval 5/8" → "5/8"), or two numbers of one position in the other order ("8/5");
* **accepted with other chips**: acceptable only when the mutant says those chips by a
  rule the test applies itself:

  - a number word dropped or repeated changes one number: the chips must be the original
    call with that number replaced by what the mutated words spell ("le dix sept" →
    "le sept": the 7 instead of the 17);
  - a bet's name dropped at either end leaves its numbers, which name a position on their
    own (rules.md 1.2): the chips must be the original with that call replaced by the
    position its numbers name, at the same stake ("douzaine 1 à 5" → "1 à 5": the 1 en
    plein at 5).

Anything else is a **wrong bet** and fails the test, with the mutant and both readings.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from callbets import AnnouncementError, House, parse, parse_notation
from callbets.language.grammar import language
from callbets.language.normalize import Word, words
from callbets.roulette.announcement import Announcement
from callbets.roulette.layout import from_pair, inside

KINDS = ("drop_first", "drop_last", "drop_number", "dup_number", "swap")
POSITION_NAMES = frozenset({"STRAIGHT", "SPLIT", "STREET", "CORNER", "SIXLINE"})


@dataclass(frozen=True)
class Mutant:
    """One changed announcement and what changed."""

    kind: str
    text: str
    changed: tuple[str, ...]
    """The words removed, repeated or swapped (normalised)."""
    number_change: tuple[int, int | None] | None = None
    """For a number-word mutation: (old value, new value or None if gone) of its number."""


def _cut(text: str, w: Word) -> str:
    return f"{text[: w.start]} {text[w.end :]}"


def _is_number_word(lang: str, w: Word) -> bool:
    return w.text.isdigit() or w.text in language(lang).lexicon.number_values


def _run(ws: list[Word], i: int, lang: str) -> tuple[int, int]:
    """The run of number words around ws[i] (indexes [a, b)), with the words that join
    them ("one hundred and five"); digits stand alone."""
    if ws[i].text.isdigit():
        return i, i + 1
    joins = language(lang).composer.join_words

    def inside(k: int) -> bool:
        word = ws[k].text
        if word.isdigit():
            return False
        if word in joins:
            return 0 < k < len(ws) - 1 and _is_number_word(lang, ws[k + 1])
        return _is_number_word(lang, ws[k])

    a = i
    while a > 0 and inside(a - 1):
        a -= 1
    b = i + 1
    while b < len(ws) and inside(b):
        b += 1
    return a, b


def _group(ws: list[Word], i: int, lang: str) -> tuple[int, int]:
    """The number ws[i] is part of, read longest first as the parser reads it."""
    a, b = _run(ws, i, lang)
    start = a
    while start < b:
        end = next((e for e in range(b, start, -1) if _spell(lang, ws[start:e]) is not None),
                   start + 1)  # fmt: skip
        if start <= i < end:
            return start, end
        start = end
    return i, i + 1


def _spell(lang: str, ws: list[Word]) -> int | None:
    """The one number some words spell in this language, or None."""
    from callbets.language.lexicon import Tok

    grammar = language(lang)
    values = grammar.lexicon.number_values
    said = [w.text for w in ws]
    for k in range(len(said) - 1, 0, -1):  # number words of two words ("quatre vingt")
        if f"{said[k - 1]} {said[k]}" in values:
            said[k - 1 : k + 1] = [f"{said[k - 1]} {said[k]}"]
    toks = [Tok("N", w, 0, 0, int(w) if w.isdigit() else values.get(w)) for w in said]
    if not toks:
        return None
    if len(toks) == 1 and toks[0].value is not None:
        return toks[0].value
    return grammar.composer.value(toks)


def _number_change(ws: list[Word], i: int, lang: str, twice: bool) -> tuple[int, int | None] | None:
    """(old, new) value of the number ws[i] belongs to once it is dropped (or said twice)."""
    a, b = _group(ws, i, lang)
    old = _spell(lang, ws[a:b])
    rest = ws[a : i + 1] + ws[i:b] if twice else ws[a:i] + ws[i + 1 : b]
    new = _spell(lang, rest) if rest else None
    if old is None or (rest and new is None):
        return None
    return old, new


def _swap_change(ws: list[Word], i: int, lang: str) -> tuple[int, int | None] | None:
    """Two words of one number swapped ("one hundred" → "hundred one"): (old, new)."""
    if not (_is_number_word(lang, ws[i]) and _is_number_word(lang, ws[i + 1])):
        return None
    a, b = _group(ws, i, lang)
    if not a <= i + 1 < b:
        return None
    old = _spell(lang, ws[a:b])
    new = _spell(lang, [*ws[a:i], ws[i + 1], ws[i], *ws[i + 2 : b]])
    return (old, new) if old is not None and new is not None else None


def mutants(text: str, lang: str) -> Iterator[Mutant]:
    """Every mutant of one announcement."""
    ws = words(text)
    if len(ws) < 2:
        return
    for kind, i in (("drop_first", 0), ("drop_last", len(ws) - 1)):
        change = _number_change(ws, i, lang, False) if _is_number_word(lang, ws[i]) else None
        yield Mutant(kind, _cut(text, ws[i]), (ws[i].text,), change)
    for i, w in enumerate(ws):
        if not _is_number_word(lang, w):
            continue
        yield Mutant("drop_number", _cut(text, w), (w.text,), _number_change(ws, i, lang, False))
        dup = f"{text[: w.end]} {text[w.start : w.end]}{text[w.end :]}"
        yield Mutant("dup_number", dup, (w.text,), _number_change(ws, i, lang, True))
    for i, (a, b) in enumerate(itertools.pairwise(ws)):
        if a.text == b.text or not (a.text[0].isalnum() and b.text[0].isalnum()):
            continue
        between = text[a.end : b.start] or " "
        swapped = text[: a.start] + text[b.start : b.end] + between + text[a.start : a.end]
        yield Mutant("swap", swapped + text[b.end :], (a.text, b.text), _swap_change(ws, i, lang))


def _meaning(text: str, lang: str) -> tuple[tuple[str, int | None], ...] | None:
    """The terminals a text is made of, fillers left out (None if it does not lex)."""
    lexicon = language(lang).lexicon
    try:
        toks = lexicon.lex(words(text), text)
        # a repeat word ("Croupier, …", "Repito: …") or the croupier's confirming word
        # ("…, anotado") said before or after the bet only
        kept = [t for t in toks if t.type not in ("COMMA", "READ_BACK", "CONFIRM")]
        return tuple((t.type, t.value) for t in kept)
    except AnnouncementError:
        return None


def _terminal(lang: str, word: str) -> str | None:
    return language(lang).lexicon.phrases.get((word,))


def _is_number(lang: str, word: str) -> bool:
    return word.isdigit() or word in language(lang).lexicon.number_values


STAKE_WORDS = frozenset({"EACH", "IN_ALL", "CURRENCY", "PIECES"})


CONFIRMING = POSITION_NAMES | STAKE_WORDS | {"HORIZONTAL", "VERTICAL", "DOZEN", "COLUMN"}
"""Words whose meaning the rest may already say: "cheval" before 5/8, "vertical" before
1/4, "each" after a one-piece bet's stake."""


def _same_chips_allowed(m: Mutant, original: Announcement, lang: str) -> bool:
    if m.kind in ("swap", "dup_number"):
        return True  # the same words in another order, or a total said twice and checked
    if m.number_change is not None:
        old, new = m.number_change
        if old == new or (new is None and old == original.total):
            return True  # "one hundred" → "hundred"; the total said again, dropped
        positions = [p.position.numbers for c in original.calls for p in c.placements]
        if new is None and any(old in nums and len(nums) > 2 for nums in positions):
            return True  # "34 35 36" → "34 36": the street named by its ends
    if _meaning(m.text, lang) == _meaning(original.text, lang):
        return True  # only articles or politeness changed
    roles = language(lang).lexicon.roles
    if m.changed[0] in roles.get("RANGE_FROM", ()):
        return True  # "from 13 to 24" → "13 to 24"
    if m.changed[0] in roles.get("INDEFINITE", ()) or _terminal(lang, m.changed[0]) == "ARTICLE":
        return True  # "un cheval 8/11" → "cheval 8/11"; "l'uno" → "uno"
    if m.kind == "drop_first" and _terminal(lang, m.changed[0]) == "ON":
        return True  # "sur le rouge 50 euros" → "le rouge 50 euros": a leading "on" says nothing
    return _terminal(lang, m.changed[0]) in CONFIRMING


def _reread(name: str, nums: list[int]) -> str | None:
    """A call with one of its numbers gone, as its remaining numbers name it."""
    if not nums:
        return None
    if name == "finale_cheval":
        return f"finale_plein {nums[0]}" if len(nums) == 1 else None
    if name in ("split", "street", "corner", "sixline", "straight"):
        pos = inside(tuple(nums)) if len(nums) != 2 else from_pair(*nums)
        return f"{pos.kind.value} {'/'.join(map(str, pos.numbers))}" if pos else None
    if name == "neighbours":
        return f"neighbours {'+'.join(map(str, nums))}"
    return None


def _number_changes(original: Announcement, old: int, new: int | None) -> set[str]:
    """The notations of the original with one ``old`` number replaced by ``new``, or gone:
    a position's or centre's number, a neighbour count (``n3``), or the stake (``x5``)."""
    out = set()
    calls = original.notation().split(" ; ")
    for i, call in enumerate(calls):
        name, *args = call.split()
        for j, arg in enumerate(args):
            if arg in (f"n{old}", f"x{old}"):
                if new is None and arg.startswith("x"):
                    continue
                changed = " ".join([name, *args[:j], *([f"{arg[0]}{new}"] if new else []),
                                    *args[j + 1 :]])  # fmt: skip
                out.add(" ; ".join([*calls[:i], changed, *calls[i + 1 :]]))
                continue
            if j == len(args) - 1 or arg.startswith("n"):
                continue
            sep = "+" if "+" in arg else "/"
            parts = arg.replace("+", "/").split("/")
            for k, p in enumerate(parts):
                if p != str(old):
                    continue
                if new is not None:
                    changed = " ".join([name, *args[:j], sep.join([*parts[:k], str(new),
                                        *parts[k + 1 :]]), *args[j + 1 :]])  # fmt: skip
                else:
                    rest = [int(x) for x in parts[:k] + parts[k + 1 :]]
                    again = _reread(name, rest)
                    if again is None:
                        continue
                    changed = " ".join([again, *args[j + 1 :]])
                out.add(" ; ".join([*calls[:i], changed, *calls[i + 1 :]]))
    return out


def _swapped(original: Announcement, a: int, b: int) -> set[str]:
    """The original with two numbers exchanged everywhere ("17 5 a pezzo" → "5 17 …")."""
    text = original.notation()
    marker = "\0"
    out = re.sub(rf"(?<![0-9]){a}(?![0-9])", marker, text)
    out = re.sub(rf"(?<![0-9]){b}(?![0-9])", str(a), out)
    return {out.replace(marker, str(b))}


def _numbers_in(text: str, lang: str) -> set[int]:
    """Every number a text may say: each number word or digit run, and the numbers its
    words compose."""
    ws = words(text)
    found: set[int] = set()
    for i, w in enumerate(ws):
        if _is_number_word(lang, w):
            value = _spell(lang, [w])
            if value is not None:
                found.add(value)
            a, b = _group(ws, i, lang)
            value = _spell(lang, ws[a:b])
            if value is not None:
                found.add(value)
    return found


def _matches(got: Announcement, expected: str, original: Announcement, house: House) -> bool:
    """Same chips, or the same positions and the original total (a total re-divided)."""
    try:
        want = parse_notation(expected, house)
    except AnnouncementError:
        return False
    if got.merged() == want.merged():
        return True
    return set(got.merged()) == set(want.merged()) and got.total == original.total


def _all_plain_and_said(got: Announcement, m: Mutant, lang: str) -> bool:
    """Every chip placed is a position named by numbers the mutant says: nothing hidden."""
    said = _numbers_in(m.text, lang)
    return all(
        not c.call.is_called_bet
        and c.call.numbers
        and set(c.call.numbers) <= said
        and c.call.name not in ("dozen", "column")
        for c in got.calls
    )


def _ends_reread(original: Announcement, got: Announcement, m: Mutant, lang: str) -> bool:
    """A bet's name dropped at an end: what is left is the other calls unchanged, and
    plain positions (or neighbours) of numbers the mutant says, at the same stake (or the
    same total, when the stake was said as a total)."""
    said = _numbers_in(m.text, lang)
    before = {c.notation() for c in original.calls}
    end = original.calls[-1 if m.kind == "drop_last" else 0]
    for c in got.calls:
        if c.notation() in before:
            continue
        if c.call.is_called_bet and c.call.name != "neighbours":
            return False
        if c.call.name in ("dozen", "column") or not set(c.call.numbers) <= said:
            return False
        if c.unit != end.unit and got.total != original.total:
            return False
    return True


def verdict(original: Announcement, m: Mutant, lang: str, house: House) -> tuple[str, str]:
    """(``refused`` | ``same`` | ``explained`` | ``WRONG``, what the parser answered)."""
    try:
        got = parse(m.text, lang, house)
    except AnnouncementError as err:
        return "refused", f"{err.kind}: {err.message}"
    said = got.notation()
    expected: set[str] = set()
    if m.number_change is not None:
        old, new = m.number_change
        expected |= _number_changes(original, old, new)
        same_bets = set(got.merged()) == set(original.merged())
        if new is not None and new > 0 and same_bets and got.total == new:
            return "explained", said  # the total said changed: the same bets for that total
    if m.kind == "swap" and all(_is_number(lang, w) for w in m.changed):
        a, b = (_spell(lang, [Word(w, 0, 0)]) for w in m.changed)
        if a is not None and b is not None:
            expected |= _swapped(original, a, b)
    if any(_matches(got, e, original, house) for e in expected):
        return "explained", said
    if got.merged() == original.merged():
        if _same_chips_allowed(m, original, lang) or _all_plain_and_said(got, m, lang):
            return "same", said
        return "WRONG", said
    ends = ("drop_first", "drop_last", "drop_number")
    if m.kind in ends and _ends_reread(original, got, m, lang):
        return "explained", said
    return "WRONG", said
