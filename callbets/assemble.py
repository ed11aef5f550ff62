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

from dataclasses import dataclass, field, replace

from .announcement import Announcement, Call, PlacedCall
from .catalogue import Recipe
from .errors import (
    AmbiguousError,
    AnnouncementError,
    IllegalBetError,
    StakeError,
    UnrecognizedError,
)
from .house import House
from .layout import BetKind, from_pair, inside
from .talk import TABLE_TALK
from .transform import (
    CheckEl,
    Element,
    LinkEl,
    NeighboursEl,
    Nums,
    PiecesEl,
    RangeEl,
    Sep,
    StakeEl,
    WordEl,
)

POSITION_WORDS = frozenset({"straight", "split", "street", "corner", "sixline"})
ORDINALS = {"first": 1, "second": 2, "third": 3, "last": 3, "middle": 2}
MODIFIERS = frozenset({"straight", "split"})
DIRECTIONS = frozenset({"horizontal", "vertical"})
FINALE_WORDS = MODIFIERS | DIRECTIONS
OUTSIDE = frozenset({"dozen", "column"})
PLURALS = {"dozens": "dozen", "columns": "column"}
"""Plural words that name two dozens or columns."""
LISTS = frozenset({*PLURALS, "finales"})
"""Plural words that take a list of numbers: "les douzaines 1 et 3", "les finales 3 et 6"."""
NAMED_DOZENS = {"p12": 1, "m12": 2, "d12": 3}
"""The layout's labels of the dozens (12P, 12M, 12D)."""
PAIRED = frozenset({"split", "street", "corner", "sixline"})
"""Positions named by two numbers, which may be said with "and" between them."""
CHANCES = frozenset({"red", "black", "even", "odd", "low", "high"})
TAKES_NUMBERS = POSITION_WORDS | {"finale", "complete", "serie"} | OUTSIDE | LISTS
POSTFIX = POSITION_WORDS | {"complete", "serie", "first", "last", "middle"}
QUALIFIED = frozenset({"finale", "finales", "orphelins", "tiers", "serie", *PLURALS})
"""Calls that ``en plein`` / ``à cheval`` said after them qualify."""
ONE_NUMBER_CALLS = frozenset({"complete", "finale", *OUTSIDE})
"""Calls whose number is their argument: "finale 3 et 7" may mean two finales."""
SERIES = {(5, 8): "tiers", (0, 2, 3): "voisins", (5, 8, 10, 11): "tiers_5_8_10_11"}
SIMPLE_CALLS = {
    "voisins": "voisins",
    "jeu_zero": "jeu_zero",
    "nassa": "nassa",
    "ferrari": "gioco_ferrari",
}
RANGE_CALLS = {
    (1, 18): Call("low"),
    (19, 36): Call("high"),
    (1, 12): Call("dozen", (1,)),
    (13, 24): Call("dozen", (2,)),
    (25, 36): Call("dozen", (3,)),
}


@dataclass
class Draft:
    """A call being put together from its pieces."""

    start: int
    words: list[WordEl] = field(default_factory=list)
    nums: Nums | None = None
    neighbours: NeighboursEl | None = None
    centres: tuple[int, ...] = ()
    linked: bool = False
    """Its numbers came after "du"/"of" ("les voisins du 17")."""
    alone: bool = False
    """Its neighbours word names the voisins du zéro when said alone ("les voisins")."""
    more: list[Nums] = field(default_factory=list)
    """Further numbers of a plural call ("les douzaines 1 et 3")."""
    range: RangeEl | None = None
    stake: StakeEl | None = None
    sep_before: str | None = None

    @property
    def concepts(self) -> list[str]:
        """The concepts of the words so far."""
        return [w.concept for w in self.words]

    @property
    def head(self) -> str | None:
        """The main word: the first that is not a qualifier (plein, cheval, an ordinal…)."""
        for c in self.concepts:
            if c not in FINALE_WORDS and c not in ORDINALS:
                return c
        return self.concepts[0] if self.concepts else None

    @property
    def is_bare(self) -> bool:
        """Only numbers, no word yet."""
        return (
            not self.words
            and self.neighbours is None
            and self.range is None
            and self.nums is not None
        )

    def absorbs(self, word: WordEl) -> bool:
        """Whether a word said right after this draft qualifies it."""
        c, have = word.concept, set(self.concepts)
        if self.neighbours is not None:
            return False
        if self.range is not None:
            return not self.words and (c in CHANCES or c in OUTSIDE)
        if self.is_bare:
            return c in POSTFIX or (c in PLURALS and self._count_only)
        head = self.head
        if c in MODIFIERS and head in QUALIFIED and not MODIFIERS & have:
            return True
        finale = head in ("finale", "finales")
        if c in DIRECTIONS and (finale or have <= FINALE_WORDS) and not DIRECTIONS & have:
            return True
        if c in FINALE_WORDS and c not in have and have <= FINALE_WORDS and self.nums is None:
            return True  # "vertical split final 1/4": qualifiers said before "final"
        if c in ("finale", "finales") and have and have <= FINALE_WORDS and self.nums is None:
            return True
        outside = OUTSIDE | set(PLURALS)
        if c in ORDINALS and head in outside and not ORDINALS.keys() & have:
            return True
        # "première douzaine", "à cheval sur les douzaines": said before the dozen word
        return c in outside and bool(have) and have <= ORDINALS.keys() | {"split"}

    @property
    def _count_only(self) -> bool:
        """A single number that may count what follows ("deux douzaines")."""
        return self.nums is not None and len(self.nums.numbers) == 1

    def wants_numbers(self, nums: Nums) -> bool:
        """Whether numbers said right after this draft belong to it."""
        if self.nums is not None or self.range is not None:
            return False
        if self.neighbours is not None:
            return False
        have = set(self.concepts)
        if have & {"tiers", "serie"} and "serie" not in have:
            return nums.numbers in ((5, 8), (5, 8, 10, 11))
        if have & (OUTSIDE | set(PLURALS)):
            return not have & ORDINALS.keys()
        return bool(have & TAKES_NUMBERS) or (bool(have) and have <= ORDINALS.keys())

    def positions(self) -> tuple[int, ...]:
        """How many positions or centres were announced: what a regrouping of number
        words ("trente sept" as 37 or as 30 and 7) must not change silently."""
        if self.neighbours is not None:
            return (len(self.centres) or len(self.nums.numbers if self.nums else ()),)
        if self.head in ("straight", "complete") and self.nums is not None:
            return (len(self.nums.numbers),)
        return (1,)


