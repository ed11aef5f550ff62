"""The bet said again: the croupier repeating it ("Tiers par 5. Croupier : tiers par 5,
trente euros, c'est joué", "repito: …") or the player confirming it ("Orfanelli da
cinque? — Sì, orfanelli da cinque").  Language-neutral: it goes by the ``READ_BACK``
terminal (each language's words, in ``grammar/<lang>.lark``).

The croupier always repeats the announcement (rules.md, after the Venice booklet), so a
repeat is the same bet once, never a second one; it is read so only when it is the same
bet, word for word once the words are read (it may add the total, which is then checked:
"tercio a diez, sesenta"), or its end alone ("le tiers pour soixante, oui, soixante").
A repeat that says something else is asked: the first, or the second?  A repeat word
at the start, or with nothing after it, repeats nothing and is dropped ("Croupier,
voisins à 5").  The croupier's word after the repeat (``CONFIRM``:
"c'est noté", "confirmado") says the same: the same bet said twice right before it is
the bet and its repeat, once ("tercio a 5, tercio a 5, confirmado").  The same bet said
twice with neither stays a question for the parser (once, or twice?).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .lexicon import Tok

READ_BACK = "READ_BACK"
CONFIRM = "CONFIRM"
EDGES = frozenset({"COMMA", "AND", READ_BACK})
"""Dropped at either end of what is compared: separators, and a repeat word with nothing
after it ("… ¿confirmado? Jugador: sí")."""
LEADING = frozenset({"CORRECTION"})
"""What may come before a repeat word at the start: a correction of nothing ("excuse
me, croupier, …"), dropped later."""


class Repeat(NamedTuple):
    """The tokens once the repeats are read, and the word after which the bet may have
    been said again in other words ("—Vecinos a 25. —Vecinos del cero a veinticinco,
    van"): whether it was is known only once the calls are placed
    (:meth:`~callbets.language.assemble.place.Placing.announcement`)."""

    tokens: tuple[Tok, ...]
    marker: Tok | None = None


def repeated(toks: Sequence[Tok], yes: frozenset[str] = frozenset()) -> Repeat:
    """The tokens with every repeat read word for word (see the module docstring); where
    one is not, the two parts with a comma between, and its word.

    :param yes: the words of the repeat role that say "yes" ("oui", "sí"): said last, they
        confirm one bet, and the calls before them must be one bet, or one said twice
        ("—Vecinos a 5. —¿Tercio a 5? —Sí": which one is confirmed? asked).
    """
    out = _confirmed(toks)
    marker = out.marker
    while any(t.type == READ_BACK for t in out.tokens):
        at = next(i for i, t in enumerate(out.tokens) if t.type == READ_BACK)
        out = _read(out.tokens[:at], out.tokens[at], out.tokens[at + 1 :], yes)
        marker = out.marker or marker
    return Repeat(out.tokens, marker)


def _confirmed(toks: Sequence[Tok]) -> Repeat:
    """Without the croupier's confirming words; the bet said twice before the first of
    them, the second time perhaps with its total, is said once."""
    at = next((i for i, t in enumerate(toks) if t.type == CONFIRM), None)
    if at is None:
        return Repeat(tuple(toks))
    said, rest = _trim(toks[:at]), [t for t in toks[at + 1 :] if t.type != CONFIRM]
    for half in range(1, len(said) // 2 + 1):
        first, again = said[:half], _trim(said[half:])
        if _same(first, again[:half]) and _adds_total(again[half:]):
            return Repeat((*again, *rest))
    return Repeat((*said, *rest), toks[at] if said else None)


def _read(before: Sequence[Tok], marker: Tok, after: Sequence[Tok], yes: frozenset[str]) -> Repeat:
    first, again = _trim(before), _trim(after)
    if all(t.type in LEADING for t in first):  # "excuse me, croupier, …": nothing yet
        return Repeat((*first, *again))
    if not again:  # "…, sí": it confirms one bet
        return Repeat(tuple(first), marker if marker.text in yes else None)
    if _same(first, again[: len(first)]) and _adds_total(again[len(first) :]):
        return Repeat(tuple(again))
    if len(again) < len(first) and _same(first[-len(again) :], again):
        return Repeat(tuple(first))  # "le tiers pour soixante, oui, soixante": its end again
    pause = marker._replace(type="COMMA", text=",", end=marker.start)
    return Repeat((*first, pause, *again), marker)


def _trim(toks: Sequence[Tok]) -> list[Tok]:
    """Without the separators and repeat words at either end."""
    out = list(toks)
    while out and out[0].type in EDGES:
        out.pop(0)
    while out and out[-1].type in EDGES:
        out.pop()
    return out


def _same(a: Sequence[Tok], b: Sequence[Tok]) -> bool:
    """The same bet once read: the same kinds of token with the same values ("tiers par
    5", "tiers à cinq"), whatever their spelling."""
    return len(a) == len(b) and all(
        x.type == y.type and x.value == y.value for x, y in zip(a, b, strict=True)
    )


def _adds_total(rest: Sequence[Tok]) -> bool:
    """Nothing more, or only a total said as a check after a comma ("…, trente", "…, =
    30", "…, son 30"): the parser checks it against the bet."""
    if not rest:
        return True
    kinds = [t.type for t in rest]
    return kinds[0] == "COMMA" and all(k in {"COMMA", "NUMBER", "MONEY", "EQUALS"} for k in kinds)
