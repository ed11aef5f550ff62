"""Elements said together that are one thing, put together before the calls are walked:
a count of pieces said on a bet is its stake ("3 pièces sur le 17"), and a comma after a
position word said first is a pause before its numbers ("En plein, le 23 à 50")."""

from __future__ import annotations

from dataclasses import replace

from ..transform import Element, LinkEl, Nums, PiecesEl, Sep, StakeEl, WordEl
from .draft import ORDINALS, OUTSIDE, POSITION_WORDS


def regrouped(elements: list[Element], piece_value: int) -> list[Element]:
    """The elements with the pauses dropped and the counts said on a bet made stakes."""
    on = _counts_on(_pauses_dropped(_pieces_valued(elements, piece_value)), piece_value)
    placed = _amounts_before_positions(_stakes_after_numbers(_counts_of_value(on)))
    return _ordinals_share_noun(placed)


def _ordinals_share_noun(elements: list[Element]) -> list[Element]:
    """ "la première douzaine et la troisième", "50 a la primera docena y 50 a la tercera":
    an ordinal said alone, after a call that said an ordinal with its noun (dozen or
    column), takes that noun."""
    if not any(_is_outside(el) for el in elements):
        return elements
    out: list[Element] = []
    noun: WordEl | None = None
    for i, el in enumerate(elements):
        out.append(el)
        if not isinstance(el, WordEl):
            continue
        before = elements[i - 1] if i else None
        after = elements[i + 1] if i + 1 < len(elements) else None
        if el.concept in OUTSIDE and (_is_ordinal(before) or _is_ordinal(after)):
            noun = el
        elif (
            noun is not None
            and el.concept in ORDINALS
            and isinstance(before, Sep | StakeEl)
            and _ends_alone(elements, i + 1)
        ):
            out.append(replace(noun, start=el.start))
    return out


def _ends_alone(elements: list[Element], i: int) -> bool:
    """Whether the call ends before ``i`` with no dozen or column said in the next one ("la
    première douzaine, la deuxième et la troisième colonne": the second of which?)."""
    if i == len(elements) or isinstance(elements[i], StakeEl):
        return True
    after = elements[i + 1] if i + 1 < len(elements) else None
    return isinstance(elements[i], Sep) and not (_is_ordinal(after) or _is_outside(after))


def _is_ordinal(el: Element | None) -> bool:
    return isinstance(el, WordEl) and el.concept in ORDINALS


def _is_outside(el: Element | None) -> bool:
    return isinstance(el, WordEl) and el.concept in OUTSIDE


def _stakes_after_numbers(elements: list[Element]) -> list[Element]:
    """ "un plein de 25 euros sur le 32", "a split at 10 on 8/11": a position word said
    first, its stake, then "on" and its numbers, is the bet said with its stake after
    ("un plein sur le 32 de 25 euros").  Only when the numbers end the call: "pleno a 5
    al 17 y al 20" is left as it is (refused)."""
    if not any(isinstance(el, LinkEl) for el in elements):
        return elements
    out = list(elements)
    for i in range(len(out) - 3):
        word, stake, link, nums = out[i : i + 4]
        if (
            isinstance(word, WordEl)
            and word.concept in POSITION_WORDS
            and isinstance(stake, StakeEl)
            and not stake.lead
            and isinstance(link, LinkEl)
            and link.kind == "on"
            and link.amount is None
            and isinstance(nums, Nums)
            and _ends_call(out, i + 4)
            and _said_first(out, i)
        ):
            out[i + 1 : i + 4] = [link, nums, stake]
    return out


def _amounts_before_positions(elements: list[Element]) -> list[Element]:
    """ "20 en plein sur le 29", "Mi mette 20 in pieno sul 29", "20 al pleno del 36": an
    amount said first, then a position word linked to its numbers, is that position's stake
    (not the straight-up on the amount).  A position of several numbers must have them all
    after the link ("17 à cheval sur le 20" stays refused)."""
    if not any(isinstance(el, LinkEl) for el in elements):
        return elements
    out = list(elements)
    for i in range(len(out) - 3):
        amount, word, link, nums = out[i : i + 4]
        stake = _amount_said(amount)
        if (
            stake is not None
            and isinstance(word, WordEl)
            and word.concept in POSITION_WORDS
            and isinstance(link, LinkEl)
            and link.amount is None
            and isinstance(nums, Nums)
            and (word.concept == "straight" or len(nums.numbers) > 1)
            and _ends_call(out, i + 4)
            and (i == 0 or isinstance(out[i - 1], Sep | StakeEl))
        ):
            out[i : i + 4] = [word, link, nums, stake]
    return out


