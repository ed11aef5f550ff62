"""Neighbours counted on each side in turn: "due vicini a destra e due a sinistra" (the
Venice booklet's words), "deux à droite et deux à gauche" are two on each side, as "due
per parte".  Language-neutral: it goes by terminal names (``RIGHT_SIDE``, ``LEFT_SIDE``,
``AND``, ``NEIGHBOURS``)."""

from __future__ import annotations

from .lexicon import Tok

SIDE_WORDS = frozenset({"RIGHT_SIDE", "LEFT_SIDE"})


def sides(toks: list[Tok]) -> list[Tok]:
    """The tokens with "N [neighbours] on one side and N on the other" made "N
    [neighbours] each side" (one ``SIDES`` token for the four words).  Two different
    counts, or one side alone, are left as they are, and the parser refuses them."""
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