@dataclass(frozen=True)
class Check:
    """A count of pieces or a total said with some calls, checked once they are placed."""

    kind: str
    """``pieces`` or ``total``."""
    value: int
    text: str
    start: int
    targets: tuple[int, ...]
    """Indexes of the drafts it is said of."""


@dataclass(frozen=True)
class Question:
    """A bare number after a call ("voisins 45"): stake, or another bet?"""

    nums: Nums
    targets: tuple[int, ...]


class Assembler:
    """Runs the rules of the module docstring over one element list."""

    def __init__(self, house: House, text: str, alone: frozenset[str] = frozenset()) -> None:
        self.house = house
        self.text = text
        self.alone = alone
        """The neighbours words that, alone, name the voisins du zéro ("les voisins")."""
        self.drafts: list[Draft] = []
        self.current: Draft | None = None
        self.last_sep: str | None = None
        self.staked_upto = 0
        self.link: LinkEl | None = None
        self.link_target: Draft | None = None
        self.forward: StakeEl | None = None
        self.checks: list[Check] = []
        self.questions: list[Question] = []
        self.after_stake = False
        """The element just before was a stake, a count or a check."""
        self.juxtaposed: WordEl | None = None
        """A bet word said right after another bet, until an "et" makes it a list."""
        self.repeats: list[tuple[Draft, Draft]] = []
        """(call on one number, the bare number said after it): asked about at the end."""

    # ---- walking the elements ------------------------------------------------
    def feed(self, elements: list[Element]) -> None:
        """Consume every element.

        :raises AnnouncementError: pieces that cannot go together.
        """
        for el in elements:
            if self.link is not None and not isinstance(el, Nums):
                raise UnrecognizedError(
                    f"'{self.link.text}' must be followed by a number", column=self.link.start
                )
            if isinstance(el, Sep):
                self.current, self.last_sep = None, el.kind
                if el.kind == "and":
                    self.juxtaposed = None
                self.after_stake = False
                continue
            if self.last_sep == "with" and not isinstance(el, NeighboursEl):
                raise UnrecognizedError(
                    "'with' (avec, con) goes before the neighbours: say 'et' between two bets",
                    column=_start(el),
                )
            if isinstance(el, StakeEl):
                self._refuse_juxtaposed()
                self._stake(el)
            elif isinstance(el, NeighboursEl):
                self._neighbours(el)
            elif isinstance(el, WordEl):
                self._word(el)
            elif isinstance(el, LinkEl):
                self._link(el)
            elif isinstance(el, PiecesEl | CheckEl):
                self._check(el)
            elif isinstance(el, RangeEl):
                self._range(el)
            else:
                self._numbers(el)
            self.last_sep = None
            forward = isinstance(el, StakeEl) and el.kind == "forward"
            self.after_stake = isinstance(el, StakeEl | CheckEl | PiecesEl) and not forward
        self._refuse_juxtaposed()
        if self.forward is not None and not any(d.stake is self.forward for d in self.drafts):
            raise StakeError(
                f"'{self.forward.text}': on which bet? Say it after the amount",
                column=self.forward.start,
            )

    def _refuse_juxtaposed(self) -> None:
        """Two bets side by side are a list only when "et" comes before the last one."""
        el = self.juxtaposed
        if el is not None:
            raise AmbiguousError(
                f"'{el.text}' right after another bet with nothing between: two bets, or a "
                "word heard wrong? Say 'et' between two bets",
                [],
                column=el.start,
            )

    def _new(self, start: int) -> Draft:
        draft = Draft(start, sep_before=self.last_sep, stake=self.forward)
        self.drafts.append(draft)
        self.current = draft
        return draft

    def _word(self, el: WordEl) -> None:
        if el.concept in TABLE_TALK:
            self._refuse_talk(el)
        cur = self.current
        if cur is not None and cur.absorbs(el):
            cur.words.append(el)
            self._postfix_on_a_list(cur, el)
            return
        if cur is not None and cur.is_bare:
            said = "/".join(map(str, cur.nums.numbers))  # type: ignore[union-attr]
            raise AmbiguousError(
                f"'{said}' then '{el.text}' with nothing between: is {said} a bet of its "
                f"own, or part of '{el.text}'? Say 'et' between two bets",
                [],
                column=el.start,
            )
        if cur is not None and el.concept in FINALE_WORDS:
            raise IllegalBetError(
                f"'{el.text}' does not go with the bet before it", column=el.start
            )
        if cur is not None and self.juxtaposed is None:
            self.juxtaposed = el  # "voisins tiers et orphelins": a list, if an "et" follows
        self._new(el.start).words.append(el)

    def _postfix_on_a_list(self, draft: Draft, el: WordEl) -> None:
        """ "17 et 20 complets": both complete, or a straight on 17?  Ask."""
        if el.concept not in ONE_NUMBER_CALLS or draft.words[1:] or draft.sep_before is None:
            return
        before = self.drafts[-2] if len(self.drafts) > 1 else None
        if before is None or not before.is_bare or before.stake is not draft.stake:
            return
        a = "/".join(map(str, before.nums.numbers))  # type: ignore[union-attr]
        b = "/".join(map(str, draft.nums.numbers))  # type: ignore[union-attr]
        raise AmbiguousError(
            f"'{a}' and '{b} {el.text}': is {a} '{el.text}' too, or a straight-up? "
            f"Say '{el.text}' after each number",
            [],
            column=el.start,
        )

    def _refuse_talk(self, el: WordEl) -> None:
        if el.concept in ("chatter", "close"):
            raise UnrecognizedError(f"'{el.text}' is table talk, not a bet", column=el.start)
        raise UnrecognizedError(
            f"'{el.text}' replays a winning bet after the spin; it is not a new bet",
            column=el.start,
        )

    def _link(self, el: LinkEl) -> None:
        cur = self.current
        if cur is None and self._more_neighbours():
            self.link, self.link_target = el, self.drafts[-1]
            return
        free = cur is not None and cur.nums is None and not cur.centres and cur.range is None
        if (
            free
            and cur is not None
            and (
                cur.neighbours is not None
                or cur.wants_numbers(Nums((), el.start))
                or cur.head in ("tiers", "serie")
            )
        ):
            self.link, self.link_target = el, cur
            return
        raise UnrecognizedError(f"'{el.text}' does not fit here", column=el.start)

    def _more_neighbours(self) -> bool:
        """ "les voisins du 8 et du 23": "du" after "et" adds a centre to the call before."""
        if self.last_sep not in ("and", "comma") or not self.drafts:
            return False
        before = self.drafts[-1]
        return before.neighbours is not None and before.linked and before.stake is self.forward

    def _numbers(self, el: Nums) -> None:
        if len(set(el.numbers)) != len(el.numbers):
            said = "/".join(map(str, el.numbers))
            raise UnrecognizedError(f"'{said}': a number is said twice", column=el.start)
        cur = self.current
        if self.link is not None:
            target, self.link = self.link_target, None
            assert target is not None
            if target.neighbours is not None and len(el.numbers) > 1:
                said = " ".join(map(str, el.numbers))
                raise AmbiguousError(
                    f"'{said}' with nothing between: the neighbours of each, or one number "
                    "heard wrong? Say 'et' between the numbers",
                    [],
                    column=el.start,
                )
            if target.nums is None:
                target.nums, target.linked = el, True
            else:
                target.more.append(el)
            self.current = target
        elif cur is None:
            if self._joins_list(el) or self._said_total(el):
                return
            if self.after_stake:
                said = "/".join(map(str, el.numbers))
                raise AmbiguousError(
                    f"'{said}' right after the stake: a bet on {said}, or the stake said "
                    "twice? Say 'et' before another bet",
                    [],
                    column=el.start,
                )
            before = self._one_number_call_before(el)
            self._new(el.start).nums = el
            if before is not None:
                self.repeats.append((before, self.drafts[-1]))
        elif cur.wants_numbers(el):
            cur.nums = el
        else:
            self._bare_amount(cur, el)

    def _joins_list(self, el: Nums) -> bool:
        """Numbers after "et" that belong to the call before: "les douzaines 1 et 3", "les
        finales 3 et 6" (plurals), "cheval 14 et 15" (a split needs its second number)."""
        if self.last_sep not in ("and", "comma") or not self.drafts:
            return False
        before = self.drafts[-1]
        if before.nums is None or before.stake is not self.forward:
            return False
        others = set(before.concepts) - {before.head}
        if before.head in LISTS and others <= FINALE_WORDS:
            before.more.append(el)
        elif (
            before.head in PAIRED
            and not others
            and len(before.nums.numbers) == 1
            and len(el.numbers) == 1
        ):
            before.nums = Nums(before.nums.numbers + el.numbers, before.nums.start)
        else:
            return False
        self.current = before
        return True

    def _said_total(self, el: Nums) -> bool:
        """ "voisins par 5, 45": a number off the layout after staked bets is their total
        said again; it is checked like "= 45"."""
        if len(el.numbers) != 1 or el.numbers[0] <= 36 or not self._open_group():
            return False
        if any(d.stake is None for d in self.drafts[self.staked_upto :]):
            return False
        self._check(CheckEl(el.numbers[0], str(el.numbers[0]), el.start))
        return True

    def _one_number_call_before(self, el: Nums) -> Draft | None:
        """The call on one number just before "et N" ("finale 3 et 7"), if there is one."""
        if self.last_sep not in ("and", "comma") or not self.drafts or len(el.numbers) != 1:
            return None
        before = self.drafts[-1]
        if before.nums is None or len(before.nums.numbers) != 1 or before.words[1:]:
            return None
        neighbours_of = before.neighbours is not None and before.linked
        if not neighbours_of and before.head not in ONE_NUMBER_CALLS:
            return None
        return before

    def _bare_amount(self, draft: Draft, el: Nums) -> None:
        said = "/".join(map(str, el.numbers))
        if len(el.numbers) == 1 and self.house.bare_amount == "per_piece":
            self._stake(StakeEl("piece", el.numbers[0], said, el.start, el.start))
            return
        if self.questions:
            return
        self.questions.append(Question(el, self._unstaked_upto(draft)))
        self.current = None

    def _unstaked_upto(self, draft: Draft) -> tuple[int, ...]:
        end = self.drafts.index(draft) + 1
        return tuple(i for i in range(self.staked_upto, end) if self.drafts[i].stake is None) or (
            end - 1,
        )

    def _neighbours(self, el: NeighboursEl) -> None:
        run = self._number_run()
        if run:
            centres = tuple(n for d in run for n in d.nums.numbers)  # type: ignore[union-attr]
            # "17 20 et les voisins", "dix dix sept et les voisins": two centres, or one
            # number heard twice or in two parts?  Only a separator makes a list clear.
            together = next((d for d in run if len(d.nums.numbers) > 1), None)  # type: ignore[union-attr]
            if together is not None:
                said = " ".join(map(str, together.nums.numbers))  # type: ignore[union-attr]
                raise AmbiguousError(
                    f"'{said}' with nothing between, then 'voisins': the neighbours of each, "
                    "or one number heard twice? Say 'et' between the numbers",
                    [],
                    column=together.start,
                )
            stake = run[0].stake
            del self.drafts[-len(run) :]
            draft = self._new(run[0].start)
            draft.neighbours, draft.centres, draft.stake = el, centres, stake
            return
        cur = self.current
        if cur is not None and cur.is_bare:
            nums = "/".join(map(str, cur.nums.numbers))  # type: ignore[union-attr]
            raise AmbiguousError(
                f"'{nums}' then 'voisins' with nothing between: the neighbours of {nums}, "
                f"or {nums} and the voisins du zéro?",
                [f"neighbours {nums} x{self.house.piece_value}",
                 f"straight {nums} x{self.house.piece_value} ; voisins x{self.house.piece_value}"],
                column=el.start,
            )  # fmt: skip
        if cur is not None and self.juxtaposed is None:
            self.juxtaposed = WordEl("neighbours", el.text, el.start)
        draft = self._new(el.start)
        draft.neighbours, draft.alone = el, el.text in self.alone

    def _number_run(self) -> list[Draft]:
        """The bare-number calls just before "et les voisins" / "avec les voisins"."""
        if self.current is not None or self.last_sep not in ("and", "with"):
            return []
        run: list[Draft] = []
        for draft in reversed(self.drafts[self.staked_upto :]):
            if not draft.is_bare or draft.stake is not self.forward:
                break
            run.insert(0, draft)
            if draft.sep_before not in ("and", "comma"):
                break
        return run

    def _range(self, el: RangeEl) -> None:
        cur = self.current
        free = cur is not None and cur.range is None and cur.nums is None and bool(cur.words)
        if free and cur is not None and (cur.head in CHANCES or cur.head in OUTSIDE):
            cur.range = el
            return
        if cur is not None and cur.is_bare:
            raise AmbiguousError(
                f"a number then '{el.text}' with nothing between", [], column=el.start
            )
        self._new(el.start).range = el

    def _stake(self, el: StakeEl) -> None:
        self._refuse_stutter(el)
        if el.kind == "forward":
            self.forward, self.current = el, None
            return
        targets = [d for d in self.drafts[self.staked_upto :] if d.stake is None]
        if not targets:
            self._stake_again(el)
            return
        for d in targets:
            d.stake = el
        self.staked_upto = len(self.drafts)
        self.current, self.forward = None, None

    def _refuse_stutter(self, el: StakeEl) -> None:
        """ "tiers, 10 10 euros each": a bet on 10, or the amount said twice?  Ask."""
        cur = self.current
        amount_first = el.text[:1].isdigit()  # "10 euros each", not "à 10"
        if (
            cur is not None
            and cur.is_bare
            and amount_first
            and cur.nums == Nums((el.amount,), cur.start)
        ):
            raise AmbiguousError(
                f"'{el.amount} {el.text}': a bet on {el.amount}, or the amount said twice?",
                [],
                column=cur.start,
            )

    def _stake_again(self, el: StakeEl) -> None:
        """A stake after every call has one: a total confirms them; anything else clashes."""
        if not self.drafts:
            raise StakeError(f"the stake '{el.text}' comes before any bet", column=el.start)
        if el.kind in ("total", "money"):
            self._check(CheckEl(el.amount, el.text, el.start))
            return
        raise StakeError(
            f"'{el.text}': a second stake for a bet that already has one", column=el.start
        )

    def _check(self, el: PiecesEl | CheckEl) -> None:
        targets = self._open_group()
        if not targets:
            raise StakeError(f"'{el.text}': of which bet? Say the bet first", column=el.start)
        kind, value = ("pieces", el.count) if isinstance(el, PiecesEl) else ("total", el.total)
        self.checks.append(Check(kind, value, el.text, el.start, targets))

    def _open_group(self) -> tuple[int, ...]:
        """The calls a count or a total is said of: those still without a stake, or else
        those of the last stake."""
        unstaked = [
            i for i in range(self.staked_upto, len(self.drafts)) if self.drafts[i].stake is None
        ]
        if unstaked:
            return tuple(unstaked)
        last = self.drafts[-1].stake if self.drafts else None
        return tuple(i for i, d in enumerate(self.drafts) if d.stake is last and last)

    # ---- from drafts to calls -------------------------------------------------
    def shape(self) -> tuple[tuple[int, ...], ...]:
        """How many positions each call announces (see :meth:`Draft.positions`)."""
        return tuple(d.positions() for d in self.drafts)

    def announcement(self) -> Announcement:
        """The calls with their stakes, once every element is fed.

        :raises AnnouncementError: an illegal or unclear bet or stake.
        """
        if not self.drafts:
            raise UnrecognizedError("no bet in this announcement", column=0)
        resolved = [(d, _resolve(d, self.house)) for d in self.drafts]
        recipes = [(d, call, self._recipe(d, call)) for d, calls in resolved for call in calls]
        if self.questions:
            self._ask(self.questions[0], recipes)
        groups: dict[int, list[tuple[Call, Recipe]]] = {}
        for draft, call, recipe in recipes:
            groups.setdefault(_group_key(draft), []).append((call, recipe))
        units = {key: self._unit(key, members) for key, members in groups.items()}
        placed = [
            (draft, PlacedCall.from_recipe(call, units[_group_key(draft)], recipe))
            for draft, call, recipe in recipes
        ]
        for check in self.checks:
            self._verify(check, placed)
        for before, after in self.repeats:
            self._ask_repeat(before, after, placed)
        self._ask_unstaked_tail(placed)
        for draft in self.drafts:
            self._ask_finales_pair(draft, placed)
        return Announcement(self.text, tuple(p for _, p in placed))

    def _ask_finales_pair(self, draft: Draft, placed: list[tuple[Draft, PlacedCall]]) -> None:
        """ "finals eight and nine": the finales 8 and 9 en plein, or the finale 8/9 à cheval?"""
        if draft.head != "finales" or "straight" in draft.concepts or len(draft.more) != 1:
            return
        mine = [p for d, p in placed if d is draft]
        digits = sorted(n for p in mine for n in p.call.numbers)
        if len(mine) != 2 or len(digits) != 2 or digits[1] - digits[0] not in (1, 3):
            return
        cheval = Call("finale_cheval", (digits[0], digits[1]))
        try:
            cheval.recipe(self.house)
        except IllegalBetError:
            return
        raise AmbiguousError(
            f"finales {digits[0]} and {digits[1]}: two finales en plein, or the finale "
            f"{digits[0]}/{digits[1]} à cheval? Say 'en plein' or 'à cheval'",
            [" ; ".join(p.notation() for p in mine), f"{cheval.notation()} x{mine[0].unit}"],
            column=draft.start,
        )

    def _ask_unstaked_tail(self, placed: list[tuple[Draft, PlacedCall]]) -> None:
        """ "voisins à 5 et tiers": is the tiers at 5 too, or at one piece?  Ask."""
        last = max((i for i, d in enumerate(self.drafts) if d.stake is not None), default=None)
        if last is None or last == len(self.drafts) - 1:
            return
        tail = self.drafts[last + 1 :]
        stake = self.drafts[last].stake
        assert stake is not None
        head = [p for d, p in placed if not any(d is t for t in tail)]
        rest = [p for d, p in placed if any(d is t for t in tail)]

        def said(calls: list[PlacedCall]) -> str:
            return " ; ".join(c.notation() for c in calls)

        readings = [said(head + rest)]
        if stake.kind == "piece":
            readings.append(said(head + [replace(c, unit=stake.amount) for c in rest]))
        if len(tail) == 1 and tail[0].is_bare and tail[0].nums is not None:
            total = sum(c.total for c in head)
            if tail[0].nums.numbers == (total,):
                readings.append(said(head))
        raise AmbiguousError(
            f"'{stake.text}' is said before the last bets: do they have a stake of their "
            "own? Say the stake after each bet, or once at the end",
            list(dict.fromkeys(readings)),
            column=tail[0].start,
        )

    def _ask_repeat(
        self, before: Draft, after: Draft, placed: list[tuple[Draft, PlacedCall]]
    ) -> None:
        """ "finale 3 et 7": the finale 7, or the 7 en plein?  Ask, when both are bets."""
        gone = not any(d is after for d in self.drafts)
        # "finale 3 et 6 en plein": the finale 6 en plein, or the 6 en plein?
        plein = before.head == "finale" and after.concepts == ["straight"]
        bare = after.is_bare or (plein and not after.neighbours and not after.range)
        if gone or not bare or after.nums is None or len(after.nums.numbers) != 1:
            return
        n = after.nums.numbers[0]
        try:
            words = before.words + after.words
            again_draft = replace(before, nums=after.nums, start=after.start, words=words)
            (again,) = _resolve(again_draft, self.house)
            again.recipe(self.house)
        except (AnnouncementError, ValueError):
            return
        mine = next(p for d, p in placed if d is after)
        first = " ; ".join(p.notation() for d, p in placed if d is not after)
        other = PlacedCall(again, mine.unit, ()).notation()
        raise AmbiguousError(
            f"'{n}' after '{before.words[0].text if before.words else 'voisins'} "
            f"{before.nums.numbers[0]}': the same bet on {n}, or a straight-up on {n}? "  # type: ignore[union-attr]
            "Say the bet's name before each number",
            [f"{first} ; {mine.notation()}", f"{first} ; {other}"],
            column=after.start,
        )

    def _recipe(self, draft: Draft, call: Call) -> Recipe:
        try:
            return call.recipe(self.house)
        except IllegalBetError as err:
            err.column = draft.start if err.column is None else err.column
            raise

    def _ask(self, q: Question, recipes: list[tuple[Draft, Call, Recipe]]) -> None:
        """ "voisins 45": list what it could mean, as bets."""
        targets = [self.drafts[i] for i in q.targets]
        members = [(c, r) for d, c, r in recipes if any(d is t for t in targets)]
        said = "/".join(map(str, q.nums.numbers))
        calls = " ; ".join(c.notation() for c, _ in members)
        pieces = sum(k for _, r in members for _, k in r)
        readings = []
        if len(q.nums.numbers) == 1:
            amount = q.nums.numbers[0]
            readings.append(f"{calls} x{amount}")
            if amount % pieces == 0 and pieces > 1:
                readings.append(f"{calls} x{amount // pieces}")
        as_bet = _as_position(q.nums.numbers)
        if as_bet is not None:
            unit = f"x{self.house.piece_value}"
            readings.append(" ; ".join(f"{c.notation()} {unit}" for c, _ in members) +
                            f" ; {as_bet.notation()} {unit}")  # fmt: skip
        raise AmbiguousError(
            f"'{said}' after the bet: is it the stake or another number? "
            "Say the stake with its word ('à 5', 'pour 45')",
            readings,
            column=q.nums.start,
        )

    def _unit(self, key: int, members: list[tuple[Call, Recipe]]) -> int:
        stake = next((d.stake for d in self.drafts if _group_key(d) == key), None)
        if stake is None:
            return self.house.piece_value
        if stake.kind == "piece":
            return stake.amount
        pieces = sum(k for _, recipe in members for _, k in recipe)
        if stake.kind == "total" or (pieces == 1 and stake.kind != "piece"):
            if stake.amount % pieces:
                low = stake.amount // pieces
                raise StakeError(
                    f"{stake.amount} in total does not divide into {pieces} pieces "
                    f"(between {low} and {low + 1} a piece)",
                    column=stake.start,
                )
            return stake.amount // pieces
        if stake.kind == "money" and self.house.bare_amount == "per_piece":
            return stake.amount
        said = " ; ".join(call.notation() for call, _ in members)
        readings = [f"{said} x{stake.amount}"]
        if stake.amount % pieces == 0:
            readings.append(f"{said} x{stake.amount // pieces}")
        raise AmbiguousError(
            f"'{stake.text}': {stake.amount} a piece, or {stake.amount} in total?",
            readings,
            column=stake.start,
        )

    def _verify(self, check: Check, placed: list[tuple[Draft, PlacedCall]]) -> None:
        targets = [self.drafts[i] for i in check.targets]
        calls = [p for d, p in placed if any(d is t for t in targets)]
        names = " ; ".join(c.call.notation() for c in calls)
        if check.kind == "pieces":
            pieces = sum(c.pieces for c in calls)
            if pieces != check.value:
                raise StakeError(
                    f"'{check.text}': {names} is {pieces} pieces, not {check.value}",
                    column=check.start,
                )
            return
        total = sum(c.total for c in calls)
        whole = sum(p.total for _, p in placed)
        if check.value not in (total, whole):
            raise StakeError(
                f"'{check.text}': {names} add up to {total}, not {check.value}",
                column=check.start,
            )


