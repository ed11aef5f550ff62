"""The neighbours said after numbers or with a count: "17 et les voisins", "le 31 deux de
chaque côté", "il 5 e i laterali, due per parte", and the numbers said together that may
not be a list of centres.  One part of the
:class:`~callbets.language.assemble.walk.Assembler` (a base class)."""

from __future__ import annotations

import itertools
from dataclasses import replace

from ...errors import AmbiguousError
from ...messages import said as message
from ...roulette.house import House
from ..transform import NeighboursEl, Nums, StakeEl, WordEl
from .draft import Draft, one_number
from .resolve import resolve


def _one_number_in_parts(a: int, b: int) -> bool:
    """Whether two numbers said one after the other may be one number said in parts,
    twice or the wrong way round: "uno nove" (19?), "dix dix-sept" (17 said again?),
    "three thirty" or "deux vingt" (33, 22 the wrong way round?), "dix-sept sept"."""
    return (
        (a < 10 and b < 10 and a * 10 + b <= 36)
        or (a % 10 == 0 and a < b < a + 10)
        or (b % 10 == 0 and b >= 10 and 0 < a < 10 and a + b <= 36)
        or (a > 10 and b < 10 and a % 10 == b)
    )


class NeighboursSaid:
    """The Assembler's handling of the neighbours words."""

    house: House
    text: str
    drafts: list[Draft]
    current: Draft | None
    last_sep: str | None
    staked_upto: int
    forward: StakeEl | None
    juxtaposed: WordEl | None
    alone: frozenset[str]
    voisins_name: frozenset[str]

    def _new(self, start: int) -> Draft:
        raise NotImplementedError  # the Assembler's

    def _ask_straight_then_voisins(self, el: NeighboursEl) -> None:
        raise NotImplementedError  # the Assembler's

    def _spoken_together(self, nums: Nums | None) -> bool:
        """Several numbers with nothing between, as neighbours' centres, that may not be a
        list: number words that group another way ("dix sept vingt": 17 and 20, or 10, 7
        and 20?), a number said digit by digit ("uno nove": 1 and 9, or 19?), one heard in
        two parts ("dix dix-sept": 10 and 17, or 17 said again?) or a count out of place
        ("28 2 et les voisins").  Others are a list, as a recogniser writes "9, 14 and
        the neighbours": "nine fourteen and the neighbours"."""
        if nums is None or len(nums.numbers) < 2:
            return False
        if len(self.text[nums.start : nums.end].split()) != len(nums.numbers):
            return True  # a number of several words ("dix sept vingt": 17, 20 or 10, 7, 20?)
        pairs = itertools.pairwise(nums.numbers)
        return any(_one_number_in_parts(a, b) for a, b in pairs) or (
            nums.numbers[-1] <= self.house.neighbours_max
        )

    def _neighbours(self, el: NeighboursEl) -> None:
        run = self._number_run()
        if run:
            self._ask_number_then_voisins(run, el)
            self._bind_run(run, el)
            return
        self._ask_straight_then_voisins(el)
        cur = self.current
        if cur is None and not el.text and self.last_sep == "comma":
            cur = self._bare_before()  # "17, two either side": the count after a pause
        if cur is not None and cur.is_bare and not el.text and one_number(cur):
            # "le 31 deux de chaque côté", "1 and 20 one either side": no other reading,
            # but "17 and two two either side" is a number said twice: ask
            if cur.nums is not None and cur.nums.numbers == (el.count,):
                raise AmbiguousError(message("count_twice", count=el.count), [], column=el.start)
            self.current = None
            self._bind_run(self._number_run(cur.sep_before) or [cur], el)
            return
        # "il 5 e i laterali due per parte", "le 17 et ses voisins, 3 de chaque côté": a
        # count of either side names how many neighbours the call before has
        before = cur or (self.drafts[-1] if self.last_sep == "comma" and self.drafts else None)
        if (
            before is not None
            and before.neighbours is not None
            and not el.text
            and not before.neighbours.count
        ):
            before.neighbours = NeighboursEl(
                el.count, before.neighbours.start, before.neighbours.text
            )
            return
        if cur is not None and cur.is_bare:
            nums = "/".join(map(str, cur.nums.numbers))  # type: ignore[union-attr]
            raise AmbiguousError(
                message("neighbours_or_voisins", said=nums),
                [f"neighbours {nums} x{self.house.piece_value}",
                 f"straight {nums} x{self.house.piece_value} ; voisins x{self.house.piece_value}"],
                column=el.start,
            )  # fmt: skip
        if cur is not None and self.juxtaposed is None:
            self.juxtaposed = WordEl("neighbours", el.text, el.start)
        draft = self._new(el.start)
        draft.neighbours, draft.alone = el, el.text in self.alone

    def _ask_number_then_voisins(self, run: list[Draft], el: NeighboursEl) -> None:
        """ "seventeen and the voisins": where the neighbours word is the called bet's
        borrowed name, not the language's word for neighbours, it may be the number's
        neighbours or the voisins du zéro; ask."""
        if el.text not in self.voisins_name or el.count:
            return
        if not all(one_number(d) for d in run):
            return
        numbers = [n for d in run for n in d.nums.numbers]  # type: ignore[union-attr]
        unit = self.house.piece_value
        straights = " ; ".join(f"straight {n} x{unit}" for n in numbers)
        raise AmbiguousError(
            message("number_then_voisins", number=", ".join(map(str, numbers))),
            [f"neighbours {'+'.join(map(str, numbers))} x{unit}", f"{straights} ; voisins x{unit}"],
            column=el.start,
        )

    def _bare_before(self) -> Draft | None:
        before = self.drafts[-1] if self.drafts else None
        if before is None or not before.is_bare or before.stake is not self.forward:
            return None
        return before

    def _ask_centres_or_stake(self) -> None:
        """Neighbours with no stake said for them, where one number may be the stake
        instead of a centre: asked, with both readings (the checks below)."""
        for draft in self.drafts:
            if draft.neighbours is None or draft.stake is not None:
                continue
            self._ask_first_centre_or_stake(draft)
            self._ask_word_then_number(draft)
            self._ask_last_centre_or_stake(draft)

    def _ask_last_centre_or_stake(self, draft: Draft) -> None:
        """ "neighbours 17 5", "the neighbours of 17 20": centres written side by side: the
        last may be the stake."""
        nums = draft.nums
        if draft.more or nums is None or nums.slashed or len(nums.numbers) < 2:
            return
        last = nums.numbers[-1]
        fewer = replace(draft, nums=replace(nums, numbers=nums.numbers[:-1]))
        raise AmbiguousError(
            message("stake_or_number", said=str(last)),
            self._centres_or_stake(draft, fewer, last),
            column=nums.start,
        )

    def _ask_first_centre_or_stake(self, draft: Draft) -> None:
        """ "Dix, le 5 et les voisins": the first of two centres, said first and followed by
        a comma, may be the stake said first."""
        if not draft.amount_first:
            return
        first = draft.centres[0]
        fewer = replace(draft, centres=draft.centres[1:])
        raise AmbiguousError(
            message("leading_number", amount=first),
            self._centres_or_stake(draft, fewer, first),
            column=draft.start,
        )

    def _centres_or_stake(self, draft: Draft, fewer: Draft, amount: int) -> list[str]:
        """The two readings: every number a centre at one piece, or ``fewer`` centres at
        ``amount`` a piece."""
        unit = self.house.piece_value
        return [f"{c.notation()} x{unit}" for c in resolve(draft, self.house)] + [
            f"{c.notation()} x{amount}" for c in resolve(fewer, self.house)
        ]

    def _neighbours_or_voisins(self, amount: int) -> list[str]:
        """The two readings of a number after the neighbours said alone: their centre at
        one piece, or the voisins du zéro at that much a piece."""
        return [f"neighbours {amount} x{self.house.piece_value}", f"voisins x{amount}"]

    def _ask_word_then_number(self, draft: Draft) -> None:
        """ "neighbours five", "Neighbours 25": the neighbours word, then one number with
        no "of" and no stake said anywhere: the number may be their centre, or the stake of
        the neighbours meant as the voisins du zéro [sets 18 and 21]; asked."""
        said, nums = draft.neighbours, draft.nums
        if said is None or nums is None or draft.linked:
            return
        if len(nums.numbers) != 1 or said.count or said.start > nums.start or draft.more:
            return
        n = nums.numbers[0]
        raise AmbiguousError(
            message("stake_or_number", said=str(n)),
            self._neighbours_or_voisins(n),
            column=nums.start,
        )

    def _bind_run(self, run: list[Draft], el: NeighboursEl) -> None:
        """Numbers said before "et les voisins" become the neighbours' centres."""
        centres = tuple(n for d in run for n in d.nums.numbers)  # type: ignore[union-attr]
        # "17 20 et les voisins", "dix dix sept et les voisins": two centres, or one
        # number heard twice or in two parts?  Only a separator makes a list clear.
        together = next((d for d in run if self._spoken_together(d.nums)), None)
        if together is not None:
            said = " ".join(map(str, together.nums.numbers))  # type: ignore[union-attr]
            raise AmbiguousError(
                message("neighbours_heard_twice", said=said), [], column=together.start
            )
        stake, sep = run[0].stake, run[0].sep_before
        first = len(run) == 2 and run[1].sep_before == "comma" and self.drafts[0] is run[0]
        del self.drafts[-len(run) :]
        draft = self._new(run[0].start)
        draft.neighbours, draft.centres, draft.stake, draft.sep_before = el, centres, stake, sep
        draft.amount_first = first and stake is None

    def _number_run(self, sep: str | None = None) -> list[Draft]:
        """The bare-number calls just before "et les voisins" / "avec les voisins" (or
        before "two either side", which follows its number with ``sep`` before it)."""
        sep = sep or self.last_sep
        if self.current is not None or sep not in ("and", "with"):
            return []
        run: list[Draft] = []
        for draft in reversed(self.drafts[self.staked_upto :]):
            if not draft.is_bare or draft.stake is not self.forward:
                break
            run.insert(0, draft)
            if draft.sep_before not in ("and", "comma"):
                break
        return run
