"""The table's rows read back as the game's objects: bets and their positions."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from ..roulette.layout import BetKind, Position
from ..roulette.settle import Bet
from .store import Store


@cache
def _position(kind: str, numbers: str) -> Position:
    return Position(BetKind(kind), tuple(json.loads(numbers)))


def bet_from_row(row: tuple[Any, ...]) -> Bet:
    """A bet from its row: id, player, kind, numbers (JSON), amount, call, announcement,
    call index, prison level."""
    bet_id, player, kind, numbers, amount, call, aid, call_index, prison = row
    position = _position(kind, numbers)
    return Bet(str(bet_id), player, position, amount, call, f"{aid}.{call_index}", prison)


def settled_bets(store: Store, round_no: int) -> list[Bet]:
    """The bets as they stood when a round was settled."""
    rows = store.rows(
        "SELECT b.id, a.player, b.kind, b.numbers, b.amount, b.call, b.announcement,"
        " b.call_index, b.prison FROM outcomes o"
        " JOIN bets b ON b.table_id = o.table_id AND b.id = o.bet"
        " JOIN announcements a ON a.table_id = b.table_id AND a.id = b.announcement"
        " WHERE o.table_id = :t AND o.round = :round ORDER BY b.id", round=round_no,
    )  # fmt: skip
    return [bet_from_row(r) for r in rows]