def _start(el: Element) -> int:
    return el.start


def _group_key(draft: Draft) -> int:
    """Calls sharing a stake form one group (the stake's identity); unstaked calls stand alone."""
    return id(draft.stake) if draft.stake is not None else -id(draft)


def _illegal(message: str, draft: Draft) -> IllegalBetError:
    return IllegalBetError(message, column=draft.start)


def _unused(draft: Draft, what: str) -> UnrecognizedError:
    return UnrecognizedError(f"'{what}' does not fit this bet", column=draft.start)


def _as_position(nums: tuple[int, ...]) -> Call | None:
    """The bet a group of numbers names on its own, if any."""
    if any(n > 36 for n in nums):
        return None
    if len(nums) == 1:
        return Call("straight", nums)
    pos = from_pair(*nums) if len(nums) == 2 else inside(nums)
    return Call(pos.kind.value, pos.numbers) if pos is not None else None


def _numbers(draft: Draft, what: str) -> tuple[int, ...]:
    if draft.nums is None:
        raise _illegal(f"{what}: which number?", draft)
    for n in draft.nums.numbers:
        if n > 36:
            raise IllegalBetError(f"{n} is not on the layout (0 to 36)", column=draft.nums.start)
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
        raise _unused(draft, "the numbers after it")


def _resolve(draft: Draft, house: House) -> list[Call]:
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
        return [_resolve_tiers(draft)]
    if head == "orphelins":
        _only(draft, {"orphelins", *MODIFIERS}, numbers=False)
        if "straight" in have:
            return [Call("orphelins_plein")]
        plein = house.orphelins_default == "plein" and "split" not in have
        return [Call("orphelins_plein" if plein else "orphelins")]
    if head == "finale":
        return [_resolve_finale(draft, _numbers(draft, "finale"))]
    if head == "finales":
        lists = [_numbers(draft, "finales"), *(m.numbers for m in draft.more)]
        return [_resolve_finale(replace(draft, more=[]), nums) for nums in lists]
    if head in NAMED_DOZENS:
        _only(draft, {head}, numbers=False)
        return [Call("dozen", (NAMED_DOZENS[head],))]
    if head == "complete":
        _only(draft, {"complete"}, numbers=True)
        nums = _numbers(draft, "complet")
        _one_each(draft, nums)
        return [Call("complete", (n,)) for n in nums]
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
            f"'{said}' with nothing between: one bet on each, or a number heard wrong? "
            "Say 'et' between the numbers",
            [],
            column=draft.start,
        )


