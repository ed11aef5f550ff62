"""From a draft to the calls it stands for: every part of the draft must be used."""

from __future__ import annotations

from dataclasses import replace

from ...errors import AmbiguousError, IllegalBetError, UnrecognizedError
from ...messages import said as message
from ...roulette.announcement import Call, call_names
from ...roulette.house import House
from ...roulette.layout import INSIDE, BetKind, Position, from_pair, inside
from .draft import (
    CHANCES,
    DIRECTIONS,
    FINALE_WORDS,
    MODIFIERS,
    NAMED_DOZENS,
    ORDINALS,
    OUTSIDE,
    PLURALS,
    RANGE_CALLS,
    SERIES,
    SIMPLE_CALLS,
    Draft,
)


def _illegal(message: str, draft: Draft) -> IllegalBetError:
    return IllegalBetError(message, column=draft.start)


def _unused(draft: Draft, what: str) -> UnrecognizedError:
    return UnrecognizedError(message("not_this_bet", word=what), column=draft.start)


def as_position(nums: tuple[int, ...]) -> Call | None:
    """The bet a group of numbers names on its own, if any."""
    if any(n > 36 for n in nums):
        return None
    if len(nums) == 1:
        return Call("straight", nums)
    pos = from_pair(*nums) if len(nums) == 2 else inside(nums)
    return Call(pos.kind.value, pos.numbers) if pos is not None else None


def _numbers(draft: Draft) -> tuple[int, ...]:
    if draft.nums is None:
        raise _illegal(message("which_number", word=_head_word(draft)), draft)
    for n in draft.nums.numbers:
        if n > 36:
            raise IllegalBetError(message("off_layout", n=n), column=draft.nums.start)
    return draft.nums.numbers


def _only(draft: Draft, allowed: set[str] | frozenset[str], numbers: bool) -> None:
    """Refuse a draft holding a word or numbers its call does not use."""
    for w in draft.words:
        if w.concept not in allowed:
            raise _unused(draft, w.text)
    if not numbers and draft.nums is not None:
        said = "/".join(map(str, draft.nums.numbers))
        raise _unused(draft, said)
    if draft.more or draft.range is not None:
        raise UnrecognizedError(message("numbers_after_unused"), column=draft.start)


def resolve(draft: Draft, house: House) -> list[Call]:
    """The calls one draft stands for; every part of it must be used."""
    if draft.neighbours is not None:
        return [_resolve_neighbours(draft)]
    if draft.range is not None:
        return [_resolve_range(draft)]
    head = draft.head
    have = set(draft.concepts)
    if head is None:
        return [_position_by_numbers(draft)]
    if head in SIMPLE_CALLS:
        _only(draft, {head}, numbers=False)
        return [Call(SIMPLE_CALLS[head])]
    if head in CHANCES:
        _only(draft, {head}, numbers=False)
        return [Call(BetKind(head).value)]
    if head in ("tiers", "serie"):
        return [_resolve_tiers(draft, house)]
    if head == "orphelins":
        _only(draft, {"orphelins", *MODIFIERS}, numbers=False)
        if "straight" in have:
            return [Call("orphelins_plein")]
        plein = house.orphelins_default == "plein" and "split" not in have
        return [Call("orphelins_plein" if plein else "orphelins")]
    if head == "finale":
        return [_resolve_finale(draft, _numbers(draft))]
    if head == "finales":
        lists = [_numbers(draft), *(m.numbers for m in draft.more)]
        return [_resolve_finale(replace(draft, more=[]), nums) for nums in lists]
    if head in NAMED_DOZENS:
        _only(draft, {head}, numbers=False)
        return [Call("dozen", (NAMED_DOZENS[head],))]
    if head in ("complete", "with_splits"):
        _only(draft, {head}, numbers=True)
        nums = _numbers(draft)
        _one_each(draft, nums)
        return [Call(head, (n,)) for n in nums]
    if head in OUTSIDE:
        return [_resolve_outside(draft, head)]
    if head in PLURALS:
        return _resolve_plural(draft, head, house)
    if head in ORDINALS:
        return [_resolve_ordinal(draft)]
    return _resolve_named(draft, head)


def _one_each(draft: Draft, nums: tuple[int, ...]) -> None:
    """ "en plein 17 20": numbers with nothing between name one position, not two bets."""
    if len(nums) > 1:
        said = " ".join(map(str, nums))
        raise AmbiguousError(
            message("one_bet_each", said=said),
            [],
            column=draft.start,
        )


