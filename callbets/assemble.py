"""Combine the elements of an announcement into calls with stakes (language-neutral).

The grammar yields a flat list (numbers, words, neighbours, stakes, separators).  The
rules that combine them are the same in every language:

1. **Juxtaposed pieces bind.**  A word binds to the numbers right after it ("cheval 5/8",
   "finale 8/9", "voisins du 17") or right before it ("26 en plein", "17 complet",
   "douze premiers"); ``en plein`` and ``à cheval`` qualify the call before them
   ("orphelins en plein", "finale 8/9 à cheval"); an ordinal and ``dozen``/``column``
   qualify each other ("première douzaine", "douzaine du milieu").
2. **Separators split calls.**  "et", "and", "e" and commas end a call.
3. **Neighbours bind backwards over separators.**  "les voisins" after numbers joined by
   "et"/"avec"/commas are those numbers' neighbours ("1, 9, 14 et les voisins"); alone,
   they are the voisins du zéro.
4. **A stake applies to every call since the previous stake** ("voisins et orphelins à 5").
5. **A bare number after a call that takes none** ("voisins 45") is ambiguous: stake or
   bet?  The house decides whether to ask (the default) or read it per piece.
6. **A dozen or column number after one** ("douzaine 1 et 2", "colonne 34 et 35") is
   ambiguous: a second dozen (column), or a straight-up?  It is refused with both
   readings; "douzaine 1 et douzaine 2" or "douzaine 1 et plein 2" is clear.

Anything else is refused with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .announcement import Announcement, Call, PlacedCall
from .catalogue import Recipe
from .errors import AmbiguousError, IllegalBetError, StakeError, UnrecognizedError
from .house import House
from .layout import BetKind, from_pair, inside
from .talk import TABLE_TALK
from .transform import Element, NeighboursEl, Nums, Sep, StakeEl, WordEl

POSITION_WORDS = frozenset({"straight", "split", "street", "corner", "sixline"})
ORDINALS = {"first": 1, "second": 2, "third": 3, "last": 3, "middle": 2}
MODIFIERS = frozenset({"straight", "split"})
CHANCES = {"red", "black", "even", "odd", "low", "high"}
TAKES_NUMBERS = POSITION_WORDS | {"finale", "complete", "serie", "dozen", "column"}
POSTFIX = POSITION_WORDS | {"complete", "serie", "first", "last", "middle"}
SERIES = {(5, 8): "tiers", (0, 2, 3): "voisins", (5, 8, 10, 11): "tiers_5_8_10_11"}
SIMPLE_CALLS = {
    "voisins": "voisins",
    "jeu_zero": "jeu_zero",
    "nassa": "nassa",
    "ferrari": "gioco_ferrari",
}


@dataclass
class Draft:
    """A call being put together from its pieces."""

    start: int
    words: list[WordEl] = field(default_factory=list)
    nums: Nums | None = None
    neighbours: NeighboursEl | None = None
    centres: tuple[int, ...] = ()
    stake: StakeEl | None = None
    sep_before: str | None = None

    @property
    def concepts(self) -> list[str]:
        """The concepts of the words so far."""
        return [w.concept for w in self.words]

    @property
    def head(self) -> str | None:
        """The main word: the first that is not ``en plein``/``à cheval``/an ordinal."""
        for c in self.concepts:
            if c not in MODIFIERS and c not in ORDINALS:
                return c
        return self.concepts[0] if self.concepts else None

    @property
    def is_bare(self) -> bool:
        """Only numbers, no word yet."""
        return not self.words and self.neighbours is None and self.nums is not None

    def absorbs(self, word: WordEl) -> bool:
        """Whether a word said right after this draft qualifies it."""
        c, have = word.concept, self.concepts
        if self.neighbours is not None:
            return False
        if self.is_bare:
            return c in POSTFIX
        head = self.head
        if (
            c in MODIFIERS
            and head in ("finale", "orphelins", "tiers")
            and not MODIFIERS & set(have)
        ):
            return True
        if c == "finale" and have and set(have) <= MODIFIERS and self.nums is None:
            return True
        if c in ORDINALS and head in ("dozen", "column") and not ORDINALS.keys() & set(have):
            return True
        return c in ("dozen", "column") and bool(have) and set(have) <= ORDINALS.keys()

    def wants_numbers(self, nums: Nums) -> bool:
        """Whether numbers said right after this draft belong to it."""
        if self.nums is not None:
            return False
        if self.neighbours is not None:
            return self.neighbours.of
        have = set(self.concepts)
        if "tiers" in have:
            return nums.numbers in ((5, 8), (5, 8, 10, 11))
        if have & {"dozen", "column"}:
            return not have & ORDINALS.keys()
        return bool(have & TAKES_NUMBERS) or (bool(have) and have <= ORDINALS.keys())


class Assembler:
    """Runs the rules of the module docstring over one element list."""

    def __init__(self, house: House, text: str) -> None:
        self.house = house
        self.text = text
        self.drafts: list[Draft] = []
        self.current: Draft | None = None
        self.last_sep: str | None = None
        self.staked_upto = 0

    # ---- walking the elements ------------------------------------------------
    def feed(self, elements: list[Element]) -> None:
        """Consume every element."""
        for el in elements:
            if isinstance(el, Sep):
                self.current, self.last_sep = None, el.kind
                continue
            if isinstance(el, StakeEl):
                self._stake(el)
            elif isinstance(el, NeighboursEl):
                self._neighbours(el)
            elif isinstance(el, WordEl):
                self._word(el)
            else:
                self._numbers(el)
            self.last_sep = None

    def _new(self, start: int) -> Draft:
        draft = Draft(start, sep_before=self.last_sep)
        self.drafts.append(draft)
        self.current = draft
        return draft

    def _word(self, el: WordEl) -> None:
        if el.concept in TABLE_TALK:
            self._refuse_talk(el)
        if self.current is not None and self.current.absorbs(el):
            self.current.words.append(el)
        else:
            self._new(el.start).words.append(el)

    def _refuse_talk(self, el: WordEl) -> None:
        if el.concept in ("chatter", "close"):
            raise UnrecognizedError(f"'{el.text}' is table talk, not a bet", column=el.start)
        raise UnrecognizedError(
            f"'{el.text}' replays a winning bet after the spin; it is not a new bet",
            column=el.start,
        )

    def _numbers(self, el: Nums) -> None:
        cur = self.current
        if cur is None:
            self._refuse_outside_list(el)
            self._new(el.start).nums = el
        elif cur.wants_numbers(el):
            cur.nums = el
        else:
            self._bare_amount(cur, el)

    def _refuse_outside_list(self, el: Nums) -> None:
        """A dozen (column) number after one: a second dozen, or a straight?  Ask."""
        if self.last_sep not in ("and", "comma") or not self.drafts or len(el.numbers) != 1:
            return
        before = self.drafts[-1]
        if before.head not in ("dozen", "column") or before.nums is None or before.words[1:]:
            return
        n = el.numbers[0]
        if n not in (1, 2, 3) and not (before.head == "column" and n in (34, 35, 36)):
            return
        first = _resolve_outside(before, before.head)
        second = _resolve_outside(replace(before, nums=el), before.head)
        raise AmbiguousError(
            f"'{n}' after '{first.notation()}': {second.notation()}, or a straight on {n}? "
            "Say the bet's name before each number",
            [f"{first.notation()} ; {second.notation()}", f"{first.notation()} ; straight {n}"],
            column=el.start,
        )

    def _bare_amount(self, draft: Draft, el: Nums) -> None:
        said = "/".join(map(str, el.numbers))
        if len(el.numbers) == 1 and self.house.bare_amount == "per_piece":
            self._stake(StakeEl("piece", el.numbers[0], said, el.start, el.start))
            return
        raise AmbiguousError(
            f"'{said}' after the bet: is it the stake or another number? "
            "Say the stake with its word ('à 5', 'pour 45')",
            [f"stake {said} per piece", f"stake {said} in total", f"bet on {said}"],
            column=el.start,
        )

    def _neighbours(self, el: NeighboursEl) -> None:
        if el.of:
            draft = self._new(el.start)
            draft.neighbours = el
            return
        run = self._number_run()
        if run:
            centres = tuple(n for d in run for n in d.nums.numbers)  # type: ignore[union-attr]
            del self.drafts[-len(run) :]
            draft = self._new(run[0].start)
            draft.neighbours, draft.centres = el, centres
            return
        cur = self.current
        if cur is not None and cur.is_bare:
            nums = "/".join(map(str, cur.nums.numbers))  # type: ignore[union-attr]
            raise AmbiguousError(
                f"'{nums}' then 'voisins' with nothing between: the neighbours of {nums}, "
                f"or {nums} and the voisins du zéro?",
                [f"neighbours {nums}", f"straight {nums} ; voisins"],
                column=el.start,
            )
        if el.count is not None or self.last_sep == "with":
            many = "" if el.count is None else f"{el.count} "
            raise IllegalBetError(f"{many}neighbours of which number?", column=el.start)
        self._new(el.start).words.append(WordEl("voisins", "voisins", el.start))

    def _number_run(self) -> list[Draft]:
        """The bare-number calls just before "et les voisins" / "avec les voisins"."""
        if self.current is not None or self.last_sep not in ("and", "with"):
            return []
        run: list[Draft] = []
        for draft in reversed(self.drafts[self.staked_upto :]):
            if not draft.is_bare or draft.stake is not None:
                break
            run.insert(0, draft)
            if draft.sep_before not in ("and", "comma"):
                break
        return run

    def _stake(self, el: StakeEl) -> None:
        targets = [d for d in self.drafts[self.staked_upto :] if d.stake is None]
        if not targets:
            raise StakeError(f"the stake '{el.text}' comes before any bet", column=el.start)
        for d in targets:
            d.stake = el
        self.staked_upto = len(self.drafts)
        self.current = None

    # ---- from drafts to calls -------------------------------------------------
    def announcement(self) -> Announcement:
        """The calls with their stakes, once every element is fed.

        :raises AnnouncementError: an illegal or unclear bet or stake.
        """
        if not self.drafts:
            raise UnrecognizedError("no bet in this announcement", column=0)
        recipes = [
            (draft, call, self._recipe(draft, call))
            for draft in self.drafts
            for call in _resolve(draft, self.house)
        ]
        groups: dict[int, list[tuple[Call, Recipe]]] = {}
        for draft, call, recipe in recipes:
            groups.setdefault(_group_key(draft), []).append((call, recipe))
        units = {key: self._unit(key, members) for key, members in groups.items()}
        return Announcement(
            self.text,
            tuple(
                PlacedCall.from_recipe(call, units[_group_key(draft)], recipe)
                for draft, call, recipe in recipes
            ),
        )

    def _recipe(self, draft: Draft, call: Call) -> Recipe:
        try:
            return call.recipe(self.house)
        except IllegalBetError as err:
            err.column = draft.start if err.column is None else err.column
            raise

    def _unit(self, key: int, members: list[tuple[Call, Recipe]]) -> int:
        stake = next((d.stake for d in self.drafts if _group_key(d) == key), None)
        if stake is None:
            return self.house.piece_value
        if stake.kind == "piece":
            return stake.amount
        pieces = sum(k for _, recipe in members for _, k in recipe)
        if stake.kind == "total":
            if stake.amount % pieces:
                low = stake.amount // pieces
                raise StakeError(
                    f"{stake.amount} in total does not divide into {pieces} pieces "
                    f"(between {low} and {low + 1} a piece)",
                    column=stake.start,
                )
            return stake.amount // pieces
        said = " ; ".join(call.notation() for call, _ in members)
        readings = [f"{said} x{stake.amount}"]
        if stake.amount % pieces == 0:
            readings.append(f"{said} x{stake.amount // pieces}")
        raise AmbiguousError(
            f"'{stake.text}': {stake.amount} a piece, or {stake.amount} in total?",
            readings,
            column=stake.start,
        )


def _group_key(draft: Draft) -> int:
    """Calls sharing a stake form one group (the stake's identity); unstaked calls stand alone."""
    return id(draft.stake) if draft.stake is not None else -id(draft)


def _illegal(message: str, draft: Draft) -> IllegalBetError:
    return IllegalBetError(message, column=draft.start)


def _numbers(draft: Draft, what: str) -> tuple[int, ...]:
    if draft.nums is None:
        raise _illegal(f"{what}: which number?", draft)
    for n in draft.nums.numbers:
        if n > 36:
            raise IllegalBetError(f"{n} is not on the layout (0 to 36)", column=draft.nums.start)
    return draft.nums.numbers


def _resolve(draft: Draft, house: House) -> list[Call]:
    """The calls one draft stands for."""
    if draft.neighbours is not None:
        return [_resolve_neighbours(draft)]
    head = draft.head
    have = set(draft.concepts)
    if head is None:
        return [_position_by_numbers(draft)]
    if head in SIMPLE_CALLS:
        return [Call(SIMPLE_CALLS[head])]
    if head in CHANCES:
        return [Call(BetKind(head).value)]
    if head == "tiers":
        return [_resolve_tiers(draft)]
    if head == "serie":
        nums = _numbers(draft, "serie")
        if nums not in SERIES:
            raise _illegal(f"no serie {'/'.join(map(str, nums))} (serie 5/8 or 0/2/3)", draft)
        return [Call(SERIES[nums])]
    if head == "orphelins":
        if "straight" in have:
            return [Call("orphelins_plein")]
        plein = house.orphelins_default == "plein" and "split" not in have
        return [Call("orphelins_plein" if plein else "orphelins")]
    if head == "finale":
        return [_resolve_finale(draft)]
    if head == "complete":
        return [Call("complete", (n,)) for n in _numbers(draft, "complet")]
    if head in ("dozen", "column"):
        return [_resolve_outside(draft, head)]
    if head in ORDINALS:
        return [_resolve_ordinal(draft)]
    return _resolve_named(draft, head)


def _resolve_neighbours(draft: Draft) -> Call:
    nb = draft.neighbours
    assert nb is not None
    if nb.of:
        nums = _numbers(draft, "voisins du")
        if nums == (0,) and nb.count is None:
            return Call("voisins")
        return Call("neighbours", nums, nb.count)
    for n in draft.centres:
        if n > 36:
            raise _illegal(f"{n} is not on the layout (0 to 36)", draft)
    return Call("neighbours", draft.centres, nb.count)


def _resolve_tiers(draft: Draft) -> Call:
    if "straight" in draft.concepts:
        return Call("tiers_plein")
    if draft.nums is not None:
        return Call(SERIES[draft.nums.numbers])
    return Call("tiers")


def _resolve_finale(draft: Draft) -> Call:
    nums = _numbers(draft, "finale")
    have = set(draft.concepts)
    if "straight" in have and "split" in have:
        raise _illegal("a finale is en plein or à cheval, not both", draft)
    if len(nums) == 1 and "split" not in have:
        return Call("finale_plein", nums)
    if len(nums) == 2 and "straight" not in have:
        return Call("finale_cheval", tuple(sorted(nums)))
    form = "à cheval takes two digits (8/9)" if "split" in have else "en plein takes one digit"
    raise _illegal(f"finale {'/'.join(map(str, nums))}: a finale {form}", draft)


def _resolve_outside(draft: Draft, head: str) -> Call:
    ordinal = next((ORDINALS[c] for c in draft.concepts if c in ORDINALS), None)
    if ordinal is None and draft.nums is not None and len(draft.nums.numbers) == 1:
        n = draft.nums.numbers[0]
        ordinal = (
            n - 33 if head == "column" and n in (34, 35, 36) else n if n in (1, 2, 3) else None
        )
    if ordinal is None:
        raise _illegal(f"which {'column' if head == 'column' else 'dozen'}?", draft)
    return Call(head, (ordinal,))


RUNS = {
    ("first", 3): ("street", (1, 2, 3)), ("last", 3): ("street", (34, 35, 36)),
    ("first", 4): ("corner", (0, 1, 2, 3)),
    ("first", 6): ("sixline", (1, 2, 3, 4, 5, 6)),
    ("last", 6): ("sixline", (31, 32, 33, 34, 35, 36)),
    ("first", 12): ("dozen", (1,)), ("middle", 12): ("dozen", (2,)), ("last", 12): ("dozen", (3,)),
    ("first", 24): ("two_dozens", (1,)), ("last", 24): ("two_dozens", (2,)),
}  # fmt: skip
""""trois premiers", "quatre premiers", "six derniers", "douze milieu", "first four"…"""


def _resolve_ordinal(draft: Draft) -> Call:
    which = next(c for c in draft.concepts if c in ORDINALS)
    nums = _numbers(draft, which)
    if len(nums) == 1 and (which, nums[0]) in RUNS:
        name, numbers = RUNS[(which, nums[0])]
        return Call(name, numbers)
    raise _illegal(f"no bet called '{draft.words[0].text} {nums[0]}'", draft)


def _describe(nums: tuple[int, ...]) -> str:
    return "/".join(map(str, nums))


def _position_by_numbers(draft: Draft) -> Call:
    nums = _numbers(draft, "bet")
    if len(nums) == 1:
        return Call("straight", nums)
    pos = from_pair(*nums) if len(nums) == 2 else inside(nums)
    if pos is None or len(set(nums)) != len(nums):
        raise _illegal(_why_not(nums), draft)
    return Call(pos.kind.value, pos.numbers)


def _why_not(nums: tuple[int, ...]) -> str:
    if len(nums) == 2:
        a, b = sorted(nums)
        return f"no position {a}/{b}: {a} and {b} are not a split, street, corner or six-line"
    return f"no position {_describe(nums)} on the layout"


def _resolve_named(draft: Draft, head: str) -> list[Call]:
    nums = _numbers(draft, draft.words[0].text)
    kind = BetKind(head)
    if kind is BetKind.STRAIGHT:
        return [Call("straight", (n,)) for n in nums]
    pos = from_pair(*nums) if len(nums) == 2 else inside(nums)
    if pos is not None and pos.kind is kind:
        return [Call(kind.value, pos.numbers)]
    said = _describe(tuple(sorted(nums)))
    column = draft.nums.start if draft.nums is not None else draft.start
    if kind is BetKind.SPLIT and len(nums) == 2:
        a, b = sorted(nums)
        reason = f"no split {a}/{b}: {a} and {b} are not next to each other"
    else:
        reason = f"no {kind.value} {said} on the layout"
    if pos is not None:
        reason += f" ({said} names a {pos.kind.value})"
    raise IllegalBetError(reason, column=column)


def assemble(elements: list[Element], house: House, text: str) -> Announcement:
    """Turn the elements of one reading into an announcement.

    :raises AnnouncementError: illegal, unclear or badly staked bets.
    """
    asm = Assembler(house, text)
    asm.feed(elements)
    return asm.announcement()
