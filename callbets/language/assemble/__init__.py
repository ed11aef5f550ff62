"""Combine the elements of an announcement into calls with stakes (language-neutral).

The grammar yields a flat list (numbers, words, neighbours, links, stakes, counts,
checks, ranges, separators).  The rules that combine them are the same in every
language:

1. **Juxtaposed pieces bind.**  A word binds to the numbers right after it ("cheval 5/8",
   "finale 8/9", "voisins du 17", "transversale du zéro", "cheval sur 5/8") or right
   before it ("26 en plein", "17 complet", "douze premiers"); ``en plein`` and
   ``à cheval`` qualify the call before them ("orphelins en plein", "finale 8/9 à
   cheval"); an ordinal and ``dozen``/``column`` qualify each other ("première
   douzaine", "douzaine du milieu", "les deux premières douzaines").  A number said
   right before a bet word that does not take it ("2 tiers", "17 rouge") is asked about.
2. **Separators split calls.**  "et", "and", "e" and commas end a call.
3. **Neighbours bind backwards over separators.**  "les voisins" after numbers joined by
   "et"/"avec"/commas are those numbers' neighbours ("1, 9, 14 et les voisins"); alone,
   they are the voisins du zéro.
4. **A stake applies to every call since the previous stake** ("voisins et orphelins à
   5"); an amount before "sur"/"on" applies to the calls after it ("10 sur le 17").
5. **A bare number after a call that takes none** ("voisins 45") is ambiguous: stake or
   bet?  The house decides whether to ask (the default) or read it per piece.
6. **A call on one number followed by another number** ("douzaine 1 et 2", "les voisins
   du 17 et 20", "finale 3 et 7", "17 et 20 complets") is ambiguous: the same call on
   the second number, or a straight-up on it?  It is refused with both readings.
7. **Counts and totals are checks.**  "9 pièces" and "= 45" (or a total said after the
   stake, "voisins à 5 pour 45") must agree with the calls they follow; otherwise the
   announcement is refused with what the calls really are.
8. **Every part is used.**  A call that cannot account for a word or a number said with
   it ("les deux premières douzaines" is not the first dozen) is refused or asked about,
   never read without it.

Anything else is refused with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...roulette.announcement import Announcement
from ...roulette.house import House
from ..transform import Element
from .draft import SaidAgain
from .walk import Assembler


def assemble(
    elements: list[Element],
    house: House,
    text: str,
    roles: Mapping[str, frozenset[str]] | None = None,
) -> Announcement:
    """Turn the elements of one reading into an announcement.

    :param roles: the language's role words (``VOISINS_ALONE``, ``SERIE_ALONE``).
    :raises AnnouncementError: illegal, unclear or badly staked bets.
    """
    asm = Assembler(house, text, roles)
    asm.feed(elements)
    return asm.announcement()


__all__ = ["Assembler", "SaidAgain", "assemble"]