def _resolve_neighbours(draft: Draft) -> Call:
    nb = draft.neighbours
    assert nb is not None
    _only(replace(draft, more=[]), set(), numbers=True)
    if draft.nums is not None:
        nums = _numbers(draft) + tuple(n for m in draft.more for n in m.numbers)
        if any(n > 36 for n in nums):
            raise _illegal(message("off_layout", n=max(nums)), draft)
        if len(set(nums)) != len(nums):
            raise _illegal(message("same_number_twice"), draft)
        if nums == (0,) and nb.count is None:
            return Call("voisins")
        return Call("neighbours", nums, nb.count)
    if not draft.centres:
        if nb.count is not None:
            raise _illegal(message("which_centre_count", count=nb.count), draft)
        if draft.sep_before == "with" or not draft.alone:
            raise _illegal(message("which_centre"), draft)
        return Call("voisins")
    for n in draft.centres:
        if n > 36:
            raise _illegal(message("off_layout", n=n), draft)
    return Call("neighbours", draft.centres, nb.count)


def _resolve_tiers(draft: Draft, house: House) -> Call:
    _only(draft, {"tiers", "serie", *MODIFIERS}, numbers=True)
    nums = draft.nums.numbers if draft.nums is not None else None
    if nums is not None and nums not in SERIES:  # "serie 4/7", "tiers of two"
        word = draft.words[0].text if draft.words else "serie"
        raise _illegal(message("no_serie", word=word, said=_describe(nums)), draft)
    if nums is None and draft.head == "serie" and not draft.alone:
        raise _illegal(message("which_serie"), draft)
    call = Call(SERIES[nums] if nums is not None else "tiers")
    if "straight" in draft.concepts:
        if call.name != "tiers":
            raise _illegal(message("no_plein_of", call=call_names(house, call)), draft)
        return Call("tiers_plein")
    if "split" in draft.concepts and call.name != "tiers":
        raise _illegal(message("not_all_cheval", call=call_names(house, call)), draft)
    return call


def _resolve_finale(draft: Draft, nums: tuple[int, ...]) -> Call:
    _only(draft, {"finale", "finales", *FINALE_WORDS}, numbers=True)
    have = set(draft.concepts)
    if "straight" in have and have & ({"split"} | DIRECTIONS):
        raise _illegal(message("finale_both_ways"), draft)
    cheval = have & ({"split"} | DIRECTIONS)
    if len(nums) == 1 and not cheval:
        return Call("finale_plein", nums)
    if len(nums) == 2 and "straight" not in have:
        low, high = sorted(nums)
        for direction, gap in (("horizontal", 1), ("vertical", 3)):
            if direction in have and high - low != gap:
                raise _illegal(message(f"finale_not_{direction}", low=low, high=high), draft)
        return Call("finale_cheval", (low, high))
    key = "finale_cheval_digits" if cheval else "finale_plein_digit"
    raise _illegal(message(key, said="/".join(map(str, nums))), draft)


def _ordinal(draft: Draft) -> int | None:
    return next((ORDINALS[c] for c in draft.concepts if c in ORDINALS), None)


def _outside_index(head: str, n: int) -> int | None:
    if head == "column" and n in (34, 35, 36):
        return n - 33
    return n if n in (1, 2, 3) else None


def _resolve_outside(draft: Draft, head: str) -> Call:
    _only(draft, {head, *ORDINALS}, numbers=True)
    ordinal = _ordinal(draft)
    what = "column" if head == "column" else "dozen"
    if ordinal is not None and draft.nums is not None:
        said = "/".join(map(str, draft.nums.numbers))
        raise _unused(draft, said)
    if ordinal is None and draft.nums is not None and len(draft.nums.numbers) == 1:
        ordinal = _outside_index(head, draft.nums.numbers[0])
    if ordinal is None:
        raise _illegal(message(f"which_{what}"), draft)
    return Call(head, (ordinal,))