def _resolve_neighbours(draft: Draft) -> Call:
    nb = draft.neighbours
    assert nb is not None
    _only(replace(draft, more=[]), set(), numbers=True)
    if draft.nums is not None:
        nums = _numbers(draft, "voisins du") + tuple(n for m in draft.more for n in m.numbers)
        if any(n > 36 for n in nums):
            raise _illegal(f"{max(nums)} is not on the layout (0 to 36)", draft)
        if len(set(nums)) != len(nums):
            raise _illegal("the same number twice", draft)
        if nums == (0,) and nb.count is None:
            return Call("voisins")
        return Call("neighbours", nums, nb.count)
    if not draft.centres:
        if nb.count is not None:
            raise _illegal(f"{nb.count} neighbours of which number?", draft)
        if draft.sep_before == "with" or not draft.alone:
            raise _illegal("neighbours of which number?", draft)
        return Call("voisins")
    for n in draft.centres:
        if n > 36:
            raise _illegal(f"{n} is not on the layout (0 to 36)", draft)
    return Call("neighbours", draft.centres, nb.count)


def _resolve_tiers(draft: Draft) -> Call:
    _only(draft, {"tiers", "serie", *MODIFIERS}, numbers=True)
    nums = draft.nums.numbers if draft.nums is not None else None
    if draft.head == "serie" or "serie" in draft.concepts:
        if nums is None:
            raise _illegal("serie: which one? (serie 5/8 or 0/2/3)", draft)
        if nums not in SERIES:
            raise _illegal(f"no serie {'/'.join(map(str, nums))} (serie 5/8 or 0/2/3)", draft)
    name = SERIES[nums] if nums is not None else "tiers"
    if "straight" in draft.concepts:
        if name != "tiers":
            raise _illegal(f"there is no {name.replace('_', ' ')} en plein", draft)
        return Call("tiers_plein")
    if "split" in draft.concepts and name != "tiers":
        raise _illegal(f"{name.replace('_', ' ')} is not all à cheval", draft)
    return Call(name)


