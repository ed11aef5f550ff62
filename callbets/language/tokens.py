"""The roles tokens take from their neighbours, before the grammar reads them.

Language-neutral: everything here goes by terminal names (``EACH``, ``PIECES``…) and by
the role words a language lists (``RANGE_FROM``, ``RANGE_TO``), never by a word.

* **Articles** come before what they introduce (a number, a bet, "voisins").  An article
  at the end ("le 17 et les") or before a separator means words are missing: refused.
  Between two numbers an article separates them like a comma ("le un le neuf et le
  quatorze"); otherwise articles are dropped.  The word for "one" is the article "a"
  just before a position word followed by its numbers ("un cheval 8/11"); Italian
  "l'uno" is the 1 where a bet begins and "each" after an amount.
* **Separators** stand between two things.  One at the start ("et les voisins") or the
  end ("tiers et") means the announcement was cut: refused, never read without it.
  Commas at either end are only punctuation ("Pour moi, voisins à 5").
* **Ranges** (``de 1 à 18``, ``1 to 18``): :mod:`callbets.language.ranges`.
* **Amounts and counts**: a number with a currency is ``MONEY`` ("5 euros", "£5"); a
  number before ``PIECES`` is a ``PIECE_COUNT`` ("9 pièces"); before ``EACH``,
  ``IN_ALL`` or ``ON`` it is an ``AMOUNT`` ("5 la pièce", "45 au total", "10 sur");
  before ``NEIGHBOURS`` or ``SIDES`` it is a ``COUNT`` ("trois voisins").
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import AmbiguousError, StakeError, UnrecognizedError
from ..messages import said as message
from .both import both_before_stake, both_before_word
from .indefinite import article_or_one
from .kinds import (
    NUMBERISH,
    OUTSIDE_WORDS,
    POSITION_WORDS,
    SEPARATORS,
    STAKE_PREFIXES,
    STAKE_WORDS,
    is_number,
)
from .lexicon import ARTICLE, BOTH, MONEY_WORD, VALUED_PIECES, Lexicon, Tok
from .ranges import ranges
from .sectors import sectors
from .separators import check_ends, ons_listed, slashes_apart, trimmed_commas
from .sides import sides

MAX_AMOUNT = 1_000_000
"""The largest amount a number word or a digit run may say; the table's limits are far
below, and a larger number is a mistake, not a stake."""


RETYPE_BEFORE = {
    "EACH": "AMOUNT",
    "IN_ALL": "AMOUNT",
    "ON": "AMOUNT",
    "NEIGHBOURS": "COUNT",
    "SIDES": "COUNT",
    "TIMES": "REPEAT",
}
"""A number just before one of these terminals is a stake amount or a neighbour count."""

PREFIX_TOO = frozenset({"IN_ALL"})
"""Markers that may also come before their amount ("in tutto 60"): then they retype nothing."""


def drop_articles(toks: Sequence[Tok], introduced: frozenset[str], lexicon: Lexicon) -> list[Tok]:
    """Check that each article comes before what it introduces, then drop the articles.

    :param introduced: the terminals an article may stand before (bets, neighbours).
    :raises UnrecognizedError: an article at the end or before something it cannot
        introduce (the rest of the announcement is missing); a plural article before a
        number that is then staked or ends the announcement ("voisins et tiers, les
        deux à 5": not a bet on 2).
    """
    # Each pass looks again only at the words it may retype (most announcements have none).
    toks = [_each_as_both(toks, i) if t.type == "EACH" else t for i, t in enumerate(toks)]
    toks = [_one_of(toks, i) if t.type == ARTICLE else t for i, t in enumerate(toks)]
    indefinite = lexicon.roles.get("INDEFINITE", ())
    toks = [article_or_one(toks, i, lexicon) if t.text in indefinite else t
            for i, t in enumerate(toks)]  # fmt: skip
    one = lexicon.roles.get("ONE_NEIGHBOUR", ())
    toks = [_a_neighbour(toks, i, one) if t.text in indefinite and t.type == ARTICLE else t
            for i, t in enumerate(toks)]  # fmt: skip
    each_or_one = lexicon.roles.get("EACH_OR_ONE", ())
    toks = [_each_or_one(toks, i, lexicon) if t.text in each_or_one else t
            for i, t in enumerate(toks)]  # fmt: skip
    one_piece = lexicon.roles.get("ONE_PIECE", ())
    toks = [_one_piece(toks, i) if t.text in one_piece else t for i, t in enumerate(toks)]
    dropped: set[int] = set()
    for i, tok in enumerate(toks):
        if tok.type == BOTH and both_before_word(toks, i):
            dropped.add(i - 1)  # the comma before it: the word is said of the numbers
            continue
        if tok.type == BOTH:
            both_before_stake(toks, i)
            continue
        if tok.type != ARTICLE:
            continue
        if tok.text in lexicon.roles.get("PLURAL", ()):
            _plural_before_number(toks, i)
        else:
            _singular_before_count(toks, i)
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if nxt is None:
            raise UnrecognizedError(message("stops_after", word=tok.text), column=tok.start)
        if not (is_number(nxt) or nxt.type in introduced or nxt.type == ARTICLE):
            raise UnrecognizedError(
                message("word_missing", word=tok.text, next=nxt.text), column=nxt.start
            )
        prev = toks[i - 1] if i else None
        staked = _amount_before(toks, i)  # "par cinq les voisins": the stake said first
        if (
            prev is not None
            and is_number(prev)
            and nxt.type in ("NEIGHBOURS", "SIDES")
            and not staked
        ):
            said = f"{prev.text} {tok.text} {nxt.text}"
            raise UnrecognizedError(message("article_misplaced", said=said), column=tok.start)
    if dropped:
        toks = [t for i, t in enumerate(toks) if i not in dropped or t.type != "COMMA"]
    toks = _article_after_correction(toks, lexicon)
    return [_as_comma(t) if _between_numbers(toks, i) else t for i, t in enumerate(toks)
            if t.type not in (ARTICLE, BOTH) or _between_numbers(toks, i)]  # fmt: skip


CORRECTION_POSITION = "CORRECTION_POSITION"
"""A correction followed by an article and a number: the number is a position."""


def _article_after_correction(toks: list[Tok], lexicon: Lexicon) -> list[Tok]:
    """ "le 17 et les voisins à 5, non pardon, le 18": the article after a correction
    says the number after it names a position, not a stake; the correction is marked so
    (:mod:`callbets.language.corrections`), as the article itself is dropped."""
    plural = lexicon.roles.get("PLURAL", ())
    out = list(toks)
    for i, tok in enumerate(toks):
        if tok.type != ARTICLE or tok.text in plural or i + 1 == len(toks):
            continue
        j = i - 1
        while j >= 0 and toks[j].type == "COMMA":
            j -= 1
        if j >= 0 and toks[j].type == "CORRECTION" and is_number(toks[i + 1]):
            out[j] = toks[j]._replace(type=CORRECTION_POSITION)
    return out


def _each_or_one(toks: Sequence[Tok], i: int, lexicon: Lexicon) -> Tok:
    """Italian "l'uno" is "each" after an amount ("da 5 l'uno") and the number 1 with
    its article where a bet begins ("l'uno e i suoi vicini", "orfanelli e l'uno pieno"):
    an ``EACH_OR_ONE`` role word at the start, or after a separator with more said after
    it that is not a stake, is the number 1 ("l'uno da 5").  After a separator and
    before a stake it could be either ("orfanelli, l'uno da 5"): asked.

    :raises AmbiguousError: the 1, or each call before it?"""
    tok = toks[i]
    if tok.text not in lexicon.roles.get("EACH_OR_ONE", ()) or i + 1 >= len(toks):
        return tok
    prev, nxt = (toks[i - 1] if i else None), toks[i + 1]
    if prev is not None and prev.type not in SEPARATORS:
        return tok
    if is_number(nxt):
        return tok
    if nxt.type in STAKE_WORDS and prev is not None:  # "orfanelli, l'uno da 5"
        said = f"{tok.text} {nxt.text}"
        raise AmbiguousError(message("each_or_one", said=said), [], column=tok.start)
    return tok._replace(type="N1", value=1)


def _one_piece(toks: Sequence[Tok], i: int) -> Tok:
    """ "a chip on 13 and a chip on 31", "tiers, a chip each": a ``ONE_PIECE`` role word
    just before an "on" or an "each" word is one piece (a count, as "one chip on 13");
    after an amount or a stake word it stays "each" ("5 a chip")."""
    tok, prev = toks[i], (toks[i - 1] if i else None)
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    if nxt is None or nxt.type not in ("ON", "EACH"):
        return tok
    if prev is not None and (is_number(prev) or prev.type in STAKE_WORDS | {"CURRENCY"}):
        return tok  # "5 a chip", "five quid a piece": the amount's "each"
    return tok._replace(type=ONE_PIECE)  # a count of 1 once the numbers are read (_typed)


def _amount_before(toks: Sequence[Tok], i: int) -> bool:
    """The numbers just before ``toks[i]`` follow a stake word: an amount ("par cinq")."""
    j = i - 1
    while j >= 0 and is_number(toks[j]):
        j -= 1
    return j < i - 1 and j >= 0 and toks[j].type in STAKE_PREFIXES


def _each_as_both(toks: Sequence[Tok], i: int) -> Tok:
    """ "les voisins et le tiers, chacun à 3": "each" said before the stake, after the
    calls, is "both" (a stake covers every call before it anyway); after a number it is
    the amount's "each" ("3 chacun")."""
    tok = toks[i]
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    prev = toks[i - 1] if i else None
    if tok.type != "EACH" or nxt is None or nxt.type not in STAKE_PREFIXES:
        return tok
    if prev is None or is_number(prev):
        return tok
    return tok._replace(type=BOTH)


def _one_of(toks: Sequence[Tok], i: int) -> Tok:
    """ "a hundred": an article before the word for a hundred or a thousand is one."""
    tok = toks[i]
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    if (
        tok.type == ARTICLE
        and nxt is not None
        and nxt.value in (100, 1000)
        and not nxt.text.isdigit()
    ):
        return tok._replace(type="N1", value=1)
    return tok


def _a_neighbour(toks: Sequence[Tok], i: int, one: frozenset[str] | tuple[()]) -> Tok:
    """ "seventeen and a neighbour each side": an article that is also "one" (English
    "a") before a neighbours word that names one counts them, as "un voisin" does."""
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    if nxt is not None and nxt.type == "NEIGHBOURS" and nxt.text in one:
        return toks[i]._replace(type="N1", value=1)
    return toks[i]


def _between_numbers(toks: Sequence[Tok], i: int) -> bool:
    """ "le un le neuf et le quatorze": an article between two numbers starts a new one;
    so after a stake's amount ("le 27 à 5 le 30 à 5", as a recogniser writes it).

    :raises UnrecognizedError: an article inside a number ("trente le deux").
    """
    if not (
        toks[i].type == ARTICLE
        and 0 < i < len(toks) - 1
        and is_number(toks[i - 1])
        and is_number(toks[i + 1])
    ):
        return False
    j = i - 1
    while j > 0 and is_number(toks[j - 1]):
        j -= 1
    if j == 0 or toks[j - 1].type not in (ARTICLE, *STAKE_PREFIXES):
        raise UnrecognizedError(
            message("article_in_number", word=toks[i].text), column=toks[i].start
        )
    return True


def _as_comma(tok: Tok) -> Tok:
    return tok._replace(type="COMMA", text=",")


def _singular_before_count(toks: Sequence[Tok], i: int) -> None:
    """ "la cinq pièce": a singular article before a count of pieces is out of place."""
    j = i + 1
    while j < len(toks) and is_number(toks[j]):
        j += 1
    if j > i + 1 and j < len(toks) and toks[j].type == "PIECES":
        raise UnrecognizedError(
            message("article_before_count", word=toks[i].text), column=toks[i].start
        )


def _plural_before_number(toks: Sequence[Tok], i: int) -> None:
    j = i + 1
    while j < len(toks) and (is_number(toks[j]) or toks[j].type.startswith("JOIN")):
        j += 1
    if j == i + 1:
        return
    after = toks[j] if j < len(toks) else None
    if after is None or after.type in STAKE_WORDS or after.type in SEPARATORS:
        said = " ".join(t.text for t in toks[i:j])
        raise UnrecognizedError(
            message("plural_what", said=said, word=toks[i].text), column=toks[i].start
        )


ONE_PIECE = "ONE_PIECE"


def _typed(tok: Tok) -> Tok:
    """Digits are a ``NUMBER``; a ``MONEY<value>`` word ("a tenner") is a ``MONEY`` amount;
    "a chip" said as one piece is a count of 1."""
    if tok.type == "DIGITS":
        return tok._replace(type="NUMBER")
    if tok.type == ONE_PIECE:
        return tok._replace(type="PIECE_COUNT", value=1)
    if MONEY_WORD.match(tok.type):
        return tok._replace(type="MONEY")
    return tok


def roles(toks: Sequence[Tok], lexicon: Lexicon, piece_value: int) -> tuple[Tok, ...]:
    """The token list with ranges, money, counts and amounts made, and separators checked.

    :param piece_value: the house's stake per piece, to word the readings of ``1 à 18``.
    :raises UnrecognizedError: a separator or link at the start or the end.
    :raises AmbiguousError: ``1 à 18`` without "de": a range, or the 1 at 18 a piece?
    """
    two_ways = lexicon.roles.get("TWO_WAYS", frozenset())
    for t in toks:
        if t.text in two_ways and t.value is not None:  # "veinte y cinco": 25, or 20 and 5?
            ten, unit = t.value // 10 * 10, t.value % 10
            said = message("one_or_two", said=t.text, one=t.value, ten=ten, unit=unit)
            raise AmbiguousError(said, [], column=t.start)
    out = [_typed(t) for t in toks]
    for t in out:
        if t.value is not None and t.value > MAX_AMOUNT:
            most = f"{MAX_AMOUNT:,}".replace(",", " ")
            raise StakeError(message("stake_too_big", value=t.value, most=most), column=t.start)
    out = _between(sides(sectors(ranges(out, lexicon, piece_value))))
    out = _count_for_bet(_of_pieces(_merge(out)))
    out = _retype(_prefix_as_on(out))
    phrasal = lexicon.roles.get("PHRASAL_ON", frozenset())
    out = trimmed_commas(ons_listed(slashes_apart(out)))
    out = _with_amount(_leading_on(_phrasal_on(out, phrasal)))
    check_ends(out)
    return tuple(out)


def _between(toks: list[Tok]) -> list[Tok]:
    """ "a cavallo tra il 21 e il 24", "split between 14 and 17": a position word, then
    "between" (BETWEEN) and two numbers joined by "and", is that position on the two
    numbers ("cavallo 21/24"); "between" anywhere else is left to be refused."""
    if not any(t.type == "BETWEEN" for t in toks):
        return toks
    out = list(toks)
    for i in range(len(out) - 4, 0, -1):
        position, between, first, joined, second = out[i - 1 : i + 4]
        if (
            between.type == "BETWEEN"
            and position.type in POSITION_WORDS
            and is_number(first)
            and joined.type == "AND"
            and is_number(second)
        ):
            slash = Tok("SLASH", "/", joined.start, joined.end)
            out[i : i + 4] = [first, slash, second]
    return out


def _phrasal_on(toks: list[Tok], phrasal: frozenset[str]) -> list[Tok]:
    """ "can you put the voisins on for 45", "voisins on, 5 each": an "on" (a
    ``PHRASAL_ON`` role word) after a bet and right before its stake is the verb's ("put
    … on"), not a link to numbers; after an amount it stays the stake's ("10 on red"),
    and at the end the rest is missing."""
    return [t for i, t in enumerate(toks) if not (
        t.type == "ON" and t.text in phrasal and 0 < i < len(toks) - 1
        and toks[i - 1].type not in NUMBERISH | SEPARATORS
        and (toks[i + 1].type in STAKE_PREFIXES or toks[i + 1].type == "AMOUNT" or (
            toks[i + 1].type == "COMMA" and i + 2 < len(toks)
            and toks[i + 2].type in NUMBERISH)))]  # fmt: skip


def _with_amount(toks: list[Tok]) -> list[Tok]:
    """ "le jeu zéro avec 40 en tout", "juego cero con 40 en total": a "with" just before
    an amount said "in all" or "each" is the stake's, not the neighbours' "with"."""
    if not any(t.type == "WITH" for t in toks):
        return toks
    return [t for i, t in enumerate(toks) if not (
        t.type == "WITH" and i + 2 < len(toks) and toks[i + 1].type in ("AMOUNT", "MONEY")
        and toks[i + 2].type in ("IN_ALL", "EACH")) and not _with_on_outside(toks, i)
        and not _with_pieces(toks, i)]  # fmt: skip


def _with_pieces(toks: list[Tok], i: int) -> bool:
    """ "vecinos con nueve fichas de veinte": "with" before a count of pieces said with
    their value is the stake's."""
    return (
        toks[i].type == "WITH"
        and i + 2 < len(toks)
        and toks[i + 1].type == "PIECE_COUNT"
        and toks[i + 2].type in ("PIECE_PREFIX", "EACH")
    )


def _with_on_outside(toks: list[Tok], i: int) -> bool:
    """ "la tercera docena con cincuenta": "with" between an outside bet's word and an
    amount that ends the call says the amount on it (no neighbours can follow)."""
    after = toks[i + 2] if i + 2 < len(toks) else None
    return (
        toks[i].type == "WITH" and 0 < i < len(toks) - 1
        and toks[i - 1].type in OUTSIDE_WORDS and is_number(toks[i + 1])
        and (after is None or after.type in SEPARATORS)
    )  # fmt: skip


STAKE_SAID = STAKE_WORDS | {"MONEY", "AMOUNT"}


def _prefix_as_on(toks: list[Tok]) -> list[Tok]:
    """ "cinquante à pair", "cien a falta", "100 au rouge": a stake word (or a "to") between
    an amount and an outside bet's word has no amount of its own; it says "on"
    ("cinquante sur pair").  Only for an
    amount that names no position (above 36, or money): "le 17 à rouge" is refused."""
    if not any(t.type in OUTSIDE_WORDS for t in toks):
        return toks
    return [
        t._replace(type="ON")
        if t.type in ("PIECE_PREFIX", "RANGE_TO") and 0 < i < len(toks) - 1
        and _no_position(toks[i - 1]) and toks[i + 1].type in OUTSIDE_WORDS
        else t
        for i, t in enumerate(toks)
    ]  # fmt: skip


def _no_position(tok: Tok) -> bool:
    return tok.type == "MONEY" or (tok.type == "NUMBER" and (tok.value or 0) > 36)


def _leading_on(toks: list[Tok]) -> list[Tok]:
    """ "Al negro 100 euros", "sur le rouge, 50 €": an "on" word that begins the
    announcement, when the bet it leads to has its stake said after it, or a bare amount
    at the end ("al negro cincuenta"), and no other "on" follows, is only "on"; alone
    ("al 17") its amount may have been lost, and it is refused (:func:`_check_ends`).
    With the stake said, so are those that begin each bet of a list ("al negro y al impar
    veinte a cada uno")."""
    if not toks or toks[0].type != "ON":
        return toks
    said = any(t.type in STAKE_SAID for t in toks[1:])
    listed = [i for i, t in enumerate(toks) if i and t.type == "ON"]
    if said and listed and all(toks[i - 1].type in ("AND", "COMMA") for i in listed):
        return [t for i, t in enumerate(toks) if i and i not in listed]
    if listed:
        return toks
    # "al negro cincuenta": a bare amount after the bet, weighed as "negro cincuenta" is
    bare = (
        len(toks) > 2
        and toks[-1].type == "NUMBER"
        and toks[-2].type not in NUMBERISH | {"COMMA", "AND"}
    )
    return toks[1:] if said or bare else toks


def _prefix_sign(toks: list[Tok], i: int) -> bool:
    """A currency sign written against the number after it ("£5", "€ 5" is not)."""
    tok, after = toks[i], toks[i + 1] if i + 1 < len(toks) else None
    return (
        tok.type == "CURRENCY"
        and not tok.text.isalpha()
        and after is not None
        and after.type == "NUMBER"
        and after.start == tok.end
    )


def _merge(toks: list[Tok]) -> list[Tok]:
    """Join a number and its currency into MONEY, a number and PIECES into PIECE_COUNT."""
    out: list[Tok] = []
    for i, tok in enumerate(toks):
        prev = out[-1] if out else None
        if _prefix_sign(toks, i) and prev is not None and prev.end < tok.start:
            out.append(tok)  # "17 £5": the sign is the 5's, written before it
        elif prev is not None and prev.type == "NUMBER" and VALUED_PIECES.match(tok.type):
            # "three fives": three pieces of 5, as "3 chips of 5"
            out[-1] = prev._replace(type="PIECE_COUNT", text=f"{prev.text} {tok.text}", end=tok.end)
            out.append(tok._replace(type="PIECE_PREFIX", value=None))
            out.append(tok._replace(type="NUMBER"))
        elif prev is not None and prev.type == "NUMBER" and tok.type in ("CURRENCY", "PIECES"):
            kind = "MONEY" if tok.type == "CURRENCY" else "PIECE_COUNT"
            out[-1] = prev._replace(type=kind, text=f"{prev.text} {tok.text}", end=tok.end)
        elif (
            prev is not None
            and prev.type == "CURRENCY"
            and not prev.text.isalpha()
            and tok.type == "NUMBER"
        ):
            out[-1] = tok._replace(type="MONEY", text=f"{prev.text}{tok.text}", start=prev.start)
        else:
            out.append(tok)
    return out


def _of_pieces(toks: list[Tok]) -> list[Tok]:
    """ "nine chips of 25", "4 fichas de 25": "of" between a count of pieces and a number
    gives the value of each piece, as a stake a piece does; so does an amount with its
    currency between the count and the pieces ("three £10 chips")."""
    toks = _money_between(toks)
    return [
        t._replace(type="PIECE_PREFIX")
        if t.type == "OF" and 0 < i < len(toks) - 1 and toks[i - 1].type == "PIECE_COUNT"
        and toks[i + 1].type in ("NUMBER", "MONEY") else t
        for i, t in enumerate(toks)
    ]  # fmt: skip


def _count_for_bet(toks: list[Tok]) -> list[Tok]:
    """ "six jetons de dix pour le tiers", "8 gettoni da 2 per gli orfanelli": after a count
    of pieces and their value, "for" before a bet says "on" it, not a total."""
    return [t._replace(type="ON") if (
        t.type in ("IN_ALL", "EITHER_PREFIX", "TOTAL_PREFIX") and 3 <= i < len(toks) - 1
        and toks[i - 3].type == "PIECE_COUNT" and toks[i - 2].type == "PIECE_PREFIX"
        and toks[i - 1].type in ("NUMBER", "MONEY") and not is_number(toks[i + 1])
        and toks[i + 1].type not in ("MONEY", "AMOUNT")
    ) else t for i, t in enumerate(toks)]  # fmt: skip


def _money_between(toks: list[Tok]) -> list[Tok]:
    """ "Three £25 chips": read as "three chips of £25"."""
    out = list(toks)
    for i in range(len(out) - 3, -1, -1):
        count, money, pieces = out[i : i + 3]
        if count.type == "NUMBER" and money.type == "MONEY" and pieces.type == "PIECES":
            counted = count._replace(type="PIECE_COUNT", text=f"{count.text} {pieces.text}")
            out[i : i + 3] = [counted, pieces._replace(type="PIECE_PREFIX", value=None), money]
    return out


def _checked_in_all(toks: list[Tok]) -> list[Tok]:
    """ "ça fait 25 en tout", "that's forty-five all in", "son 25 en total": "in all" after
    the total a check says is that total's (a check is of everything before it)."""
    if not any(t.type == "EQUALS" for t in toks):
        return toks
    return [t for i, t in enumerate(toks) if not (
        t.type == "IN_ALL" and i >= 2 and toks[i - 2].type == "EQUALS"
        and toks[i - 1].type in ("NUMBER", "MONEY")
    )]  # fmt: skip


def _described(toks: list[Tok]) -> list[Tok]:
    """ "sestina 22, cioè 19 20 21 22 23 24": "that is" (EQUALS) before several numbers
    describes the position said before it, as a comma does; before one number it is a
    total ("serie da 5, cioè 30")."""
    if not any(t.type == "EQUALS" for t in toks):
        return toks
    return [t._replace(type="COMMA") if t.type == "EQUALS" and i + 2 < len(toks)
            and is_number(toks[i + 1]) and (is_number(toks[i + 2]) or toks[i + 2].type == "SLASH")
            and _position_on_one_number(toks, i) else t for i, t in enumerate(toks)]  # fmt: skip


def _position_on_one_number(toks: list[Tok], i: int) -> bool:
    """Whether a position word and one number ("sestina 22", "sestina del 22") come right
    before toks[i] (a comma between them aside)."""
    j = i - 1 if i and toks[i - 1].type != "COMMA" else i - 2
    if j < 1 or not is_number(toks[j]):
        return False
    word = j - 2 if toks[j - 1].type == "OF" else j - 1
    return word >= 0 and toks[word].type in POSITION_WORDS


def _retype(toks: list[Tok]) -> list[Tok]:
    toks = _total_after(_described(_checked_in_all(toks)))
    out = []
    for i, tok in enumerate(toks):
        nxt = toks[i + 1].type if i + 1 < len(toks) else None
        if tok.type in ("NUMBER", "MONEY") and nxt in RETYPE_BEFORE:
            after = toks[i + 2].type if i + 2 < len(toks) else None
            new = RETYPE_BEFORE[nxt]
            staked = i > 0 and toks[i - 1].type in STAKE_PREFIXES
            if nxt in PREFIX_TOO and after in ("NUMBER", "MONEY"):
                pass  # "in tutto 60": the marker comes before its own amount
            elif new == "REPEAT" and (after in ("NUMBER", "MONEY") or tok.type != "NUMBER"):
                pass  # "quatre fois 10": an amount multiplied, no repeat (refused)
            elif new == "COUNT" and staked:
                pass  # "orphelins par cinq voisins…": the amount of "par", not a count
            elif nxt == "ON" and i > 0 and toks[i - 1].type in (*STAKE_PREFIXES, "IN_ALL"):
                pass  # "à 2 sur le jeu zéro", "en tout 60 sur le tiers": the prefix's amount
            elif nxt in ("ON", "EACH", "IN_ALL") and i > 0 and toks[i - 1].type == "ON":
                pass  # "plenos al cuatro al nueve": the number an "on" leads to, listed
            elif new == "AMOUNT" or tok.type == "NUMBER":
                tok = tok._replace(type=new)
        out.append(tok)
    return out


def _total_after(toks: list[Tok]) -> list[Tok]:
    """ "30 total": a total word after its amount, with no amount after it, is "in all"."""
    out = list(toks)
    for i in range(1, len(out)):
        after = out[i + 1] if i + 1 < len(out) else None
        amount_after = after is not None and after.type in ("NUMBER", "MONEY")
        before = out[i - 1].type in ("NUMBER", "MONEY")
        if out[i].type == "TOTAL_PREFIX" and before and not amount_after:
            out[i] = out[i]._replace(type="IN_ALL")
    return out