def _resolve_plural(draft: Draft, head: str, house: House) -> list[Call]:
    """ "les deux premières douzaines", "les colonnes 34 et 35 à cheval", "douzaines 1 et 3"."""
    single = PLURALS[head]
    _only_plural(draft, head)
    twice = "two_dozens" if single == "dozen" else "two_columns"
    ordinal = next((c for c in draft.concepts if c in ORDINALS), None)
    nums = draft.nums.numbers if draft.nums is not None else ()
    counted = draft.nums is not None and draft.nums.start < draft.words[0].start
    if ordinal is not None or counted:  # "les deux premières douzaines": how many, which
        if nums != (2,) or draft.more or ordinal not in ("first", "last"):
            raise _illegal(message(f"which_two_{head}"), draft)
        return [Call(twice, (1 if ordinal == "first" else 2,))]
    said = nums + tuple(n for m in draft.more for n in m.numbers)
    indexes = [_outside_index(single, n) for n in said]
    if not indexes or None in indexes:
        raise _illegal(message(f"which_{head}"), draft)
    idx = sorted(i for i in indexes if i is not None)
    if len(set(idx)) != len(idx):
        raise _illegal(message(f"same_{single}_twice"), draft)
    apart = [Call(single, (i,)) for i in idx]
    side_by_side = len(idx) == 2 and idx[1] - idx[0] == 1
    if "split" in draft.concepts:
        if not side_by_side:
            raise _illegal(message(f"{head}_side_by_side"), draft)
        return [Call(twice, (idx[0],))]
    if side_by_side and house.allow_24_numbers:
        unit = f"x{house.piece_value}"
        raise AmbiguousError(
            message(f"both_{head}"),
            [f"{Call(twice, (idx[0],)).notation()} {unit}",
             " ; ".join(f"{c.notation()} {unit}" for c in apart)],
            column=draft.start,
        )  # fmt: skip
    return apart


def _only_plural(draft: Draft, head: str) -> None:
    for w in draft.words:
        if w.concept not in {head, "split", *ORDINALS}:
            raise _unused(draft, w.text)
    if draft.range is not None:
        raise _unused(draft, draft.range.text)


def _resolve_range(draft: Draft) -> Call:
    rng = draft.range
    assert rng is not None
    call = RANGE_CALLS[(rng.low, rng.high)]
    if draft.words:
        said = Call(draft.head or "") if draft.head in CHANCES else None
        if draft.head in OUTSIDE:
            _only(replace(draft, range=None), {draft.head, *ORDINALS}, numbers=False)
            ordinal = _ordinal(draft)
            said = Call(draft.head, (ordinal,)) if ordinal else Call(draft.head, call.numbers)
        if said != call:
            raise _illegal(
                message("not_range", word=draft.words[0].text, low=rng.low, high=rng.high), draft
            )
    return call


RUNS = {
    ("first", 3): ("street", (1, 2, 3)), ("last", 3): ("street", (34, 35, 36)),
    ("first", 4): ("corner", (0, 1, 2, 3)),
    ("first", 6): ("sixline", (1, 2, 3, 4, 5, 6)),
    ("last", 6): ("sixline", (31, 32, 33, 34, 35, 36)),
    ("first", 12): ("dozen", (1,)), ("middle", 12): ("dozen", (2,)), ("last", 12): ("dozen", (3,)),
    ("second", 12): ("dozen", (2,)), ("third", 12): ("dozen", (3,)),
    ("first", 24): ("two_dozens", (1,)), ("last", 24): ("two_dozens", (2,)),
}  # fmt: skip
""""trois premiers", "quatre premiers", "six derniers", "douze milieu", "first four"…"""


def _resolve_ordinal(draft: Draft) -> Call:
    _only(draft, frozenset(ORDINALS), numbers=True)
    if len(draft.words) > 1:
        raise _unused(draft, draft.words[1].text)
    which = draft.concepts[0]
    nums = _numbers(draft)
    if len(nums) == 1 and (which, nums[0]) in RUNS:
        name, numbers = RUNS[(which, nums[0])]
        return Call(name, numbers)
    raise _illegal(message("no_bet_called", said=f"{draft.words[0].text} {nums[0]}"), draft)


def _head_word(draft: Draft) -> str:
    """The word of the draft's main call as it was said ("finale", "complets")."""
    heads = [w.text for w in draft.words if w.concept == draft.head]
    return (heads or [w.text for w in draft.words] or [""])[0]


def _describe(nums: tuple[int, ...]) -> str:
    return "/".join(map(str, nums))


def _position_by_numbers(draft: Draft) -> Call:
    nums = _numbers(draft)
    found = as_position(nums)
    if found is None:
        raise _illegal(_why_not(nums), draft)
    return found


def _starting_at(kind: BetKind, nums: tuple[int, ...]) -> Position | None:
    """A street or six-line named by its first number alone, in digits ("street 4",
    "terzina 31"): the one position of that kind that starts there, if exactly one does.
    Not for number words: "double street thirty one thirty one a piece" may have lost
    its "six", and must not become the six-line 31 at 31."""
    if kind not in (BetKind.STREET, BetKind.SIXLINE) or len(nums) != 1 or nums[0] == 0:
        return None
    found = [p for p in INSIDE.values() if p.kind is kind and p.numbers[0] == nums[0]]
    return found[0] if len(found) == 1 else None


