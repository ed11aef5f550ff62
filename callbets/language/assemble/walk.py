"""Walking the elements of one reading: which pieces bind into which call (the rules of
:mod:`callbets.language.assemble`)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import replace

from ...errors import AmbiguousError, IllegalBetError, StakeError, UnrecognizedError
from ...messages import said as message
from ...roulette.announcement import Announcement
from ...roulette.house import House
from ..talk import TABLE_TALK
from ..transform import (
    AlsoEl,
    CheckEl,
    Element,
    LinkEl,
    NeighboursEl,
    Nums,
    PiecesEl,
    RangeEl,
    RepeatEl,
    Sep,
    StakeEl,
    WordEl,
)
from .around import AroundCalls
from .bare import BareAmounts
from .draft import (
    CHANCES,
    FINALE_WORDS,
    LISTS,
    MAX_CALLS,
    ONE_NUMBER_CALLS,
    ORDINALS,
    OUTSIDE,
    PAIRED,
    POSITION_SIZE,
    POSITION_WORDS,
    Check,
    Draft,
    Question,
    SaidAgain,
    Walked,
    both_called,
    one_number,
    start_of,
)
from .neighbours import NeighboursSaid
from .place import Placing
from .regroup import regrouped
from .stakes import StakesSaid


def _zero_then_in_full(draft: Draft, el: Nums) -> bool:
    """ "zero street 0/2/3", "zéro cheval 0/1": a position of the zero named by the zero,
    then by its numbers in full, which start with the zero."""
    return (
        draft.nums is not None
        and draft.nums.numbers == (0,)
        and draft.head in PAIRED
        and len(el.numbers) > 1
        and el.numbers[0] == 0
    )


def _position_again(cur: Draft, el: WordEl) -> bool:
    """ "pleno al siete pleno al diecisiete y …": a position word after a position said
    with its word and numbers starts the next one (as a list, when "and" follows)."""
    said = cur.nums is not None and any(w.concept in POSITION_WORDS for w in cur.words)
    return said and el.concept in POSITION_WORDS


class Assembler(StakesSaid, AroundCalls, BareAmounts, NeighboursSaid):
    """Runs the rules of the module docstring over one element list."""

    def __init__(
        self, house: House, text: str, roles: Mapping[str, frozenset[str]] | None = None
    ) -> None:
        self.house = house
        self.text = text
        roles = roles or {}
        self.alone = roles.get("VOISINS_ALONE", frozenset())
        """The neighbours words that, alone, name the voisins du zéro ("les voisins")."""
        self.voisins_name = roles.get("VOISINS_NAME", frozenset())
        """Neighbours words that are the called bet's borrowed name ("voisins" in English):
        after a number they may be its neighbours or the voisins du zéro."""
        self.serie_alone = roles.get("SERIE_ALONE", frozenset())
        """The serie words that, alone, name the tiers (Italian "la serie")."""
        self.zero = roles.get("ZERO_WORDS", frozenset())
        self.pleins = roles.get("PLURAL_STRAIGHT", frozenset())
        self.centre_or_stake = roles.get("CENTRE_OR_STAKE", frozenset())
        self.from_words = roles.get("FROM", frozenset())
        """Stake words that also say "of" (French "de"): after the neighbours said alone,
        the number that follows may be their centre as well as the stake."""
        self.drafts: list[Draft] = []
        self.current: Draft | None = None
        self.last_sep: str | None = None
        self.staked_upto = 0
        self.link: LinkEl | None = None
        self.said_again: SaidAgain | None = None
        """Set by the parser: a word after which the bet may be said again in other words."""
        self.link_target: Draft | None = None
        self.forward: StakeEl | None = None
        self.checks: list[Check] = []
        self.questions: list[Question] = []
        self.after_stake = False
        """The element just before was a stake, a count or a check."""
        self.juxtaposed: WordEl | None = None
        """A bet word said right after another bet, until an "et" makes it a list."""
        self.count_first: PiecesEl | None = None
        """ "quatre pièces à 2 sur le jeu zéro": a count said before its calls."""
        self.said_also: AlsoEl | None = None
        """ "anche" said before its call, waiting for it."""
        self.said_times: RepeatEl | None = None
        """ "deux fois" said before its call, waiting for it."""
        self.repeats: list[tuple[Draft, Draft]] = []
        """(call on one number, the bare number said after it): asked about at the end."""

    # ---- walking the elements ------------------------------------------------
    def feed(self, elements: list[Element]) -> None:
        """Consume every element.

        :raises AnnouncementError: pieces that cannot go together.
        """
        for el in regrouped(elements, self.house.piece_value):
            if isinstance(el, Nums):
                said = self.text[el.start : el.end]
                digits = said.isdigit() or not any(c.isalpha() for c in said)
                el = Nums(el.numbers, el.start, el.slashed, el.end, digits)
            if self.link is not None and not isinstance(el, Nums):
                raise UnrecognizedError(
                    message("number_after", word=self.link.text), column=self.link.start
                )
            if isinstance(el, Sep):
                self.current, self.last_sep = None, el.kind
                if el.kind == "and":
                    self.juxtaposed = None
                self.after_stake = False
                continue
            if self.last_sep == "with" and self._split_with(el):
                self.last_sep = None
                continue
            if self.last_sep == "with" and not isinstance(el, NeighboursEl):
                raise UnrecognizedError(message("with_before_neighbours"), column=start_of(el))
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
            elif isinstance(el, RepeatEl):
                self._times(el)
            elif isinstance(el, AlsoEl):
                self._also(el)
            else:
                self._numbers(el)
            self.last_sep = None
            forward = isinstance(el, StakeEl) and (el.kind == "forward" or el.lead)
            self.after_stake = isinstance(el, StakeEl | CheckEl | PiecesEl) and not forward
        self._refuse_juxtaposed()
        if self.said_times is not None:
            el = self.said_times
            raise UnrecognizedError(message("times_of_what", word=el.text), column=el.start)
        if self.said_also is not None:
            also = self.said_also
            raise UnrecognizedError(message("also_what", word=also.text), column=also.start)
        if self.count_first is not None:
            self._count_said_first(self.count_first)
        if len(self.drafts) > MAX_CALLS:
            raise UnrecognizedError(
                message("too_many_bets", count=len(self.drafts), most=MAX_CALLS),
                column=self.drafts[MAX_CALLS].start,
            )
        self._refuse_forward_unused()
        self._ask_centres_or_stake()

    def _refuse_forward_unused(self) -> None:
        """ "10 sur" with no bet after it ("pleno al 4 y 33 al a 5": the 33 would be lost)."""
        if self.forward is not None and not any(d.stake is self.forward for d in self.drafts):
            raise StakeError(
                message("forward_of_which", word=self.forward.text), column=self.forward.start
            )

    def _refuse_juxtaposed(self) -> None:
        """Two bets side by side are a list only when "et" comes before the last one."""
        el = self.juxtaposed
        if el is not None:
            raise AmbiguousError(
                message("juxtaposed", word=el.text),
                [],
                column=el.start,
            )

    def _new(self, start: int) -> Draft:
        draft = Draft(start, sep_before=self.last_sep, stake=self.forward)
        if self.said_times is not None:
            draft.times, self.said_times = self.said_times.count, None
        if self.said_also is not None:
            draft.also, self.said_also = self.said_also, None
        self.drafts.append(draft)
        self.current = draft
        return draft

    def _word(self, el: WordEl) -> None:
        if el.concept in TABLE_TALK:
            self._refuse_talk(el)
        if el.concept == "double_zero":
            raise IllegalBetError(message("double_zero", word=el.text), column=el.start)
        cur = self.current
        if cur is not None and el.concept == "with_splits" and cur.concepts == ["straight"]:
            cur.words[:] = [el]  # "le 17 en plein et ses chevaux": the 17 and its splits
            return
        if cur is not None and cur.absorbs(el):
            cur.words.append(el)
            self._share_noun(cur, el)
            self._postfix_on_a_list(cur, el)
            return
        if cur is not None and cur.is_bare:
            said = "/".join(map(str, cur.nums.numbers))  # type: ignore[union-attr]
            raise AmbiguousError(
                message("bare_then_word", said=said, word=el.text), [], column=el.start
            )
        if cur is not None and el.concept in FINALE_WORDS and not _position_again(cur, el):
            raise IllegalBetError(message("not_with_before", word=el.text), column=el.start)
        if cur is not None and self.juxtaposed is None and not both_called(cur, el):
            self.juxtaposed = el  # "voisins tiers et orphelins": a list, if an "et" follows
        draft = self._new(el.start)
        draft.words.append(el)
        draft.alone = el.concept == "serie" and el.text in self.serie_alone

    def _before(self, draft: Draft) -> Draft | None:
        """The call said just before this one, when only "et" or a comma stands between."""
        if draft.sep_before not in ("and", "comma") or len(self.drafts) < 2:
            return None
        before = self.drafts[-2]
        return before if before.stake is draft.stake else None

    def _share_noun(self, draft: Draft, el: WordEl) -> None:
        """ "first and second dozen": the ordinal before "et" takes the same noun."""
        before = self._before(draft)
        if el.concept not in OUTSIDE or before is None or before.nums is not None:
            return
        if len(before.words) == 1 and before.concepts[0] in ORDINALS and before.range is None:
            before.words.append(el)

    def _postfix_on_a_list(self, draft: Draft, el: WordEl) -> None:
        """ "17 et 20 complets": both complete, or a straight on 17?  Ask.  "le 14 et le 17
        à cheval": one split, the only reading."""
        before = self._before(draft)
        if before is None or not before.is_bare or draft.words[1:]:
            return
        if el.concept in PAIRED and one_number(before) and one_number(draft):
            joined = before.nums.numbers + draft.nums.numbers  # type: ignore[union-attr]
            self.drafts.remove(before)
            draft.nums, draft.start = Nums(joined, before.start), before.start
            draft.sep_before = before.sep_before
            return
        if el.concept not in ONE_NUMBER_CALLS:
            return
        a = "/".join(map(str, before.nums.numbers))  # type: ignore[union-attr]
        b = "/".join(map(str, draft.nums.numbers))  # type: ignore[union-attr]
        raise AmbiguousError(message("postfix_list", a=a, b=b, word=el.text), [], column=el.start)

    def _refuse_talk(self, el: WordEl) -> None:
        if el.concept in ("chatter", "close"):
            raise UnrecognizedError(message("table_talk", word=el.text), column=el.start)
        raise UnrecognizedError(message("replay_not_bet", word=el.text), column=el.start)

    def _link(self, el: LinkEl) -> None:
        cur = self.current
        lead = self.forward is not None and self.forward.lead
        if el.kind == "on" and cur is None and lead and not self.drafts:
            return  # "5 each on the first and second dozen": the stake said first
        if cur is None and self._more_neighbours():
            self.link, self.link_target = el, self.drafts[-1]
            return
        if cur is None and el.kind == "of" and self._call_said_again():
            self.link, self.link_target = el, self._again(self.drafts[-1], el.start)
            return
        if cur is None and el.kind == "on" and el.amount is None and self._more_straights():
            # "plenos al 4 y al 16": the "on" said again, as "plenos al 4 y 16"; its number
            # must follow ("pleno al 17 y al… a 5" is refused)
            self.link, self.link_target = el, None
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
        raise UnrecognizedError(message("does_not_fit", word=el.text), column=el.start)

    def _more_neighbours(self) -> bool:
        """ "les voisins du 8 et du 23": "du" after "et" adds a centre to the call before;
        so for a list of finales ("finales del 1 y del 2")."""
        if self.last_sep not in ("and", "comma") or not self.drafts:
            return False
        before = self.drafts[-1]
        listed = before.neighbours is not None or before.head in LISTS
        return listed and before.linked and before.stake is self.forward

    def _call_said_again(self) -> bool:
        """ "les voisins du 20 à 5 et du 21 à 10": "du" after "et" or a comma, when the call
        before was linked to its numbers and has a stake of its own, is that call again on
        other numbers (its own stake must follow)."""
        if self.last_sep not in ("and", "comma") or not self.drafts:
            return False
        before = self.drafts[-1]
        listed = before.neighbours is not None or before.head in LISTS
        return listed and before.linked and before.stake is not None and not before.more

    def _again(self, before: Draft, start: int) -> Draft:
        draft = self._new(start)
        draft.words, draft.neighbours = list(before.words), before.neighbours
        return draft

    def _more_straights(self) -> bool:
        """ "pleno al 4 y al 16", "plenos al 4, al 16 y al 33": "on" after "and" or a comma,
        when the call before is a straight-up its own "on" linked to its number, adds a
        straight-up to the list."""
        if self.last_sep not in ("and", "comma"):
            return False
        listed = list(itertools.takewhile(lambda d: d.is_bare, reversed(self.drafts)))
        first = self.drafts[-1 - len(listed)] if len(listed) < len(self.drafts) else None
        return first is not None and first.head == "straight" and first.linked

    def _numbers(self, el: Nums) -> None:
        if self.link is not None and el.numbers[:2] == (0, 0) and len(el.numbers) > 2:
            # "la transversale du zéro 0/2/3": the zero named, then the numbers in full
            el = replace(el, numbers=el.numbers[1:])
        if len(set(el.numbers)) != len(el.numbers):
            said = "/".join(map(str, el.numbers))
            raise UnrecognizedError(message("number_twice", word=said), column=el.start)
        if self.link is not None and self.link_target is None:
            self.link = None  # the "on" said again before a straight-up of a list
        cur = self.current
        if self.link is not None:
            target, link, self.link = self.link_target, self.link, None
            assert target is not None
            self._ask_on_centre_or_stake(target, link, el)
            if target.neighbours is not None and target.nums is not None and 0 in el.numbers:
                # "les voisins du 17 et du zéro": "voisins du zéro" said, or the 0's five?
                raise AmbiguousError(
                    message("neighbours_or_voisins_of", said=self.text[link.start : el.end]),
                    [], column=link.start,
                )  # fmt: skip
            if target.neighbours is not None and self._spoken_together(el):
                said = " ".join(map(str, el.numbers))
                raise AmbiguousError(message("neighbours_each", said=said), [], column=el.start)
            if target.nums is None:
                target.nums, target.linked = el, True
                target.from_first = link.text in self.from_words
            else:
                target.more.append(el)
            self.current = target
        elif cur is None:
            if self._joins_list(el) or self._said_total(el) or self._amount_after_pause(el):
                return
            if self.after_stake:
                said = "/".join(map(str, el.numbers))
                raise AmbiguousError(message("after_stake", said=said), [], column=el.start)
            before = self._one_number_call_before(el)
            self._new(el.start).nums = el
            if before is not None:
                self.repeats.append((before, self.drafts[-1]))
        elif _zero_then_in_full(cur, el):
            cur.nums = el  # "zero street 0/2/3": the zero named, then the numbers in full
        elif cur.wants_numbers(el):
            if cur.neighbours is not None and self._spoken_together(el):
                said = " ".join(map(str, el.numbers))
                raise AmbiguousError(message("neighbours_each", said=said), [], column=el.start)
            cur.nums = el
        else:
            self._bare_amount(cur, el)

    def _joins_list(self, el: Nums) -> bool:
        """Numbers after "et" that belong to the call before: "les douzaines 1 et 3", "les
        finales 3 et 6" (plurals), "cheval 14 et 15" (a split needs its second number),
        "carré 17, 18, 20 et 21" (a position's numbers listed, up to as many as it has)."""
        if self.last_sep not in ("and", "comma") or not self.drafts:
            return False
        before = self.drafts[-1]
        if before.nums is None or before.stake is not self.forward:
            return False
        others = set(before.concepts) - {before.head}
        one_digit = len(before.nums.numbers) == 1 and not before.more and len(el.numbers) == 1
        if before.head in LISTS and "split" in others and one_digit:
            # "finales a caballo del 1 y el 2": one finale à cheval takes both digits
            before.nums = Nums(before.nums.numbers + el.numbers, before.nums.start)
        elif before.head in LISTS and others <= FINALE_WORDS:
            before.more.append(el)
        elif (
            before.head in PAIRED
            and not others
            and len(before.nums.numbers) < POSITION_SIZE[before.head]
            and len(el.numbers) == 1
        ):
            before.nums = Nums(before.nums.numbers + el.numbers, before.nums.start)
        else:
            return False
        self.current = before
        return True

    def _one_number_call_before(self, el: Nums) -> Draft | None:
        """The call on one number just before "et N" ("finale 3 et 7"), if there is one."""
        if self.last_sep not in ("and", "comma") or not self.drafts or len(el.numbers) != 1:
            return None
        before = self.drafts[-1]
        if before.head == "voisins" and not before.words[1:] and before.stake is None:
            # "neighbours of zero and seventeen": the neighbours of 17 too, or its straight?
            return before if self.zero & set(before.words[0].text.split()) else None
        if before.nums is None or before.words[1:]:
            return None
        # "vecinos del 2 19 y 5": the neighbours of 5 too, whatever the centres before
        neighbours_of = before.neighbours is not None and before.linked
        if not neighbours_of and (
            len(before.nums.numbers) != 1 or before.head not in ONE_NUMBER_CALLS
        ):
            return None
        return before

    def _range(self, el: RangeEl) -> None:
        cur = self.current
        free = cur is not None and cur.range is None and cur.nums is None and bool(cur.words)
        if free and cur is not None and (cur.head in CHANCES or cur.head in OUTSIDE):
            cur.range = el
            return
        if cur is not None and cur.is_bare:
            raise AmbiguousError(message("number_then_range", word=el.text), [], column=el.start)
        if cur is not None and (cur.words or cur.neighbours is not None):
            # "tiers du 19 au 36 à 5", "vecinos del 19 al 36": passe too, or "of 19"?
            raise AmbiguousError(message("juxtaposed", word=el.text), [], column=el.start)
        self._new(el.start).range = el

    def _check(self, el: PiecesEl | CheckEl) -> None:
        if isinstance(el, PiecesEl) and el.of is not None:
            self._count_of_value(el, el.of)
            return
        if isinstance(el, PiecesEl) and not self.drafts and self.forward is None:
            self.count_first = el  # of the calls the stake said next leads to
            return
        targets = self._open_group()
        if (
            isinstance(el, CheckEl)
            and targets
            and all(self.drafts[i].stake is None for i in targets)
        ):
            # "les orphelins, ça fait 50": with no stake said, the total is the stake
            self._stake(StakeEl("total", el.total, el.text, el.start, el.start, together=True))
            return
        if not targets:
            raise StakeError(message("stake_of_which", word=el.text), column=el.start)
        if isinstance(el, PiecesEl) and self._one_piece_unstaked(targets) and el.count > 1:
            # "le 0/3 à cheval, 2 jetons": a position of one piece cannot be counted
            # otherwise; the count is its stake, in the house's pieces
            value = self.house.piece_value
            self._stake(StakeEl("total", el.count * value, el.text, el.start, el.start,
                                together=True, counted=value))  # fmt: skip
            return
        kind, value = ("pieces", el.count) if isinstance(el, PiecesEl) else ("total", el.total)
        self.checks.append(Check(kind, value, el.text, el.start, targets))

    def _count_said_first(self, el: PiecesEl) -> None:
        """The count said before a stake said first checks the calls that stake leads to;
        said before anything else, it is refused."""
        led = tuple(i for i, d in enumerate(self.drafts) if d.stake is not None and d.stake.lead)
        if not led:
            raise StakeError(message("stake_of_which", word=el.text), column=el.start)
        self.checks.append(Check("pieces", el.count, el.text, el.start, led))

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
        walked = Walked(self.house, self.text, self.drafts, self.checks, self.questions,
                        self.repeats, self.pleins, self.said_again)  # fmt: skip
        return Placing(walked).announcement()
