"""The table's rows read back as the game's objects: bets and their positions."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from ..errors import CallbetsError, TableError
from ..roulette.layout import (
    INSIDE,
    SIMPLE_CHANCES,
    BetKind,
    Position,
    column_bet,
    dozen,
    simple_chance,
    two_columns,
    two_dozens,
)
from ..roulette.settle import Bet
from .store import Store

LEGAL: frozenset[Position] = frozenset(
    [*INSIDE.values(), *(f(i) for f in (dozen, column_bet) for i in (1, 2, 3)),
     *(f(i) for f in (two_dozens, two_columns) for i in (1, 2)),
     *(simple_chance(k) for k in SIMPLE_CHANCES)]
)  # fmt: skip
"""Every position of the layout: a row names one of them, or it is damaged."""


@cache
def _position(kind: str, numbers: str) -> Position:
    found = json.loads(numbers)
    if not isinstance(found, list) or not all(type(n) is int for n in found):
        raise ValueError(numbers)
    position = Position(BetKind(kind), tuple(found))
    if position not in LEGAL:
        raise ValueError(position)
    return position


def stake_from_row(
    kind: Any, numbers: Any, amount: Any, prison: Any, bet_id: Any = "?"
) -> tuple[Position, int, int]:
    """(position, amount, prison level) of a bet's row, or of a sum of bets' rows.

    :raises TableError: a row that is not a bet of the game (damaged, or edited by hand).
    """
    try:
        position = _position(str(kind), str(numbers))
    except (ValueError, TypeError, RecursionError, CallbetsError):  # a kind unknown…
        raise TableError(f"bet {bet_id} is damaged: '{str(kind)[:20]}' on "
                         f"'{str(numbers)[:40]}' is not a bet of the game") from None  # fmt: skip
    if not isinstance(amount, int) or not isinstance(prison, int):
        raise TableError(f"bet {bet_id} is damaged: its amount or prison cannot be read")
    return position, amount, prison


def bet_from_row(row: tuple[Any, ...]) -> Bet:
    """A bet from its row: id, player, kind, numbers (JSON), amount, call, announcement,
    call index, prison level.

    :raises TableError: a row that is not a bet of the game (damaged, or edited by hand).
    """
    bet_id, player, kind, numbers, amount, call, aid, call_index, prison = row
    position, amount, prison = stake_from_row(kind, numbers, amount, prison, bet_id)
    if player is None:
        raise TableError(f"bet {bet_id} is damaged: its amount, prison or player cannot be read")
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
