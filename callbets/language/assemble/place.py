"""From drafts to placed calls: stakes shared out, counts and totals checked, and the
questions that can only be asked once every call is known ("voisins à 5 et tiers")."""

from __future__ import annotations

from dataclasses import replace

from ...errors import (
    AmbiguousError,
    AnnouncementError,
    IllegalBetError,
    StakeError,
    UnrecognizedError,
)
from ...messages import said as said_message
from ...roulette.announcement import Announcement, Call, PlacedCall, call_names
from ...roulette.catalogue import Recipe
from ...roulette.layout import SIMPLE_CHANCES, BetKind
from ..transform import StakeEl
from .again import CallsSaidAgain
from .draft import POSITION_WORDS, Check, Draft, Question, Walked, group_key
from .resolve import as_position, resolve


class Placing(CallsSaidAgain):
    """Places the calls that walking the elements found."""

    def __init__(self, walked: Walked) -> None:
        self.house = walked.house
        self.text = walked.text
        self.drafts = walked.drafts
        self.checks = walked.checks
        self.questions = walked.questions
        self.repeats = walked.repeats
        self.pleins = walked.pleins
        self.said_again = walked.said_again

    def announcement(self) -> Announcement:
        """The calls with their stakes, once every element is fed.

        :raises AnnouncementError: an illegal or unclear bet or stake.
        """
        if not self.drafts:
            raise UnrecognizedError(said_message("no_bet"), column=0)
        self._stake_of_the_call_before()
        recipes: list[tuple[Draft, Call, Recipe]] = []
        said_again = self._said_again()
        for d in self.drafts:
            if not any(d is s for s in said_again):
                recipes += [(d, call, self._recipe(d, call)) for call in self._resolved(d)]
        for question in self.questions:
            self._ask(question, recipes)  # stakes the bet, if nothing else it can be
        groups: dict[int, list[tuple[Call, Recipe]]] = {}
        for draft, call, recipe in recipes:
            groups.setdefault(group_key(draft), []).append((call, recipe))
        units = {key: self._unit(key, members) for key, members in groups.items()}
        self._refuse_times_with_total()
        placed = [
            (draft, PlacedCall.from_recipe(
                call, units[group_key(draft)] * draft.times, recipe,
                counted=draft.stake.counted if draft.stake is not None else None,
            ))
            for draft, call, recipe in recipes
        ]  # fmt: skip
        for check in self.checks:
            self._verify(check, placed)
        for before, after in self.repeats:
            self._ask_repeat(before, after, placed)
        placed = self._ask_unstaked_tail(placed)
        self._ask_unstaked_before(placed)
        self._ask_trailing_number(placed)
        self._ask_named_pairs(placed)
        placed = self._read_back_dropped(placed)
        placed = self._said_again_once(placed)
        self._ask_said_twice(placed)
        self._ask_les_pleins(placed)
        return Announcement(self.text, tuple(p for _, p in placed))

    def _ask_les_pleins(self, placed: list[tuple[Draft, PlacedCall]]) -> None:
        """ "le 17 les pleins", "los plenos del 17": a plural straight-up word said of one
        number may be the number and its splits (rules.md 3.10: no source fixes it).  Ask;
        of several numbers ("les pleins 17 et 20") it is their straight-ups."""
        for d, p in placed:
            word = next((w for w in d.words if w.text in self.pleins), None)
            if word is None or p.call.name != "straight":
                continue
            key = group_key(d)
            if sum(q.call.name == "straight" for e, q in placed if group_key(e) == key) > 1:
                continue
            n = p.call.numbers[0]
            splits = PlacedCall(Call("with_splits", (n,)), p.unit, ()).notation()
            rest = [q.notation() for e, q in placed if e is not d]
            raise AmbiguousError(
                said_message("les_pleins", word=word.text, n=n),
                [" ; ".join(q.notation() for _, q in placed), " ; ".join([splits, *rest])],
                column=word.start,
            )

    def _stake_of_the_call_before(self) -> None:
        """ "voisins à 5 et le tiers aussi": the tiers at 5 a piece.  Only a stake per
        piece carries over ("voisins pour 45 et tiers aussi": 45 for both, or each?), and
        only to a call with no stake of its own."""
        for i, d in enumerate(self.drafts):
            if d.also is None:
                continue
            if i and _neighbours_then_number(self.drafts[i - 1], d):
                # "el 17 con dos vecinos a 5 y el 20 también": the 20's neighbours too?
                n = d.nums.numbers[0]  # type: ignore[union-attr]
                said = _said_call(self.drafts[i - 1])
                raise AmbiguousError(said_message("same_bet_again", n=n, said=said), [],
                                     column=d.start)  # fmt: skip
            before = self.drafts[i - 1].stake if i else None
            if d.stake is not None and d.stake is not before:
                raise StakeError(said_message("also_own_stake", word=d.also.text),
                                 column=d.also.start)  # fmt: skip
            if before is None or before.kind != "piece":
                raise StakeError(said_message("also_no_stake", word=d.also.text),
                                 column=d.also.start)  # fmt: skip
            d.stake = replace(before)  # its own stake (a group of its own), the same amount

    def _refuse_times_with_total(self) -> None:
        """ "deux fois les voisins pour 90": is 90 the total of both, or of each?  A
        call said several times takes a stake per piece, of its own."""
        for d in self.drafts:
            if d.times != 1 and d.stake is not None and d.stake.kind != "piece":
                raise StakeError(said_message("times_per_piece", said=d.stake.text),
                                 column=d.stake.start)  # fmt: skip
            if d.times != 1 and any(
                o is not d and group_key(o) == group_key(d) for o in self.drafts
            ):
                # "deux fois voisins et tiers à 5": the voisins twice, or both?
                raise AmbiguousError(said_message("times_which", word=f"{d.times}×"), [],
                                     column=d.start)  # fmt: skip

    def _resolved(self, draft: Draft) -> list[Call]:
        """The calls one draft names.  A question about one of several drafts offers no
        reading: a reading is one call's, and picked it would drop the others."""
        try:
            return resolve(draft, self.house)
        except AmbiguousError as err:
            if len(self.drafts) > 1:
                err.readings = []
            raise

    def _ask_named_pairs(self, placed: list[tuple[Draft, PlacedCall]]) -> None:
        """Numbers that are also a called bet's name: "5/8" (the serie 5/8, or the split?),
        "0/2/3" (the serie 0/2/3, or the street?); "tiers par 12" (the tiers at 12 a
        piece, or the tiers en plein, rules.md 3.3)."""

        def whole(mine: PlacedCall, reading: str) -> str:  # with every other call said
            return " ; ".join(reading if q is mine else q.notation() for _, q in placed)

        for d, p in placed:
            names = {(5, 8): "tiers", (0, 2, 3): "voisins"}
            said = d.nums.numbers if d.nums is not None else ()
            if _bare(d) and len(said) > 1 and d.nums is not None and not d.nums.slashed:
                apart = " ; ".join(f"straight {n} x{p.unit}" for n in said)
                spoken = " ".join(map(str, said))
                raise AmbiguousError(
                    said_message("bare_pair", said=spoken, position=p.call.position()),
                    [whole(p, p.notation()), whole(p, apart)],
                    column=d.start,
                )
            if draft_finales_pair(d):
                a, b = said
                raise AmbiguousError(
                    said_message("finales_cheval_or_plein", a=a, b=b),
                    [
                        whole(p, p.notation()),
                        whole(p, f"finale_plein {a} x{p.unit} ; finale_plein {b} x{p.unit}"),
                    ],
                    column=d.start,
                )
            if _bare(d) and said in names:
                other = f"{names[said]} x{p.unit}"
                serie = call_names(self.house, Call(names[said]))
                slashed = "/".join(map(str, said))
                raise AmbiguousError(
                    said_message(
                        "serie_or_position", said=slashed, position=p.call.position(), call=serie
                    ),
                    [whole(p, p.notation()), whole(p, other)],
                    column=d.start,
                )
            stake = d.stake
            if p.call.name == "tiers" and stake and stake.kind == "piece" and stake.amount == 12:
                raise AmbiguousError(
                    said_message("tiers_twelve", said=stake.text),
                    [whole(p, p.notation()), whole(p, f"tiers_plein x{self.house.piece_value}")],
                    column=stake.start,
                )

    def _ask_unstaked_tail(
        self, placed: list[tuple[Draft, PlacedCall]]
    ) -> list[tuple[Draft, PlacedCall]]:
        """ "voisins à 5 et tiers": is the tiers at 5 too, or at one piece?  Ask.  One
        number said last after a comma that is the total of every call before is the
        croupier's total ("Tiers by five for the gentleman, thirty"), not a bet."""
        last = max((i for i, d in enumerate(self.drafts) if d.stake is not None), default=None)
        if last is None or last == len(self.drafts) - 1:
            return placed
        tail = self.drafts[last + 1 :]
        stake = self.drafts[last].stake
        assert stake is not None
        head = [p for d, p in placed if not any(d is t for t in tail)]
        rest = [p for d, p in placed if any(d is t for t in tail)]

        def said(calls: list[PlacedCall]) -> str:
            return " ; ".join(c.notation() for c in calls)

        readings = [said(head + rest)]
        if stake.kind in ("piece", "forward"):
            readings.append(said(head + [replace(c, unit=stake.amount) for c in rest]))
        if len(tail) == 1 and tail[0].is_bare and tail[0].nums is not None:
            total = sum(c.total for c in head)
            if tail[0].nums.numbers == (total,) and tail[0].sep_before == "comma":
                return [(d, p) for d, p in placed if d is not tail[0]]
            if tail[0].nums.numbers == (total,):
                readings.append(said(head))
        raise AmbiguousError(
            said_message("stake_before_last", said=stake.text),
            list(dict.fromkeys(readings)),
            column=tail[0].start,
        )

    def _ask_trailing_number(self, placed: list[tuple[Draft, PlacedCall]]) -> None:
        """ "colonne 36, 5" with no stake said: the 5 en plein, or the stake (its word
        lost)?  Ask.  So for a list after the comma: "voisins et tiers, 2 et 5" (hidden
        set: placed as the 2 and the 5 en plein) may be each call's stake, in order."""
        if len(placed) < 2 or any(d.stake is not None for d in self.drafts):
            return
        k = len(placed)
        while k > 0 and _single(placed[k - 1][0]) and placed[k - 1][0].sep_before != "comma":
            k -= 1
        if k == 0 or not _single(placed[k - 1][0]) or placed[k - 1][0].sep_before != "comma":
            return
        start = k - 1
        run, calls = placed[start:], placed[:start]
        if not calls or _bare(calls[-1][0]) or any(d.sep_before not in ("and", "comma")
                                                   for d, _ in run[1:]):  # fmt: skip
            return
        amounts = [d.nums.numbers[0] for d, _ in run if d.nums is not None]
        readings = [" ; ".join(p.notation() for _, p in placed)]
        if len(amounts) == 1:  # the stake of every call before it, as a stake said is
            readings.append(" ; ".join(f"{p.call.notation()} x{amounts[0]}" for _, p in calls))
        elif len(amounts) == len(calls):
            each = zip(calls, amounts, strict=True)
            readings.append(" ; ".join(f"{p.call.notation()} x{n}" for (_, p), n in each))
        raise AmbiguousError(
            said_message("trailing_number", amount=", ".join(map(str, amounts))),
            readings,
            column=run[0][0].start,
        )

    def _ask_unstaked_before(self, placed: list[tuple[Draft, PlacedCall]]) -> None:
        """ "5 30 on 5": a bet with no stake before one said with "on": its own bet, or
        part of the amount?  Ask."""
        for d, p in placed:
            if d.stake is None and any(o.stake is not None for o in self.drafts):
                raise AmbiguousError(
                    said_message("no_stake_of_its_own", calls=call_names(self.house, p)),
                    [" ; ".join(q.notation() for _, q in placed)],
                    column=d.start,
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
        mine = next(p for d, p in placed if d is after)
        if before.head == "voisins":  # "neighbours of zero and 17": of the 0 and of the 17?
            both = PlacedCall(Call("neighbours", (0, n)), mine.unit, ()).notation()
            rest = [p.notation() for d, p in placed if d is not after and d is not before]
            raise AmbiguousError(
                said_message("same_bet_again", n=n, said=_said_call(before)),
                [" ; ".join(p.notation() for _, p in placed), " ; ".join([both, *rest])],
                column=after.start,
            )
        try:
            words = before.words + after.words
            again_draft = replace(
                before, nums=after.nums, centres=(), more=[], start=after.start, words=words
            )
            (again,) = resolve(again_draft, self.house)
            again.recipe(self.house)
        except (AnnouncementError, ValueError):
            return
        first = " ; ".join(p.notation() for d, p in placed if d is not after)
        other = PlacedCall(again, mine.unit, ()).notation()
        raise AmbiguousError(
            said_message("same_bet_again", n=n, said=_said_call(before)),
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
        """ "voisins 45": list what it could mean, as bets.  A number off the layout said
        before the stake of its bets ("tercio, sesenta, a diez la ficha") is their total,
        said first: checked."""
        targets = [self.drafts[i] for i in q.targets]
        number = q.nums.numbers[0]
        if len(q.nums.numbers) == 1 and number > 36 and all(t.stake for t in targets):
            said = str(number)
            self.checks.append(Check("total", number, said, q.nums.start, q.targets))
            return
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
        as_bet = as_position(q.nums.numbers)
        if as_bet is not None:
            unit = f"x{self.house.piece_value}"
            readings.append(" ; ".join(f"{c.notation()} {unit}" for c, _ in members) +
                            f" ; {as_bet.notation()} {unit}")  # fmt: skip
        outside = not q.repeated and all(_amount_after(c, q.nums.numbers[0]) for c, _ in members)
        if len(q.nums.numbers) == 1 and pieces == 1 and (as_bet is None or outside):
            # "black fifty": one piece (a piece is the whole) and 50 is no bet: the stake;
            # "dozzina di mezzo 20", "rouge 20": said right after an outside bet, no "and"
            # before it, the 20 is no bet of its own
            stake = StakeEl("piece", q.nums.numbers[0], said, q.nums.start, q.nums.end)
            staked = next((t.stake for t in targets if t.stake is not None), None)
            if staked is not None:  # "impair soixante à deux": which one is the stake?
                raise StakeError(
                    said_message("two_stakes", calls=calls, said=said, other=staked.text),
                    column=q.nums.start,
                )
            for t in targets:
                t.stake = stake
            return
        raise AmbiguousError(
            said_message("stake_or_number", said=said),
            readings,
            column=q.nums.start,
        )

    def _unit(self, key: int, members: list[tuple[Call, Recipe]]) -> int:
        stake = next((d.stake for d in self.drafts if group_key(d) == key), None)
        if stake is None:
            return self.house.piece_value
        pieces = sum(k for _, recipe in members for _, k in recipe)
        if stake.kind == "either" and self.house.either_stake != "ask":  # the house says
            stake = replace(stake, kind="piece" if self.house.either_stake == "per_piece"
                            else "total")  # fmt: skip
        if stake.kind in ("piece", "total") and not stake.together:
            self._ask_each_or_all(stake, members, pieces)
        if stake.kind == "piece":
            return stake.amount
        if stake.kind == "total" or (pieces == 1 and stake.kind != "piece"):
            if stake.amount % pieces:
                low = stake.amount // pieces
                raise StakeError(
                    said_message("no_division", total=stake.amount, pieces=pieces, low=low,
                                 high=low + 1),
                    column=stake.start,
                )  # fmt: skip
            return stake.amount // pieces
        if stake.kind == "money" and self.house.bare_amount == "per_piece":
            return stake.amount
        said = " ; ".join(call.notation() for call, _ in members)
        readings = [f"{said} x{stake.amount}"]
        if stake.amount % pieces == 0:
            readings.append(f"{said} x{stake.amount // pieces}")
        raise AmbiguousError(
            said_message("piece_or_total", said=stake.text, amount=stake.amount),
            readings,
            column=stake.start,
        )

    def _ask_each_or_all(
        self, stake: StakeEl, members: list[tuple[Call, Recipe]], pieces: int
    ) -> None:
        """ "tiers et jeu zéro pour 60": 60 for both (6 a piece), or 60 each (10 and 15
        a piece)?  "rouge et pair pour 10": 5 each, or 10 each?  "pour 60 chacun": 60 a
        piece, or 60 each call?  A total said with "in all" ("60 en tout") is for them
        all; with one call there is nothing to ask."""
        if len(members) < 2 or (stake.kind == "piece" and not stake.for_each):
            return
        each = [sum(k for _, k in recipe) for _, recipe in members]
        if stake.kind == "piece" and all(n == 1 for n in each):
            return  # "red and odd for 5 each": a piece is the whole call
        if all(stake.amount % n for n in each):
            return  # no call takes the whole amount: only the one reading, placed or refused
        calls = [c for c, _ in members]
        readings = []
        if not any(stake.amount % n for n in each):
            readings.append(_notation(calls, [stake.amount // n for n in each]))
        if stake.kind == "piece":
            readings.insert(0, _notation(calls, [stake.amount] * len(calls)))
        elif stake.amount % pieces == 0:
            readings.insert(0, _notation(calls, [stake.amount // pieces] * len(calls)))
        # "tiers et voisins pour 60": 60 for both, or 60 each (the voisins' does not
        # divide)?  Asked even when only one reading can be placed: the player may
        # have meant the other.
        raise AmbiguousError(
            said_message("each_or_all", said=stake.text, amount=stake.amount),
            readings,
            column=stake.start,
        )

    def _verify(self, check: Check, placed: list[tuple[Draft, PlacedCall]]) -> None:
        targets = [self.drafts[i] for i in check.targets]
        calls = [p for d, p in placed if any(d is t for t in targets)]
        names = call_names(self.house, *calls)
        if check.kind == "pieces":
            pieces = sum(c.pieces for c in calls)
            if pieces != check.value:
                raise StakeError(
                    said_message("pieces_mismatch" if pieces > 1 else "pieces_mismatch_one",
                                 said=check.text, calls=names, pieces=pieces, value=check.value),
                    column=check.start,
                )  # fmt: skip
            return
        total = sum(c.total for c in calls)
        whole = sum(p.total for _, p in placed)
        if check.value not in (total, whole):
            raise StakeError(
                said_message("total_mismatch", said=check.text, calls=names, total=total,
                             value=check.value),
                column=check.start,
            )  # fmt: skip


def _said_call(draft: Draft) -> str:
    """A call on one number as it was said: "finale 3", "voisins 17"."""
    word = draft.words[0].text if draft.words else ""
    if not word and draft.neighbours is not None:
        word = draft.neighbours.text
    numbers = draft.nums.numbers if draft.nums is not None else draft.centres
    return " ".join([word, *map(str, numbers)]).strip()


def _neighbours_then_number(before: Draft, draft: Draft) -> bool:
    """A number said alone after a call on one number's neighbours ("le 17 et les
    voisins à 5, et le 20 aussi")."""
    said = before.nums.numbers if before.nums is not None else before.centres
    return before.neighbours is not None and len(said) == 1 and _single(draft)


def _bare(draft: Draft) -> bool:
    return draft.is_bare


def _single(draft: Draft) -> bool:
    """A bare number said alone ("5", not "5/8")."""
    return draft.is_bare and draft.nums is not None and len(draft.nums.numbers) == 1


def draft_finales_pair(draft: Draft) -> bool:
    """ "finals eight nine": the plural and two digits with nothing between (written with
    a slash, "les finales 3/6" is the finale à cheval, as rules.md names it)."""
    plain = not set(draft.concepts) & {"straight", "split", "horizontal", "vertical"}
    nums = draft.nums.numbers if draft.nums is not None else ()
    slashed = draft.nums is not None and draft.nums.slashed
    return draft.head == "finales" and plain and len(nums) == 2 and not draft.more and not slashed


def _notation(calls: list[Call], units: list[int]) -> str:
    """Calls at their stakes a piece, in notation (``tiers x10 ; jeu_zero x15``)."""
    return " ; ".join(f"{c.notation()} x{u}" for c, u in zip(calls, units, strict=True))


def _amount_after(call: Call, number: int) -> bool:
    """Whether a number said right after a bet, with nothing between, can only be its
    amount: after a dozen or a column (it cannot join them into another position), or
    after a simple chance the number is not part of ("rouge 20": 20 is black).  "Noir 20"
    may name the black 20, as a spin is called ("vingt, noir, pair et passe"): asked."""
    if call.is_called_bet or call.name in POSITION_WORDS or number == 0:
        return False  # "pair zero": the zero is a bet, never an amount
    return BetKind(call.name) not in SIMPLE_CHANCES or number not in call.position().numbers
