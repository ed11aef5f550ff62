"""Calls and chips said again: the croupier's read-back of the last call with its total,
a call said twice (asked: once, or twice?), and numbers said after a called bet that are
its chips read back.  One part of :class:`~callbets.language.assemble.place.Placing` (a
base class)."""

from __future__ import annotations

import itertools
from operator import attrgetter

from ...errors import AmbiguousError, AnnouncementError
from ...messages import said as said_message
from ...roulette.announcement import PlacedCall, call_names
from ...roulette.house import House
from .draft import POSITION_WORDS, Check, Draft, SaidAgain
from .resolve import as_position, resolve


class CallsSaidAgain:
    """Placing's handling of what is said twice."""

    house: House
    drafts: list[Draft]
    checks: list[Check]
    said_again: SaidAgain | None

    def _read_back_dropped(
        self, placed: list[tuple[Draft, PlacedCall]]
    ) -> list[tuple[Draft, PlacedCall]]:
        """ "—Tiers par 5 ! —Tiers par 5, trente euros, c'est joué.": the last call, said
        again right after itself at the same stake with the total of one, is the
        croupier's read-back, not a second bet (with the total of both, or none, it is
        asked: :meth:`_ask_said_twice`)."""
        if len(placed) < 2:
            return placed
        (_, first), (last, again) = placed[-2], placed[-1]
        index = next(i for i, d in enumerate(self.drafts) if d is last)
        read_back = first == again and any(
            c.kind == "total" and c.targets == (index,) and c.value == again.total
            for c in self.checks
        )
        return placed[:-1] if read_back else placed

    def _said_again_once(
        self, placed: list[tuple[Draft, PlacedCall]]
    ) -> list[tuple[Draft, PlacedCall]]:
        """The calls said twice around a repeat word ("—Vecinos a 25. —Vecinos del cero a
        veinticinco, van"), the same calls at the same stakes: placed once.  After a word
        that must repeat ("repito"), anything else is asked."""
        again = self.said_again
        if again is None or self.checks:
            return placed
        half = len(placed) // 2
        notes = [p.notation() for _, p in placed]
        if len(placed) % 2 == 0 and half and notes[:half] == notes[half:]:
            return placed[:half]
        if len(set(notes)) == 1:  # one bet: nothing said again in other words
            return placed
        if again.must:
            raise AmbiguousError(said_message("repeat_differs", word=again.word), [],
                                 column=again.column)  # fmt: skip
        return placed

    def _ask_said_twice(self, placed: list[tuple[Draft, PlacedCall]]) -> None:
        """ "voisins à 5, voisins à 5": a call said twice is asked about, never silently
        doubled (people and recognisers repeat themselves): at the same stake, once or
        twice?  At another stake ("voisins à 5, voisins à 10"), both, or a correction?"""
        calls = [p for _, p in placed]
        for i, (draft, p) in enumerate(placed):
            first = next((q for q in calls[:i] if q.call == p.call), None)
            if first is None:
                continue
            if first == p:
                key, other = "said_twice", [q for j, q in enumerate(calls) if j != i]
            else:
                key, other = "said_twice_stakes", [q for q in calls if q is not first]
            raise AmbiguousError(
                said_message(key, call=call_names(self.house, p)),
                [" ; ".join(q.notation() for q in other), " ; ".join(q.notation() for q in calls)],
                column=draft.start,
            )

    def _said_again(self) -> list[Draft]:
        """Numbers or positions said after a called bet that are exactly its chips
        ("orphelins, 1, 6/9, 14/17, 17/20, 31/34", "final two, 2 12 22 32"): the player
        reads the bet back; they are no bets of their own."""
        out: list[Draft] = []
        i = 0
        while i < len(self.drafts):
            d = self.drafts[i]
            run = list(itertools.takewhile(attrgetter("is_bare"), self.drafts[i + 1 :]))
            if not run or d.is_bare:
                i += 1
                continue
            try:
                recipe = [p for call in resolve(d, self.house) for p, _ in call.recipe(self.house)]
            except AmbiguousError:
                if len(run) == 1 and _described(d, run[0]):
                    d.nums = run[0].nums  # "transversal del cero, 0-1-2": the one said
                    out.append(run[0])
                i += 1 + len(run)
                continue
            except (AnnouncementError, ValueError):
                i += 1
                continue
            covered = {n for p in recipe for n in p.numbers}
            single = run[0].nums.numbers if run[0].nums else ()
            listed = {_position(r) for r in run}
            chips = {p.numbers for p in recipe}
            if len(run) == 1 and len(single) >= 3 and set(single) == covered:
                out.append(run[0])  # "17 et les voisins, 2 25 17 34 6"
            elif len(run) > 1 and listed == chips:
                out.extend(run)  # "orphelins, 1, 6/9, 14/17, 17/20, 31/34"
            elif len(run) > 1 and listed < chips:
                calls = call_names(self.house, resolve(d, self.house)[0])
                raise AmbiguousError(
                    said_message("chips_read_back", calls=calls),
                    [],
                    column=run[0].start,
                )
            i += 1 + len(run)
        return out


def _described(draft: Draft, said: Draft) -> bool:
    """Whether a position named by one number that two positions hold ("sixain 22",
    "transversale du zéro") is described right after by the numbers of one of them."""
    if draft.head not in POSITION_WORDS or draft.nums is None or said.nums is None:
        return False
    (number, *more) = draft.nums.numbers
    position = as_position(said.nums.numbers)
    return (
        not more
        and position is not None
        and position.name == draft.head
        and (number in position.numbers)
    )


def _position(draft: Draft) -> tuple[int, ...]:
    found = as_position(draft.nums.numbers) if draft.nums is not None else None
    return tuple(found.numbers) if found is not None else ()