def _resolve_finale(draft: Draft, nums: tuple[int, ...]) -> Call:
    _only(draft, {"finale", "finales", *FINALE_WORDS}, numbers=True)
    have = set(draft.concepts)
    if "straight" in have and have & ({"split"} | DIRECTIONS):
        raise _illegal("a finale is en plein or à cheval, not both", draft)
    cheval = have & ({"split"} | DIRECTIONS)
    if len(nums) == 1 and not cheval:
        return Call("finale_plein", nums)
    if len(nums) == 2 and "straight" not in have:
        low, high = sorted(nums)
        for direction, gap in (("horizontal", 1), ("vertical", 3)):
            if direction in have and high - low != gap:
                raise _illegal(
                    f"finale {low}/{high} is not {direction}: a {direction} finale à cheval "
                    f"is two digits {'side by side (8/9)' if gap == 1 else 'a row apart (3/6)'}",
                    draft,
                )
        return Call("finale_cheval", (low, high))
    form = "à cheval takes two digits (8/9)" if cheval else "en plein takes one digit"
    raise _illegal(f"finale {'/'.join(map(str, nums))}: a finale {form}", draft)


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
        raise _illegal(f"which {what}?", draft)
    return Call(head, (ordinal,))


def _resolve_plural(draft: Draft, head: str, house: House) -> list[Call]:
    """ "les deux premières douzaines", "les colonnes 34 et 35 à cheval", "douzaines 1 et 3"."""
    single = PLURALS[head]
    _only_plural(draft, head)
    twice = "two_dozens" if single == "dozen" else "two_columns"
    ordinal = next((c for c in draft.concepts if c in ORDINALS), None)
    nums = draft.nums.numbers if draft.nums is not None else ()
    if ordinal is not None:
        if nums != (2,) or draft.more or ordinal not in ("first", "last"):
            raise _illegal(f"which {head}? ('les deux premières', 'les deux dernières')", draft)
        return [Call(twice, (1 if ordinal == "first" else 2,))]
    said = nums + tuple(n for m in draft.more for n in m.numbers)
    indexes = [_outside_index(single, n) for n in said]
    if not indexes or None in indexes:
        raise _illegal(f"which {head}?", draft)
    idx = sorted(i for i in indexes if i is not None)
    if len(set(idx)) != len(idx):
        raise _illegal(f"the same {single} twice", draft)
    apart = [Call(single, (i,)) for i in idx]
    side_by_side = len(idx) == 2 and idx[1] - idx[0] == 1
    if "split" in draft.concepts:
        if not side_by_side:
            raise _illegal(f"{head} à cheval are two side by side", draft)
        return [Call(twice, (idx[0],))]
    if side_by_side and house.allow_24_numbers:
        unit = f"x{house.piece_value}"
        raise AmbiguousError(
            f"two {head}: one bet on both (à cheval, 24 numbers), or one bet on each?",
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
            raise _illegal(f"'{draft.words[0].text}' is not {rng.low} to {rng.high}", draft)
    return call


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
    _only(draft, frozenset(ORDINALS), numbers=True)
    if len(draft.words) > 1:
        raise _unused(draft, draft.words[1].text)
    which = draft.concepts[0]
    nums = _numbers(draft, which)
    if len(nums) == 1 and (which, nums[0]) in RUNS:
        name, numbers = RUNS[(which, nums[0])]
        return Call(name, numbers)
    raise _illegal(f"no bet called '{draft.words[0].text} {nums[0]}'", draft)


def _describe(nums: tuple[int, ...]) -> str:
    return "/".join(map(str, nums))


def _position_by_numbers(draft: Draft) -> Call:
    nums = _numbers(draft, "bet")
    found = _as_position(nums)
    if found is None:
        raise _illegal(_why_not(nums), draft)
    return found


def _why_not(nums: tuple[int, ...]) -> str:
    if len(nums) == 2:
        a, b = sorted(nums)
        return f"no position {a}/{b}: {a} and {b} are not a split, street, corner or six-line"
    return f"no position {_describe(nums)} on the layout"


def _resolve_named(draft: Draft, head: str) -> list[Call]:
    _only(draft, {head}, numbers=True)
    nums = _numbers(draft, draft.words[0].text)
    kind = BetKind(head)
    if kind is BetKind.STRAIGHT:
        _one_each(draft, nums)
        return [Call("straight", (n,)) for n in nums]
    if kind is BetKind.STREET and nums == (0,):
        raise AmbiguousError(
            "which transversale of the zero: 0/1/2 or 0/2/3?",
            ["street 0/1/2 x1", "street 0/2/3 x1"],
            column=draft.start,
        )
    if kind is BetKind.SPLIT and nums == (0,):
        raise AmbiguousError(
            "which split of the zero: 0/1, 0/2 or 0/3?",
            ["split 0/1 x1", "split 0/2 x1", "split 0/3 x1"],
            column=draft.start,
        )
    if kind is BetKind.CORNER and nums == (0,):
        return [Call("corner", (0, 1, 2, 3))]
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


def assemble(
    elements: list[Element], house: House, text: str, alone: frozenset[str] = frozenset()
) -> Announcement:
    """Turn the elements of one reading into an announcement.

    :param alone: the neighbours words that alone name the voisins du zéro.
    :raises AnnouncementError: illegal, unclear or badly staked bets.
    """
    asm = Assembler(house, text, alone)
    asm.feed(elements)
    return asm.announcement()


__all__ = ["AnnouncementError", "Assembler", "assemble"]
