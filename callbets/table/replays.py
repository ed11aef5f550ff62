"""A winning call played again: à refaire, à compléter, pour le tout."""

from __future__ import annotations

import json

from ..errors import TableError
from ..messages import said
from ..roulette.announcement import Announcement
from ..roulette.limits import check_limits
from ..roulette.replay import Replay, replay
from ..roulette.settle import CallResult
from .core import money
from .spins import Spinning


class Replaying(Spinning):
    """Replays of a won call (see the module docstring)."""

    # ---- replays -------------------------------------------------------------------
    def replay(self, aid: int, kind: str, call_index: int = 0) -> Replay:
        """Replay a called bet that won on the last spin (à refaire, à compléter, pour le tout).

        :raises TableError: betting is closed, no such call, or it was already replayed.
        :raises ReplayError: the bet did not win, or the replay is not allowed.
        """
        return self._replay(aid, kind, call_index, "confirmed")[1]

    def replay_pending(self, aid: int, kind: str, call_index: int = 0) -> tuple[int, Replay]:
        """A replay read back and waiting, as an announcement is: :meth:`confirm` puts it
        on the layout, :meth:`cancel` drops it.  Returns its announcement's id and what it
        would place.

        :raises TableError, ReplayError: as :meth:`replay`.
        """
        return self._replay(aid, kind, call_index, "pending")

    def _replay(self, aid: int, kind: str, call_index: int, status: str) -> tuple[int, Replay]:
        with self._transaction():
            self._need_open()
            last = self.round - 1
            origin = f"replay:{aid}.{call_index}:{kind}"
            player, announcement = self.announcement(aid)
            if self.store.one(
                "SELECT 1 FROM announcements WHERE table_id = :t AND origin LIKE :origin"
                " AND status NOT IN ('cancelled', 'undone')",
                origin=f"replay:{aid}.{call_index}:%",
            ):  # fmt: skip  (a replay dropped or undone may be replayed again)
                raise TableError(said("replayed_already", id=aid))
            calls = announcement.calls
            if not 0 <= call_index < len(calls):
                raise TableError(said("no_call", id=aid, call=call_index))
            result = self._call_result(last, aid, call_index)
            done = replay(kind, calls[call_index], result, self.house, self.on_layout())
            new = Announcement(done.placed.notation(), (done.placed,))
            warnings = check_limits(new, self.house, self.on_layout())
            new_id = self._insert_announcement(player, new.notation(), None, new, status, origin)
            waiting = {"pending": True} if status == "pending" else {}
            self._audit(
                "replay", announcement=aid, call=call_index, replay=kind, new_announcement=new_id,
                placed=done.placed.notation(), left_in_place=done.left_in_place,
                from_win=money(done.from_win), handed=money(done.handed), warnings=warnings,
                **waiting,
            )  # fmt: skip
        return new_id, done

    def replay_kind(self, aid: int) -> str | None:
        """The replay an announcement is (``refaire``, ``completer``, ``tout``), or None."""
        origin = self.store.value(
            "SELECT origin FROM announcements WHERE table_id = :t AND id = :aid", aid=aid
        )
        if not isinstance(origin, str) or not origin.startswith("replay:"):
            return None
        return origin.rpartition(":")[2]

    def _call_result(self, round_no: int, aid: int, call_index: int) -> CallResult:
        row = self._spin_row(round_no)
        if row is None:
            raise TableError(said("no_spin_yet"))
        report = self._report_from_json(json.loads(row[1]))
        group = f"{aid}.{call_index}"
        for c in report.calls:
            if c.group == group:
                return c
        raise TableError(said("call_not_on_spin", id=aid, call=call_index))
