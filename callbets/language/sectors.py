"""A sector said by how many numbers it holds: "settore del 13, 5 numeri", "le secteur du
17, 7 numéros" is the number and as many neighbours on each side as make that count (2
and 3).  Language-neutral: it goes by terminal names (``SECTOR_NUMBERS``, the word for
"numbers" said after a count, and ``NEIGHBOURS``)."""

from __future__ import annotations

from .lexicon import Tok

SECTOR_NUMBERS = "SECTOR_NUMBERS"


def sectors(toks: list[Tok]) -> list[Tok]:
    """The tokens with "5 numeri" said of a sector made "2 per parte" (a count and the
    sides word).  An even count, or a count with no neighbours word in the announcement,
    is left as it is, and the parser refuses it."""
    if not any(t.type == "NEIGHBOURS" for t in toks):
        return toks
    out: list[Tok] = []
    for tok in toks:
        before = out[-1] if out else None
        if tok.type == SECTOR_NUMBERS and _sector_size(before) and _of_a_sector(out[:-1]):
            assert before is not None and before.value is not None
            out[-1] = before._replace(value=before.value // 2)
            out.append(tok._replace(type="SIDES"))
            continue
        out.append(tok)
    return out


def _sector_size(tok: Tok | None) -> bool:
    """Whether a token is a count a sector can hold: odd, 3 or more (a number and as many
    neighbours on either side)."""
    return (
        tok is not None
        and tok.type == "NUMBER"
        and tok.value is not None
        and tok.value >= 3
        and tok.value % 2 == 1
    )


def _of_a_sector(before: list[Tok]) -> bool:
    """Whether the count comes right after a sector's number ("settore del 13, 5 numeri"),
    so that it can count nothing else ("settore del 13, 5 5 numeri" is refused)."""
    if before and before[-1].type == "COMMA":
        before = before[:-1]
    return (
        len(before) >= 2 and before[-1].type == "NUMBER" and before[-2].type in ("OF", "NEIGHBOURS")
    )