def _holding(kind: BetKind, nums: tuple[int, ...], draft: Draft) -> Position | None:
    """ "la transversale du 32", "la terzina del 20", "the street of 11", "le sixain du
    35": a street or six-line linked to one of its numbers, the first that holds it (a
    street from 4 on: 1, 2 and 3 are in the zero's streets too).  A six-line that another
    holds too is asked (:func:`_ask_which_holds_it`)."""
    lowest = 4 if kind is BetKind.STREET else 1
    if kind not in (BetKind.STREET, BetKind.SIXLINE) or len(nums) != 1 or not draft.linked:
        return None
    if nums[0] < lowest:
        return None
    found = [p for p in INSIDE.values() if p.kind is kind and nums[0] in p.numbers]
    return min(found, key=lambda p: p.numbers) if found else None


def _ask_which_holds_it(kind: BetKind, number: int, first: Position, draft: Draft) -> None:
    """A six-line named by one number that lies in another six-line too ("sixain 22":
    22-27, or 19-24?) is asked with both.  A street by its first number is the one
    street starting there (the zero streets start at 0)."""
    if kind is not BetKind.SIXLINE:
        return
    others = [p for p in INSIDE.values() if p.kind is kind and number in p.numbers]
    other = next((p for p in others if p != first), None)
    if other is not None:
        said = message("which_sixline", number=number, first=first, other=other)
        raise AmbiguousError(said, _whole_readings(kind, (first, other), draft),
                             column=draft.start)  # fmt: skip


def _whole_readings(kind: BetKind, positions: tuple[Position, ...], draft: Draft) -> list[str]:
    """Each position as a reading to pick, with the stake said for it; none where the
    stake is not its own (said for several calls, or only after another): a reading
    offered must be the whole bet, never the position at a stake it was not said at."""
    stake = draft.stake
    if stake is None or stake.kind not in ("piece", "total") or stake.together or stake.lead:
        return []
    return [f"{kind.value} {_describe(p.numbers)} x{stake.amount}" for p in positions]


def _why_not(nums: tuple[int, ...]) -> str:
    if len(nums) == 2:
        a, b = sorted(nums)
        return message("no_pair", a=a, b=b)
    return message("no_numbers", said=_describe(nums))


def _resolve_named(draft: Draft, head: str) -> list[Call]:
    _only(draft, {head}, numbers=True)
    nums = _numbers(draft)
    kind = BetKind(head)
    if kind is BetKind.STRAIGHT:
        _one_each(draft, nums)
        return [Call("straight", (n,)) for n in nums]
    if kind is BetKind.STREET and nums == (0,):
        raise AmbiguousError(
            message("which_transversale"),
            ["street 0/1/2 x1", "street 0/2/3 x1"],
            column=draft.start,
        )
    if kind is BetKind.SPLIT and nums == (0,):
        raise AmbiguousError(
            message("which_zero_split"),
            ["split 0/1 x1", "split 0/2 x1", "split 0/3 x1"],
            column=draft.start,
        )
    if kind is BetKind.CORNER and nums == (0,):
        return [Call("corner", (0, 1, 2, 3))]
    digits = draft.nums is not None and draft.nums.digits
    first = _starting_at(kind, nums) if digits or draft.from_first else None
    if first is not None and draft.from_first:
        return [Call(kind.value, first.numbers)]  # "sestina dal 25": the one from 25
    if first is None and not draft.from_first:  # "sestina dal 35": none starts there
        first = _holding(kind, nums, draft)
    if first is not None:
        _ask_which_holds_it(kind, nums[0], first, draft)
        return [Call(kind.value, first.numbers)]  # "transversale 22", "sixain 1"
    pos = from_pair(*nums) if len(nums) == 2 else inside(nums)
    if pos is not None and pos.kind is kind:
        return [Call(kind.value, pos.numbers)]
    said = _describe(tuple(sorted(nums)))
    column = draft.nums.start if draft.nums is not None else draft.start
    if kind is BetKind.SPLIT and len(nums) == 2:
        a, b = sorted(nums)
        if pos is not None:
            raise IllegalBetError(message("no_split_but", a=a, b=b, position=pos), column=column)
        reason: str = message("no_split", a=a, b=b)
    else:
        asked = Position(kind, tuple(sorted(nums)))
        reason = (
            message("no_position_but", position=asked, said=said, other=pos)
            if pos is not None
            else message("no_position", position=asked)
        )
    raise IllegalBetError(reason, column=column)
