"""Runs of numbers said first to last: ``de 1 à 18``, ``1 to 18``, ``1-18`` name manque,
passe or a dozen.  Where the language's "to" is also a stake word (French "à") and no
"from" is said, ``1 à 18`` may be the 1 at 18 a piece, and is asked about.  Between other
numbers, a "to" that is only a range word joins the numbers of one position ("street 28
to 30" is 28/30).  Language-neutral: it goes by terminal names and the role words a
language lists (``RANGE_FROM``, ``RANGE_TO``)."""

from __future__ import annotations

from ..errors import AmbiguousError
from ..messages import said as message
from ..roulette.layout import from_pair
from .kinds import FINALE_WORDS, STAKE_WORDS, is_number
from .lexicon import Lexicon, Tok

RANGES: dict[tuple[int, int], str] = {
    (1, 18): "low",
    (19, 36): "high",
    (1, 12): "dozen 1",
    (13, 24): "dozen 2",
    (25, 36): "dozen 3",
}
"""Runs of numbers that name an outside bet, and that bet in notation."""


def _role(tok: Tok | None, lexicon: Lexicon, role: str) -> bool:
    return tok is not None and (tok.type == role or tok.text in lexicon.roles.get(role, ()))


def ranges(toks: list[Tok], lexicon: Lexicon, piece_value: int) -> list[Tok]:
    """The tokens with each run of numbers that names an outside bet made a ``RANGE``
    token, and the numbers of one position said first to last joined (see the module
    docstring).

    :raises AmbiguousError: a run that may also be a number and its stake.
    """
    out: list[Tok] = []
    i = 0
    while i < len(toks):
        found = _range_at(toks, i, lexicon, piece_value)
        if found is None:
            out.append(_from_first(toks, i, out))
            i += 1
            continue
        tok, used = found
        if tok.type == "SLASH":  # "sestina dal 19 al 24": the numbers of one position
            if out and _role(out[-1], lexicon, "RANGE_FROM"):
                out.pop()
            out.extend((toks[i], tok))
            i += 2
            continue
        if out and _role(out[-1], lexicon, "RANGE_FROM"):
            tok = tok._replace(start=out.pop().start)
        out.append(tok)
        i += used
    return out


def _from_first(toks: list[Tok], i: int, out: list[Tok]) -> Tok:
    """ "terzina dal 4", "sestina dal 25": a "from" word with no "to" after, between a
    street or six-line word and a number, says where it starts: an "of" ("terzina del
    4")."""
    tok = toks[i]
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    after_position = bool(out) and out[-1].type in ("STREET", "SIXLINE")
    if tok.type == "RANGE_FROM" and after_position and nxt is not None and is_number(nxt):
        return tok._replace(type="OF")
    return tok


_PAIRED_WORDS = frozenset({"SPLIT", "STREET", "CORNER", "SIXLINE"})
"""Position words that may be followed by their first and last numbers."""
_STAKE_WORDS = STAKE_WORDS | {"EQUALS", "CURRENCY"}
"""Words that make a number after them (or before them) a stake."""


def _position_named(toks: list[Tok], i: int, lexicon: Lexicon, pair: tuple[int, int]) -> bool:
    """ "le carré 8 à 12", "sixain de 13 à 18": a position word, then the first and last
    numbers of a position (whose kind the word must then match)."""
    j = i - 1
    if j >= 0 and _role(toks[j], lexicon, "RANGE_FROM"):
        j -= 1
    if j < 0 or toks[j].type not in _PAIRED_WORDS or pair[0] >= pair[1]:
        return False  # first to last goes up: "la calle del 8 a 5" is the 8's at 5
    return from_pair(*pair) is not None


def _range_at(
    toks: list[Tok], i: int, lexicon: Lexicon, piece_value: int
) -> tuple[Tok, int] | None:
    """A RANGE token for "1 to 18" or "1-18" starting at toks[i], and the tokens it uses."""
    if i + 2 >= len(toks) or toks[i].type != "NUMBER" or toks[i + 2].type != "NUMBER":
        return None
    low, link, high = toks[i], toks[i + 1], toks[i + 2]
    pair = (low.value or 0, high.value or 0)
    _ask_finales_run(toks, i, lexicon, piece_value)
    if pair not in RANGES:
        if link.type == "RANGE_TO":  # "street 28 to 30": the numbers of one position
            return link._replace(type="SLASH"), 1
        if _role(link, lexicon, "RANGE_TO") and _position_named(toks, i, lexicon, pair):
            if not any(t.type in _STAKE_WORDS for t in toks[i + 3 :]):
                said = f"{low.text} {link.text} {high.text}"  # "transversale 13 à 15": 13 at 15?
                raise AmbiguousError(
                    message("position_or_stake", said=said, low=low.value, high=high.value),
                    [],
                    column=low.start,
                )
            return link._replace(type="SLASH"), 1  # "le carré 8 à 12 à 5"
        return None
    if link.type == "SLASH":
        if from_pair(*pair) is not None:  # never: no range is a position
            return None
    elif not _role(link, lexicon, "RANGE_TO"):
        return None
    elif link.type != "RANGE_TO" and not _role(toks[i - 1] if i else None, lexicon, "RANGE_FROM"):
        said = f"{low.text} {link.text} {high.text}"
        raise AmbiguousError(
            message("range_or_stake", said=said, low=low.value, high=high.value),
            [f"{RANGES[pair]} x{piece_value}", f"straight {low.value} x{high.value}"],
            column=low.start,
        )
    text = f"{low.text} {link.text} {high.text}"
    return Tok("RANGE", text, low.start, high.end, pair[0] * 100 + pair[1]), 3


def _ask_finales_run(toks: list[Tok], i: int, lexicon: Lexicon, piece_value: int) -> None:
    """ "finals three to six", "finali dal 3 al 6": after a finale word, two digits joined
    by a word that only says "to" may be the finales from one to the other, each en plein,
    as well as the finale à cheval on both digits.  Asked, never guessed.  ("Finales 3 à
    6", where "to" is also a stake word, is the finale 3 at 6 a piece: every author of
    the Spanish and French sets read the plural so, the usual name of one finale.)

    :raises AmbiguousError: such a run.
    """
    low, link, high = toks[i], toks[i + 1], toks[i + 2]
    said_from = bool(i) and _role(toks[i - 1], lexicon, "RANGE_FROM")
    # "finali dal 3 al 6": after a "from", a "to" that is also "on" says "to"
    # ("finales del 3 a 5": "a" is also the stake's word, and stays it)
    to = link.type == "RANGE_TO" or (
        said_from and link.type == "ON" and _role(link, lexicon, "RANGE_TO")
    )
    if not to or low.value is None or high.value is None:
        return
    if not 0 <= low.value < high.value <= 9:
        return
    j = i - 1 if said_from else i
    if not j or toks[j - 1].type not in FINALE_WORDS:
        return
    each = " ; ".join(f"finale_plein {d} x{piece_value}" for d in range(low.value, high.value + 1))
    split = f"finale_cheval {low.value}/{high.value} x{piece_value}"
    said = f"{low.text} {link.text} {high.text}"
    raise AmbiguousError(
        message("finales_run", said=said, low=low.value, high=high.value),
        [each, split],
        column=low.start,
    )
