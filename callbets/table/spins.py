"""The spin: the bets settled once, the outcomes written, the next round opened; and the
settled spins read back."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import TableError
from ..messages import said
from ..roulette.settle import Bet, CallResult, Outcome, Settlement, call_results, settle
from .betting import Betting
from .core import NEXT_BET, money, timestamp
from .rows import settled_bets


@dataclass(frozen=True)
class SpinReport:
    """A settled spin: the settlement, its calls, and the round it closed."""

    round: int
    """The round number (1, 2, …)."""
    settlement: Settlement
    """Every bet's outcome."""
    calls: tuple[CallResult, ...]
    """The same outcomes grouped by announced call."""

    def to_json(self) -> dict[str, Any]:
        """The settlement as stored and exported."""
        s = self.settlement
        return {
            "round": self.round,
            "spin": s.number,
            "players": {
                p: {
                    "staked": money(s.staked(p)),
                    "returned": money(s.returned(p)),
                    "net": money(s.net(p)),
                    "prison": money(s.in_prison(p)),
                }
                for p in s.players()
            },
            "outcomes": [self._outcome_json(o) for o in s.outcomes],
            "to_place": [
                {
                    "player": c.player,
                    "call": c.call,
                    "placements": [
                        {"bet": p.kind.value, "numbers": list(p.numbers), "amount": a}
                        for p, a in c.to_place
                    ],
                }
                for c in self.calls
                if c.to_place
            ],
            "staked": money(s.staked()),
            "returned": money(s.returned()),
            "net": money(s.net()),
            "prison": money(s.in_prison()),
        }

    @staticmethod
    def _outcome_json(o: Outcome) -> dict[str, Any]:
        return {
            "bet": o.bet.id,
            "player": o.bet.player,
            "call": o.bet.call,
            "bet_kind": o.bet.position.kind.value,
            "numbers": list(o.bet.position.numbers),
            "amount": o.bet.amount,
            "prison_level": o.bet.prison,
            "result": o.result,
            "paid": money(o.paid),
            "returned": money(o.returned),
            "kept_in_prison": o.kept.amount if o.kept else 0,
        }


class Spinning(Betting):
    """Spins and their settlement (see the module docstring)."""

    def spin(
        self,
        number: int,
        round_no: int | None = None,
        choices: Mapping[str, str] | None = None,
        last_spin: bool = False,
    ) -> SpinReport:
        """Enter the winning number and settle every bet on the layout, exactly once.

        Entering a spin for a round already settled with the same number gives back the
        stored settlement and changes nothing.

        :raises TableError: betting is still open, a different number for a settled
            round, or a number off the wheel.
        :raises SettlementError: a zero choice the house does not offer.
        """
        if not (isinstance(number, int) and 0 <= number <= 36):
            raise TableError(said("not_on_wheel", number=number))
        with self._transaction():
            if round_no is not None and round_no < self.round:
                return self._stored_spin(round_no, number)
            if round_no is not None and round_no != self.round:
                raise TableError(said("round_not_started", round=round_no, now=self.round))
            if self.ended:
                raise TableError(said("evening_over"))
            if self.is_open:
                raise TableError(said("betting_open"))
            report = self._settle(number, choices or {}, last_spin)
        return report

    def _stored_spin(self, round_no: int, number: int) -> SpinReport:
        row = self._spin_row(round_no)
        if row is None:
            raise TableError(said("round_no_spin", round=round_no))
        if row[0] != number:
            raise TableError(said("round_settled_on", round=round_no, number=row[0], other=number))
        return self._report_from_json(json.loads(row[1]))

    def _report_from_json(self, data: dict[str, Any]) -> SpinReport:
        bets = self.settled_bets(data["round"])
        settlement = settle(
            bets, data["spin"], self.house, data.get("choices", {}), data.get("last_spin", False)
        )
        return SpinReport(data["round"], settlement, tuple(call_results(settlement, self.house)))

    def settled_bets(self, round_no: int) -> list[Bet]:
        """The bets as they stood when a round was settled."""
        return settled_bets(self.store, round_no)

    def _settle(self, number: int, choices: Mapping[str, str], last_spin: bool) -> SpinReport:
        round_no = self.round
        bets = self.open_bets()
        settlement = settle(bets, number, self.house, choices, last_spin)
        report = SpinReport(round_no, settlement, tuple(call_results(settlement, self.house)))
        data = report.to_json()
        data["choices"] = dict(choices)
        data["last_spin"] = last_spin
        summary = {k: v for k, v in data.items() if k not in ("outcomes", "to_place")}
        self.store.rows(
            "INSERT INTO spins (table_id, round, number, created, report)"
            " VALUES (:t, :round, :number, :now, :report)",
            round=round_no, number=number, now=timestamp(), report=json.dumps(summary),
        )  # fmt: skip
        self.store.many(
            "INSERT INTO outcomes (table_id, round, bet, result, paid, returned)"
            " VALUES (:t, :round, :bet, :result, :paid, :returned)",
            [{"round": round_no, "bet": int(o.bet.id), "result": o.result,
              "paid": str(o.paid), "returned": str(o.returned)} for o in settlement.outcomes],
        )  # fmt: skip
        self.store.many(
            "UPDATE bets SET status = 'settled' WHERE table_id = :t AND id = :bet",
            [{"bet": int(o.bet.id)} for o in settlement.outcomes],
        )
        self.store.many(
            "INSERT INTO bets (table_id, id, announcement, call_index, call, kind, numbers,"
            f" amount, prison, round, status) SELECT table_id, {NEXT_BET}, announcement,"
            " call_index, call, :kind, :numbers, :amount, :prison, :round, 'open' FROM bets"
            " WHERE table_id = :t AND id = :bet",
            [{"kind": o.kept.position.kind.value, "numbers": json.dumps(o.kept.position.numbers),
              "amount": o.kept.amount, "prison": o.kept.prison, "round": round_no + 1,
              "bet": int(o.bet.id)}
             for o in settlement.outcomes if o.kept is not None],
        )  # fmt: skip
        self._set_meta("round", str(round_no + 1))
        self._set_meta("state", "ended" if last_spin else "open")  # the last: no more bets
        self._audit("spin", round=round_no, number=number)
        self._audit("settlement", **data)
        return report

    def spins(self) -> list[SpinReport]:
        """Every settled round, settled again from its stored bets, oldest first."""
        rows = self.store.rows("SELECT report FROM spins WHERE table_id = :t ORDER BY round")
        return [self._report_from_json(json.loads(report)) for (report,) in rows]

    def recent_settlements(self, count: int) -> list[tuple[int, str]]:
        """The last ``count`` settled rounds as stored when they were settled (round, and
        the JSON of the number and each player's totals), newest first: what a screen of
        many tables shows, without settling a round again."""
        rows = self.store.rows(
            "SELECT round, report FROM spins WHERE table_id = :t ORDER BY round DESC LIMIT :n",
            n=count,
        )
        return [(int(r), str(report)) for r, report in rows]

    def last_spin(self) -> SpinReport | None:
        """The settlement of the last spin, or None before the first spin."""
        found = self._spin_row(self.round - 1)
        return self._report_from_json(json.loads(found[1])) if found else None

    def _spin_row(self, round_no: int) -> tuple[int, str] | None:
        """(number, stored report) of a settled round."""
        row = self.store.one(
            "SELECT number, report FROM spins WHERE table_id = :t AND round = :round",
            round=round_no,
        )  # fmt: skip
        return None if row is None else (int(row[0]), str(row[1]))
