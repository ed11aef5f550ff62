"""What is said around a call rather than in it: "aussi", "deux fois", the second
number of a split after "avec", and "les voisins" after a number said en plein.  One
part of the :class:`~callbets.language.assemble.walk.Assembler` (its base class)."""

from __future__ import annotations

from dataclasses import replace

from ...errors import AmbiguousError, UnrecognizedError
from ...messages import said as message
from ...roulette.house import House
from ..transform import AlsoEl, Element, NeighboursEl, Nums, RepeatEl, StakeEl
from .draft import MAX_TIMES, Draft


class AroundCalls:
    """The Assembler's handling of what is said around its calls."""

    house: House
    drafts: list[Draft]
    current: Draft | None
    last_sep: str | None
    forward: StakeEl | None
    after_stake: bool
    alone: frozenset[str]
    voisins_name: frozenset[str]
    said_also: AlsoEl | None
    said_times: RepeatEl | None

    def _also(self, el: AlsoEl) -> None:
        """ "le tiers aussi" (after its call) or "anche la serie" (before it)."""
        cur = self.current
        if self.said_also is not None or (cur is not None and cur.also is not None):
            raise UnrecognizedError(message("also_what", word=el.text), column=el.start)
        if cur is None and self._also_said_again():
            return  # "voisins par cinq et le tiers par cinq aussi": the same stake, said
        if cur is None:
            self.said_also = el
        else:
            cur.also = el

    def _also_said_again(self) -> bool:
        """ "aussi" right after a call's own stake a piece, the same as the call before's:
        it says nothing more ("le tiers par cinq aussi")."""
        if not self.after_stake or len(self.drafts) < 2:
            return False
        last, before = self.drafts[-1].stake, self.drafts[-2].stake
        return (
            last is not None
            and before is not None
            and last is not before
            and last.kind == before.kind == "piece"
            and last.amount == before.amount
        )

    def _times(self, el: RepeatEl) -> None:
        """ "deux fois les voisins à 5" (before its call) or "voisins à 5 deux fois"
        (after it, its stake said): the call placed that many times."""
        if not 1 <= el.count <= MAX_TIMES or self.said_times is not None:
            raise UnrecognizedError(message("times_count", word=el.text, most=MAX_TIMES),
                                    column=el.start)  # fmt: skip
        after = self.current
        if after is None and self.after_stake and self.drafts:
            after = self.drafts[-1]
        if after is None:
            self.said_times = el  # for the call said next
            return
        shared = [d for d in self.drafts if d is not after and d.stake is not None
                  and d.stake is after.stake]  # fmt: skip
        if after.times != 1 or shared:
            raise AmbiguousError(message("times_which", word=el.text), [], column=el.start)
        after.times = el.count

    def _split_with(self, el: Element) -> bool:
        """ "le 5 à cheval avec le 6", "il 23 a cavallo col 26": the second number of a
        split said after "with"; the split is checked like any other ("cheval 5/9")."""
        before = self.drafts[-1] if self.drafts else None
        if not isinstance(el, Nums) or len(el.numbers) != 1 or before is None:
            return False
        if before.concepts != ["split"] or before.nums is None or before.more:
            return False
        if len(before.nums.numbers) != 1 or before.stake is not self.forward:
            return False
        joined = before.nums.numbers + el.numbers
        before.nums = replace(before.nums, numbers=joined, end=el.end, slashed=True)
        self.current = before
        return True

    def _ask_straight_then_voisins(self, el: NeighboursEl) -> None:
        """ "il 8 in pieno e i vicini da 2": after a number said en plein, "and the
        neighbours" alone may be that number's neighbours or the voisins du zéro; ask."""
        if el.text not in self.alone or el.count or self.current is not None:
            return
        before = self.drafts[-1] if self.drafts and self.last_sep in ("and", "with") else None
        if before is None or before.nums is None or len(before.nums.numbers) != 1:
            return
        if before.concepts != ["straight"]:
            return
        n, unit = before.nums.numbers[0], self.house.piece_value
        raise AmbiguousError(
            message("straight_then_voisins", number=n),
            [
                f"straight {n} x{unit} ; voisins x{unit}",
                f"straight {n} x{unit} ; neighbours {n} x{unit}",
            ],
            column=el.start,
        )