def _amount_said(el: Element) -> StakeEl | None:
    """An amount said alone (a number, or a number and its currency) as a stake a piece."""
    if isinstance(el, StakeEl) and el.kind == "money":
        return el
    if isinstance(el, Nums) and len(el.numbers) == 1 and not el.slashed:
        return StakeEl("piece", el.numbers[0], str(el.numbers[0]), el.start, el.end)
    return None


def _ends_call(elements: list[Element], i: int) -> bool:
    """Whether the call ends before ``i``: the end, or a separator before a new bet (not
    before "on" said again, "y al 20")."""
    if i == len(elements):
        return True
    after = elements[i + 1] if i + 1 < len(elements) else None
    return isinstance(elements[i], Sep) and not isinstance(after, LinkEl)


def _counts_of_value(elements: list[Element]) -> list[Element]:
    """ "Rojo, 4 fichas de 25", "voisins, nine chips of 25": a count of pieces said with
    the value of each, after the bet, is one thing (the walk weighs it against the bet)."""
    out: list[Element] = []
    for el in elements:
        before = out[-1] if out else None
        if (
            isinstance(el, StakeEl)
            and el.kind == "piece"
            and not el.lead
            and isinstance(before, PiecesEl)
            and before.of is None
        ):
            out[-1] = replace(before, of=el)
            continue
        out.append(el)
    return out


def _pieces_valued(elements: list[Element], piece_value: int) -> list[Element]:
    """ "voisins, un jeton chacun", "due pezzi a combinazione": a count of pieces on each
    position is that many of the house's pieces a piece."""
    return [
        replace(el, amount=el.amount * piece_value, in_pieces=False, counted=piece_value)
        if isinstance(el, StakeEl) and el.in_pieces else el
        for el in elements
    ]  # fmt: skip


def _counts_on(elements: list[Element], piece_value: int) -> list[Element]:
    """ "3 pièces sur le 17", "two chips on 17": a count of pieces said on a bet is its
    stake in all, at the house's piece value or at the value said with it ("3 pièces de 5
    sur le 17", "tres fichas de cinco al 19"), for the bet that follows (the calls it
    leads to must divide it, as for "pour 60 sur le tiers")."""
    out: list[Element] = []
    for el in elements:
        if not isinstance(el, LinkEl | WordEl):
            out.append(el)
            continue
        on = isinstance(el, LinkEl) and el.kind == "on"
        counted = _count_before(out, piece_value)
        if counted is not None and (on or _position_after_value(out, counted[2])):
            count, value, said = counted
            del out[-said:]
            text = f"{count.text} … {el.text}" if said > 1 else f"{count.text} {el.text}"
            end = el.start if on else count.start
            out.append(StakeEl("total", count.count * value, text, count.start, end,
                               lead=True, counted=value))  # fmt: skip
            if on:
                continue
        out.append(el)
    return out


def _position_after_value(out: list[Element], said: int) -> bool:
    """ "Deux jetons de 10 à cheval 8/11": a count with the value of each said first, right
    before a bet word, is said on that bet as with "sur" (a count alone before a word, "2
    pièces cheval", is not)."""
    return said == 2 and (len(out) == 2 or isinstance(out[-3], Sep | StakeEl))


def _count_before(out: list[Element], piece_value: int) -> tuple[PiecesEl, int, int] | None:
    """The count of pieces said just before an "on" word, the value of each piece and how
    many elements said them: "3 pièces" (the house's piece value), "3 pièces de 5"."""
    if out and isinstance(out[-1], PiecesEl):
        return out[-1], piece_value, 1
    if len(out) >= 2 and isinstance(out[-2], PiecesEl):
        value = out[-1]
        if isinstance(value, StakeEl) and value.kind == "piece" and not value.lead:
            return out[-2], value.amount, 2
    return None


def _pauses_dropped(elements: list[Element]) -> list[Element]:
    """ "En plein, le 23 à 50", "à cheval, 17/20": a comma between a position word said
    first (see :func:`_said_first`) and its numbers is a pause."""
    out: list[Element] = []
    for i, el in enumerate(elements):
        before = elements[i - 1] if i else None
        after = elements[i + 1] if i + 1 < len(elements) else None
        if (
            isinstance(el, Sep)
            and el.kind == "comma"
            and isinstance(before, WordEl)
            and before.concept in POSITION_WORDS | {"finale"}
            and isinstance(after, Nums)
            and _said_first(elements, i - 1)
        ):
            continue
        out.append(el)
    return out


def _said_first(elements: list[Element], i: int) -> bool:
    """Whether the words ending at ``i`` start the announcement or follow "et" or a stake:
    after a comma they may qualify the call before ("tiers, en plein, le 17")."""
    start = i
    while start > 0 and isinstance(elements[start - 1], WordEl):
        start -= 1
    before = elements[start - 1] if start else None
    return (
        before is None
        or isinstance(before, StakeEl)
        or (isinstance(before, Sep) and before.kind == "and")
    )
