"""Stakes said for the calls: a stake binds to every call said since the last one, or,
said first ("par cinq les voisins", "10 sur le 17"), to those after it; a stake said
again is a total to check, a correction or a clash; a number after the neighbours said
alone may be their centre or the voisins' stake.  One part of the
:class:`~callbets.language.assemble.walk.Assembler` (a base class)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ...errors import AmbiguousError, StakeError
from ...messages import said as message
from ..transform import CheckEl, LinkEl, Nums, PiecesEl, StakeEl
from .draft import Check, Draft


class StakesSaid:
    """The Assembler's binding of stakes to calls."""

    drafts: list[Draft]
    current: Draft | None
    forward: StakeEl | None
    last_sep: str | None
    staked_upto: int
    checks: list[Check]
    centre_or_stake: frozenset[str]

    def _refuse_forward_unused(self) -> None:
        raise NotImplementedError  # the Assembler's

    def _check(self, el: PiecesEl | CheckEl) -> None:
        raise NotImplementedError  # the Assembler's

    if TYPE_CHECKING:  # NeighboursSaid's and BareAmounts', after this class among the bases

        def _neighbours_or_voisins(self, amount: int) -> list[str]: ...

        def _past_questions(self, targets: list[Draft]) -> list[Draft]: ...

    def _stake(self, el: StakeEl) -> None:
        self._refuse_stutter(el)
        self._ask_centre_or_stake(el)
        if not self.drafts and el.kind in ("piece", "total", "money") and self.forward is None:
            el = replace(el, lead=True)  # "par cinq les voisins": for what follows
        self._refuse_forward_unused()  # "à 10 1 sur rouge": the 10 would be lost
        if el.kind == "forward" or el.lead:
            self.forward, self.current = el, None
            return
        targets = [d for d in self.drafts[self.staked_upto :] if d.stake is None]
        targets = self._past_questions(targets)  # "rouge cent et voisins par cinq"
        if not targets:
            self._stake_again(el)
            return
        if self.drafts[-1].stake is not None:  # "le 17, 4 sur le 9 à 5": the 17's, or the 9's?
            raise AmbiguousError(message("stake_jumps_back", word=el.text), [], column=el.start)
        for d in targets:
            d.stake = el
        self.staked_upto = len(self.drafts)
        self.current, self.forward = None, None

    def _said_first(self, el: StakeEl) -> bool:
        """Whether a stake a piece, said after "and" or a comma once every call before has
        its own, is for the bet said after it ("à 5 le rouge et à 5 le pair")."""
        after_sep = self.current is None and self.last_sep in ("and", "comma")
        return el.kind == "piece" and after_sep and all(d.stake is not None for d in self.drafts)

    def _ask_centre_or_stake(self, el: StakeEl) -> None:
        """ "les voisins de 17": the neighbours of 17, or the voisins du zéro at 17 a piece?
        People mean either (hidden sets: the first more often); never the voisins
        silently.  Only where the stake word also says "of" and the number is on the
        layout."""
        cur = self.current
        word = el.text.split(str(el.amount))[0].strip()  # the stake word(s): "de", "de a"
        voisins = cur is not None and cur.neighbours is not None and cur.alone
        if el.kind != "piece" or word not in self.centre_or_stake or not voisins:
            return
        if cur is None or cur.centres or cur.stake is not None or not 0 <= el.amount <= 36:
            return
        raise AmbiguousError(
            message("centre_or_stake", word=word, amount=el.amount),
            self._neighbours_or_voisins(el.amount),
            column=el.start,
        )

    def _ask_on_centre_or_stake(self, target: Draft, link: LinkEl, el: Nums) -> None:
        """ "vecinos al 5": "on" after the neighbours said alone, before one number on the
        layout, may link them to their centre or say the voisins du zéro's stake; ask."""
        voisins = target.neighbours is not None and target.alone and target.nums is None
        if link.kind != "on" or not voisins or len(el.numbers) != 1 or el.numbers[0] > 36:
            return
        amount = el.numbers[0]
        raise AmbiguousError(
            message("centre_or_stake", word=link.text, amount=amount),
            self._neighbours_or_voisins(amount),
            column=link.start,
        )

    def _refuse_stutter(self, el: StakeEl) -> None:
        """ "tiers, 10 10 euros each": a bet on 10, or the amount said twice?  Ask."""
        cur = self.current
        amount_first = el.text[:1].isdigit()  # "10 euros each", not "à 10"
        said = cur.nums.numbers if cur is not None and cur.nums is not None else ()
        if cur is not None and cur.is_bare and amount_first and said == (el.amount,):
            raise AmbiguousError(
                message("bet_or_amount_twice", said=f"{el.amount} {el.text}", amount=el.amount),
                [],
                column=cur.start,
            )

    def _stake_again(self, el: StakeEl) -> None:
        """A stake after every call has one: a total confirms them; so does an amount with
        its currency said before a stake a piece ("tiers, soixante euros, par dix": the
        croupier's total, then the stake); anything else clashes."""
        if not self.drafts:
            raise StakeError(message("stake_before_bet", word=el.text), column=el.start)
        if el.kind in ("total", "money"):
            self._check(CheckEl(el.amount, el.text, el.start))
            return
        said = self.drafts[-1].stake
        if el.kind == "piece" and said is not None and said.kind == "money":
            staked = [d for d in self.drafts if d.stake is said]
            for d in staked:
                d.stake = el
            targets = tuple(i for i, d in enumerate(self.drafts) if d.stake is el)
            self.checks.append(Check("total", said.amount, said.text, said.start, targets))
            return
        if self._said_first(el):
            self.forward, self.current = replace(el, lead=True), None
            return
        if self._lead_ends(said, el):
            return
        raise StakeError(message("second_stake", word=el.text), column=el.start)

    def _lead_ends(self, said: StakeEl | None, el: StakeEl) -> bool:
        """ "200 sur passe et tiers par 10": a stake said first ("200 sur") covers the two
        calls after it, and the second then says its own: the first is the lead's alone."""
        led = [d for d in self.drafts if said is not None and d.stake is said]
        first_said = said is not None and (said.kind == "forward" or said.lead)
        if not first_said or len(led) != 2 or el.kind not in ("piece", "total"):
            return False
        if led[1] is not self.drafts[-1] or led[1].sep_before != "and":
            return False
        led[1].stake = el
        self.staked_upto = len(self.drafts)
        return True
