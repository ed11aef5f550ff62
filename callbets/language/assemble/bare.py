"""Numbers said where a stake could be: a total said again after staked bets, an amount
after a pause or right after a bet with no stake word ("pair 40", "dozzina di mezzo 20",
"voisins 45"), each weighed by :class:`~callbets.language.assemble.place.Placing` (a
question), and a count of pieces said with the value of each ("Rojo, 4 fichas de 25").
One part of the :class:`~callbets.language.assemble.walk.Assembler` (a base
class)."""

from __future__ import annotations

from dataclasses import replace

from ...errors import StakeError
from ...messages import said as message
from ...roulette.house import House
from ..transform import CheckEl, Nums, PiecesEl, StakeEl
from .draft import CHANCES, ORDINALS, OUTSIDE, POSITION_WORDS, Draft, Question


class BareAmounts:
    """The Assembler's handling of numbers that may be amounts."""

    house: House
    text: str
    drafts: list[Draft]
    current: Draft | None
    last_sep: str | None
    staked_upto: int
    questions: list[Question]

    def _stake(self, el: StakeEl) -> None:
        raise NotImplementedError  # the Assembler's

    def _check(self, el: PiecesEl | CheckEl) -> None:
        raise NotImplementedError  # the Assembler's

    def _open_group(self) -> tuple[int, ...]:
        raise NotImplementedError  # the Assembler's

    def _refuse_juxtaposed(self) -> None:
        raise NotImplementedError  # the Assembler's

    def _count_of_value(self, el: PiecesEl, value: StakeEl) -> None:
        """ "Rojo, 4 fichas de 25": on one plain position with no stake yet, that many
        pieces of that value in all; anywhere else ("voisins, 9 pièces de 5") the count
        checks the bet's pieces and the value is the stake a piece, as "9 pièces à 5"."""
        targets = self._open_group() if self.drafts else ()
        if targets and self._one_piece_unstaked(targets):
            said = f"{el.text} {value.text}"
            self._stake(StakeEl("total", el.count * value.amount, said, el.start, value.end,
                                together=True, counted=value.amount))  # fmt: skip
            return
        self._check(replace(el, of=None))
        self._refuse_juxtaposed()
        # the value of the pieces counted ("vecinos nueve fichas de veinte"), never a
        # number said after the neighbours, as after a comma
        self.current = None
        self._stake(value)

    def _said_total(self, el: Nums) -> bool:
        """ "voisins par 5, 45": a number off the layout after staked bets is their total
        said again; it is checked like "= 45"."""
        if len(el.numbers) != 1 or el.numbers[0] <= 36 or not self._open_group():
            return False
        if any(d.stake is None for d in self.drafts[self.staked_upto :]):
            return False
        self._check(CheckEl(el.numbers[0], str(el.numbers[0]), el.start))
        return True

    def _amount_after_pause(self, el: Nums) -> bool:
        """ "Pair, 40", "Rouge, cent", "Third column, 15": a number after a comma, with no
        stake said for the bets before it, off the layout or after an outside bet, is
        weighed as a bare amount, as "pair 40" is (the stake of a one-piece bet whose
        numbers it cannot name; asked otherwise)."""
        if len(el.numbers) != 1 or self.last_sep != "comma" or not self.drafts:
            return False
        before = self.drafts[-1]
        if before.stake is not None:
            return False
        outside = before.head in CHANCES | OUTSIDE | set(ORDINALS) or before.range is not None
        if el.numbers[0] <= 36 and not outside:  # "le 17, 20": two bets, as before
            return False
        self._bare_amount(before, el)
        return True

    def _bare_amount(self, draft: Draft, el: Nums) -> None:
        said = "/".join(map(str, el.numbers))
        if len(el.numbers) == 1 and self.house.bare_amount == "per_piece":
            self._stake(StakeEl("piece", el.numbers[0], said, el.start, el.start))
            return
        targets = self._unstaked_upto(draft)
        if self.questions:  # "Red 100 and middle dozen 50": each bet its own bare amount
            last = self.questions[-1].targets[-1]
            targets = tuple(i for i in targets if i > last)
            if not targets:  # "noir 50, 60": two amounts for one bet
                said = "/".join(map(str, el.numbers))
                raise StakeError(message("second_stake", word=said), column=el.start)
        self.questions.append(Question(el, targets, self._said_twice(el)))
        self.current = None

    def _past_questions(self, targets: list[Draft]) -> list[Draft]:
        """The bets a stake is for, without those said before it with a bare amount of
        their own and another bet between ("rouge cent et voisins par cinq": the 100 is
        the red's); with nothing between ("tercio, sesenta, a diez") the stake is theirs."""
        asked = {i for q in self.questions for i in q.targets}
        at = {id(d): i for i, d in enumerate(self.drafts)}  # by identity: drafts may be equal
        first_other = next((at[id(d)] for d in targets if at[id(d)] not in asked), None)
        if first_other is None:
            return targets
        return [d for d in targets if at[id(d)] not in asked or at[id(d)] > first_other]

    def _said_twice(self, el: Nums) -> bool:
        """Whether the words of ``el`` were said just before it too ("de 13 à 24 24")."""
        said = self.text[el.start : el.end]
        before = self.text[: el.start].rstrip(" ,")
        return before.endswith(said) and (len(before) == len(said) or not before[
            -len(said) - 1].isalnum())  # fmt: skip

    def _unstaked_upto(self, draft: Draft) -> tuple[int, ...]:
        end = self.drafts.index(draft) + 1
        return tuple(i for i in range(self.staked_upto, end) if self.drafts[i].stake is None) or (
            end - 1,
        )

    def _one_piece_unstaked(self, targets: tuple[int, ...]) -> bool:
        """Whether ``targets`` is one plain position (a number, a split… a simple chance, a
        dozen, a column), with no stake said: one piece, whatever it is."""
        if len(targets) != 1:
            return False
        draft = self.drafts[targets[0]]
        plain = draft.head is None or draft.head in POSITION_WORDS | CHANCES | OUTSIDE
        single = draft.nums is None or len(draft.nums.numbers) <= 6
        return (
            plain
            and single
            and not draft.more
            and draft.neighbours is None
            and (draft.stake is None)
        )
