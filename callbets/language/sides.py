"""Neighbours counted on each side in turn: "due vicini a destra e due a sinistra" (the
Venice booklet's words), "deux à droite et deux à gauche" are two on each side, as "due
per parte"; and the count said twice, "el 17 con sus vecinos, dos y dos" (Spanish tables'
way), "con tres y tres".  Language-neutral: it goes by terminal names (``RIGHT_SIDE``,
``LEFT_SIDE``, ``AND``, ``NEIGHBOURS``, ``WITH``)."""

from __future__ import annotations

from .lexicon import Tok

SIDE_WORDS = frozenset({"RIGHT_SIDE", "LEFT_SIDE"})


#: A count said twice is one each side only where a count of neighbours is awaited.
COUNT_AFTER = frozenset({"NEIGHBOURS", "WITH"})
#: The most neighbours a side can have (rules.md 3.7: up to nine, at most houses).
MOST_EACH_SIDE = 9


def sides(toks: list[Tok]) -> list[Tok]:
    """The tokens with "N [neighbours] on one side and N on the other" made "N
    [neighbours] each side" (one ``SIDES`` token for the four words), and "N and N"
    said where a count of neighbours is awaited made "N each side".  Two different
    counts, or one side alone, are left as they are, and the parser refuses them."""
    toks = _count_twice(toks)
    if not any(t.type in SIDE_WORDS for t in toks):
        return toks
    out: list[Tok] = []
    i = 0
    while i < len(toks):
        if _both_sides(toks, i):
            out.append(toks[i]._replace(type="SIDES", end=toks[i + 3].end))
            i += 4
            continue
        out.append(toks[i])
        i += 1
    return out


def _both_sides(toks: list[Tok], j: int) -> bool:
    """Whether toks[j:j + 4] is "one side AND count other side", said after the same
    count ("due [vicini] a destra e due a sinistra")."""
    if j + 3 >= len(toks) or toks[j].type not in SIDE_WORDS or toks[j + 1].type != "AND":
        return False
    count = toks[j - 1] if j and toks[j - 1].type == "NUMBER" else None
    if count is None and j > 1 and toks[j - 1].type == "NEIGHBOURS":
        count = toks[j - 2] if toks[j - 2].type == "NUMBER" else None
    other, side = toks[j + 2], toks[j + 3]
    return (
        count is not None
        and other.type == "NUMBER"
        and other.value == count.value
        and side.type in SIDE_WORDS
        and side.type != toks[j].type
    )


def _count_twice(toks: list[Tok]) -> list[Tok]:
    """ "N and N" (the same count) right after the neighbours or "with" ("el 4 y sus
    vecinos, dos y dos"; "el 10 con tres y tres"), or ending a call of neighbours after
    its stake ("vecinos del 32 a 10, dos y dos"): N each side.  Without a centre the
    parser still asks which number's neighbours."""
    out = list(toks)
    for j in range(len(out) - 3, 0, -1):
        if _twice(out, j) and (_awaited(out, j) or _after_neighbours_stake(out, j)):
            side = out[j + 1]._replace(type="SIDES", value=None, end=out[j + 2].end)
            out[j + 1 : j + 3] = [side]
    return out


def _twice(toks: list[Tok], j: int) -> bool:
    first, joined, second = toks[j : j + 3]
    then = toks[j + 3] if j + 3 < len(toks) else None
    return (
        (then is None or then.type != "NUMBER")  # "dos y dos dos": a number lost or misheard
        and first.type == "NUMBER"
        and joined.type == "AND"
        and second.type == "NUMBER"
        and first.value == second.value
        and first.value is not None
        and 1 <= first.value <= MOST_EACH_SIDE
    )


def _awaited(toks: list[Tok], j: int) -> bool:
    """Right after the neighbours word or "with", or after "the neighbours of N" ("el
    sector del 19 dos y dos")."""
    before = j - 1
    if toks[before].type == "COMMA" and before:
        before -= 1
    of_centre = (
        before >= 2
        and toks[before].type == "NUMBER"
        and toks[before - 1].type == "OF"
        and toks[before - 2].type == "NEIGHBOURS"
    )
    return toks[before].type in COUNT_AFTER or of_centre


def _after_neighbours_stake(toks: list[Tok], j: int) -> bool:
    """The pair ends the announcement after a comma, and the call before it is the
    neighbours of a number with no other call between."""
    if j + 3 != len(toks) or toks[j - 1].type != "COMMA":
        return False
    for t in reversed(toks[: j - 1]):
        if t.type == "NEIGHBOURS":
            return True
        if t.type in {"AND", "COMMA", "WITH"}:
            return False
    return False
