"""What each line typed at the console does to the table, and what is said back.

A :class:`Session` holds the little the console knows beyond the table file: the
selected player and the announcement waiting for confirmation (which is also in the
file, so a restart finds it again).  Every change goes through :class:`~callbets.table.Table`
and so into its audit log.

Lines, in the order they are tried:

* ``/command …``: table commands (``/help`` lists them);
* empty line, or a confirmation phrase: confirm the announcement read back; a cancel
  phrase (or Esc, in the terminal): drop it;
* ``NAME: …``: the line is for that player; ``NAME:`` alone selects the player;
* "rien ne va plus" (``CLOSE`` in the grammar): close betting;
* a number 0 to 36, once betting is closed: the spin (a zero that catches simple chances
  first takes the players' choices, where the house offers them: :mod:`.zero`);
* "à refaire", "à compléter", "pour le tout" (and the other languages' words), maybe
  followed by which winning bet: a replay for the player;
* anything else: an announcement for the player, read back and waiting for Enter.

What the console says is in the table's language (:mod:`.words`).
"""

from __future__ import annotations

import os
import re
import shlex
import textwrap
import traceback
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from ..errors import AmbiguousError, AnnouncementError, CallbetsError
from ..language.dialogue import confirmation, reading_choice
from ..language.parse import number_said
from ..language.readback import reading_line, replay_name
from ..language.talk import CLOSE, table_talk
from ..messages import message_in, say_in
from ..pictures.svg import announcement_svg, svg
from ..roulette.announcement import Announcement, bets_among
from ..roulette.limits import check_limits
from ..roulette.settle import CallResult
from ..table import SpinReport, Table
from ..table.evening import evening
from . import report
from .report import Fragments, error, line
from .words import command, say
from .zero import ZeroCall, offers_choice


@dataclass(frozen=True)
class Pending:
    """An announcement read back and waiting for confirmation."""

    aid: int
    player: str
    text: str


@dataclass(frozen=True)
class Choices:
    """The readings the croupier may pick from, for the announcement that had them."""

    player: str
    text: str
    readings: list[str]


class VoiceControl(Protocol):
    """What the console's session asks of the listener joined to its terminal
    (:class:`callbets.console.app.VoiceLink`)."""

    def toggle(self) -> Fragments:
        """Start or stop listening, and say which."""

    def flush(self) -> None:
        """Hand over what was heard while no prompt was up."""


class Session:
    """The console's state over one table, and the meaning of each line."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.lang = table.lang
        self.player: str | None = None
        """The selected player (lines without ``NAME:`` are theirs)."""
        self.pending: Pending | None = None
        self.rows: int | None = None
        self.columns: int | None = None
        """The terminal's width, where known (the help is folded to it)."""
        """Lines of the terminal (set by the terminal): a readback that would not fit
        above the question is folded (:func:`.report.announcement`)."""
        self.choices: Choices | None = None
        """The readings of the last ambiguous announcement, until the next line."""
        self.zero: ZeroCall | None = None
        """The players' choices while a zero waits to be settled."""
        self.done = False
        """Set by ``/quit``."""
        self.last = False
        """The next number is the evening's last spin (``/last``)."""
        self.voice = ""
        """What the status line says about listening ("" when off)."""
        self._status: str | None = None
        self.voice_link: VoiceControl | None = None
        """The listener joined to the terminal, where it can listen (``/voice``, F5)."""
        waiting = table.pending()
        if waiting:
            self.pending = Pending(*waiting[-1])
            self.player = self.pending.player

    # ---- reading the table -----------------------------------------------------------
    def status(self) -> str:
        """The status line (redrawn at every keystroke, so kept until a line changes it).
        Never raises: a database that cannot be reached is said there, and the next
        line tries again."""
        if self._status is None:
            try:
                state = self.table.state()
            except CallbetsError as err:
                return say(self.lang, "unreachable_status", error=message_in(err, self.lang))
            self._status = report.status(state, self.player, self.waiting, self.voice, self.lang)
        return self._status

    def changed(self) -> None:
        """Something the status line shows has changed."""
        self._status = None

    def prompt(self) -> str:
        """The prompt: the selected player, or the table's state (never raises: drawn by
        the terminal, where an error would stop the console)."""
        if self.zero is not None:
            return say(self.lang, "prompt_zero")
        try:
            closed = not self.table.is_open and not self.table.ended
        except CallbetsError:
            closed = False  # the line typed will say why the table cannot be read
        if closed:
            return say(self.lang, "prompt_last" if self.last else "prompt_number")
        return f"{self.player} › " if self.player else "› "

    def players(self) -> list[str]:
        """The players, for completion (none while the table cannot be read)."""
        try:
            return self.table.players()
        except CallbetsError:
            return []

    def greeting(self) -> Fragments:
        """What is shown when the console starts (and where a restart left off)."""
        t, lang = self.table, self.lang
        greeting = say(lang, "greeting", house=t.house.name, table_lang=lang, path=t.location)
        out = line(greeting, "class:title")
        if not t.players():
            out += line(say(lang, "no_players"), "class:dim")
        if t.ended:
            out += line(say(lang, "evening_ended"), "class:warn")
        elif not t.is_open:
            out += line(say(lang, "closed_enter_number"), "class:warn")
        if self.pending is not None:
            out += line(say(lang, "waiting"), "class:warn")
            out += self._readback(*self.table.announcement(self.pending.aid))
        return out

    # ---- a line ------------------------------------------------------------------------
    def handle(self, text: str) -> Fragments:
        """Do what a line says; return what to show.  Never raises for the user's input."""
        text = text.strip()
        self.changed()
        try:
            return self._handle(text)
        except AnnouncementError as err:
            return self._refused(err)
        except CallbetsError as err:
            return error(message_in(err, self.lang))
        except OSError as err:
            return error(say(self.lang, "cannot_write", error=err))
        except Exception:
            return error(say(self.lang, "unexpected", log=self.log_unexpected(text)))

    def log_unexpected(self, text: str) -> str:
        """Write the traceback of an error callbets did not foresee to a file beside the
        table (owner-only); returns where."""
        path = self.table.local_file(".log")
        entry = f"--- {datetime.now(UTC).isoformat()} line {text!r}\n{traceback.format_exc()}"
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            with os.fdopen(fd, "a", encoding="utf-8") as f:
                f.write(entry)
        except OSError:
            return "-"
        return str(path)

    def _handle(self, text: str) -> Fragments:
        choices, self.choices = self.choices, None  # readings are picked on the next line
        if text.startswith("/"):
            return self._command(text[1:])
        if self.pending is not None:
            answer = "confirm" if not text else confirmation(text, self.lang)
            if answer == "confirm":
                return self.confirm()
            if answer == "cancel":
                return self.cancel()
            return error(say(self.lang, "confirm_first", player=self.pending.player))
        if self.zero is not None:
            return self._zero_line(text)
        if not text:
            return []
        player, rest = self._split_player(text)
        picked = reading_choice(rest, self.lang, len(choices.readings)) if choices else None
        if choices is not None and picked is not None:
            return self._pick(choices, picked)
        if player is not None and not rest:
            self.player = player
            return line(say(self.lang, "selected", player=player), "class:dim")
        talk = table_talk(rest, self.lang)
        if talk is not None and talk.action == CLOSE:
            self.table.close()
            return line(say(self.lang, "closed"), "class:warn")
        number = self._number(rest)
        if self.table.ended:
            return error(say(self.lang, "evening_ended"))
        if not self.table.is_open:
            if number is None:
                return error(say(self.lang, "closed_no_bets"))
            if number == 0 and offers_choice(self.table):
                self.zero = ZeroCall(self.table, self.lang, self.last)
                return self.zero.opening()
            return self._settled(self.table.spin(number, last_spin=self.last))
        if talk is not None:
            return self._replay(self._whose(player), talk.action, talk.which)
        if number is not None and player is None:
            who = self.player or "NAME"
            return error(say(self.lang, "bare_number", number=number, who=who, text=rest))
        return self._announce(self._whose(player), rest, text)

    def _settled(self, spin: SpinReport) -> Fragments:
        settled = report.spin(spin, self.table.house, self.lang)
        if self.table.ended:
            self.last = False
            return settled + line(say(self.lang, "evening_ended"), "class:warn")
        return settled + line(say(self.lang, "reopened", round=self.table.round), "class:dim")

    def _zero_line(self, text: str) -> Fragments:
        assert self.zero is not None
        answer = "confirm" if not text else confirmation(text, self.lang)
        if answer == "confirm":
            settled = self.zero.settle()  # failing, the zero stays waiting
            self.zero = None
            return self._settled(settled)
        if answer == "cancel":
            return self.cancel()
        player, rest = self._split_player(text)
        return self.zero.choose(self._whose(player), rest)

    def _split_player(self, text: str) -> tuple[str | None, str]:
        name, colon, rest = text.partition(":")
        if not colon:
            return None, text
        name = name.strip()
        if name not in self.table.players():
            raise CallbetsError(say(self.lang, "not_seated", name=name))
        return name, rest.strip()

    def _whose(self, player: str | None) -> str:
        chosen = player or self.player
        if chosen is None:
            raise CallbetsError(say(self.lang, "whose"))
        self.player = chosen
        return chosen

    def _number(self, text: str) -> int | None:
        """The number a line says when it is a number 0 to 36 and nothing else."""
        value = number_said(text, self.lang)
        return value if value is not None and 0 <= value <= 36 else None

    # ---- announcements -----------------------------------------------------------------
    def _announce(self, player: str, text: str, typed: str) -> Fragments:
        offset = typed.rindex(text) if text else len(typed)
        try:
            aid, announcement = self.table.announce(player, text)
        except AnnouncementError as err:  # point the caret into the line as typed
            if err.column is not None:
                err.column += offset
            err.text = typed
            if isinstance(err, AmbiguousError):
                err.readings = bets_among(err.readings, self.table.house)
                if err.readings:
                    self.choices = Choices(player, text, err.readings)
            raise
        self.pending = Pending(aid, player, text)
        readback = self._readback(player, announcement)
        return readback + line(say(self.lang, "enter_or_esc"), "class:dim")

    def _pick(self, choices: Choices, which: int) -> Fragments:
        """The croupier picked reading ``which``: read it back, waiting for Enter."""
        aid, a = self.table.announce_reading(
            choices.player, choices.readings[which - 1], choices.text
        )
        self.pending = Pending(aid, choices.player, choices.text)
        self.player = choices.player
        return self._readback(choices.player, a) + line(say(self.lang, "enter_or_esc"), "class:dim")

    def _readback(self, player: str, a: Announcement, fold: bool = True) -> Fragments:
        warnings: Fragments = []
        for warning in check_limits(a, self.table.house, self.table.on_layout()):
            warnings += line(f"! {message_in(warning, self.lang)}", "class:warn")
        # below the readback: the warnings, the question, the prompt and the status bar
        rows = self.rows - 3 - report.height(warnings) if fold and self.rows else None
        return report.announcement(player, a, self.lang, self.table.house, rows) + warnings

    def _refused(self, err: AnnouncementError) -> Fragments:
        said = message_in(err.message, self.lang)
        kind = say_in(self.lang, f"kind_{err.kind}")
        out = error(say(self.lang, "refused", kind=kind, message=said))
        if err.column is not None:
            shown, column = excerpt(err.text, err.column)
            out += line(f"  {shown}", "class:dim")
            out += line(f"  {' ' * column}^", "class:error")
        if isinstance(err, AmbiguousError):
            for i, reading in enumerate(err.readings, 1):
                shown = reading_line(reading, self.lang, self.table.house)
                out += line(f"  {i}. {shown}", "class:dim")
            if self.choices is not None:
                out += line(f"  {say(self.lang, 'pick_reading')}", "class:dim")
        return out

    def confirm(self) -> Fragments:
        """Enter: the announcement read back goes on the layout."""
        if self.pending is None:
            return []
        self.changed()
        p = self.pending
        a = self.table.confirm(p.aid)  # failing, it stays waiting: Enter tries again
        self.pending = None
        return line(say(self.lang, "placed", player=p.player, calls=self._calls(a)), "class:ok")

    def _calls(self, a: Announcement) -> str:
        names = [report.placed_call(c, self.lang, self.table.house) for c in a.calls]
        total = " " + say(self.lang, "total", amount=a.total) if len(names) > 1 else ""
        return "; ".join(names) + total

    @property
    def waiting(self) -> bool:
        """True while Enter confirms something (a readback, a zero) and Esc drops it."""
        return self.pending is not None or self.zero is not None

    def cancel(self) -> Fragments:
        """Esc: the announcement read back is dropped, or the 0 entered by mistake."""
        if self.zero is not None:
            self.changed()
            self.zero = None
            return line(say(self.lang, "zero_dropped"), "class:dim")
        if self.pending is None:
            return []
        self.changed()
        p = self.pending
        self.table.cancel(p.aid)  # failing, it stays waiting
        self.pending = None
        return line(say(self.lang, "cancelled", player=p.player, text=p.text), "class:dim")

    # ---- replays ---------------------------------------------------------------------
    def _winners(self, player: str) -> tuple[int, list[CallResult]]:
        last = self.table.last_spin()
        if last is None:
            raise CallbetsError(say(self.lang, "no_spin"))
        won = [c for c in last.calls if c.player == player and c.won]
        return last.settlement.number, won

    def _replay(self, player: str, kind: str, which: int | None) -> Fragments:
        number, won = self._winners(player)
        name = replay_name(kind, self.lang)
        lang, count = self.lang, len(won)
        if not won:
            return error(say(lang, "nothing_won", player=player, number=number))
        if which is None and count > 1:
            out = error(say(lang, "which_replay", player=player, count=count, number=number,
                            name=name))  # fmt: skip
            for i, c in enumerate(won, 1):
                out += line(f"  {i}. {self._call_label(c)}", "class:dim")
            return out
        if which is not None and not 1 <= which <= len(won):
            return error(
                say(lang, "no_such_win", player=player, count=count, number=number, which=which)
            )
        chosen = won[(which or 1) - 1]
        aid, _, index = chosen.group.partition(".")
        new_id, done = self.table.replay_pending(int(aid), kind, int(index))
        self.changed()
        self.pending = Pending(new_id, player, f"{name} {self._call_label(chosen)}")
        read = report.replay(player, done, self.lang, self.table.house)  # read back, waiting
        return read + line(say(self.lang, "enter_or_esc"), "class:dim")

    def _call_label(self, c: CallResult) -> str:
        aid, _, index = c.group.partition(".")
        _, a = self.table.announcement(int(aid))
        return report.placed_call(a.calls[int(index)], self.lang, self.table.house)

    # ---- commands ------------------------------------------------------------------
    def _command(self, text: str) -> Fragments:
        try:
            name, *args = shlex.split(text) or [""]
        except ValueError as err:
            return error(say(self.lang, "bad_command", error=err))
        name = command(name, self.lang)
        t = self.table
        if name in ("seat", "player", "players"):
            if not args:
                return error(say(self.lang, "seat_who"))
            if any(":" in player for player in args):  # "NAME:" addresses a player
                return error(say(self.lang, "seat_colon"))
            for player in args:
                t.add_player(player)
            self.player = self.player or args[0]
            return line(say(self.lang, "seated", names=", ".join(args)), "class:ok")
        if name == "undo":
            aid = t.undo()
            player, a = t.announcement(aid)
            replayed = t.replay_kind(aid)
            if replayed is not None:  # the chips it placed go back to the player
                said = say(self.lang, "undone_replay", player=player, calls=self._calls(a),
                           name=replay_name(replayed, self.lang), amount=a.total)  # fmt: skip
                return line(said, "class:ok")
            return line(say(self.lang, "undone", player=player, calls=self._calls(a)), "class:ok")
        if name == "clear":
            player = args[0] if args else self._whose(None)
            count = t.clear(player)
            return line(say(self.lang, "cleared", player=player, count=count), "class:ok")
        if name == "table":
            return self._whole_table()
        if name == "chips":
            if self.pending is None:
                return error(say(self.lang, "no_pending"))
            player, a = t.announcement(self.pending.aid)
            return self._readback(player, a, fold=False)
        if name == "svg":
            return self._svg(args)
        if name == "last":
            self.last = not self.last
            return line(
                say(self.lang, "last_marked" if self.last else "last_unmarked"), "class:warn"
            )
        if name == "report":
            return report.evening(evening(t), self.lang)
        if name == "voice":
            if self.voice_link is None:
                return error(say(self.lang, "no_speech"))
            return self.voice_link.toggle()
        if name in ("help", "h", "?"):
            return line(folded(say(self.lang, "help"), self.columns or 80), "class:dim")
        if name in ("quit", "exit", "q"):
            self.done = True
            return line(say(self.lang, "bye"), "class:dim")
        return error(say(self.lang, "unknown_command", name=name))

    def _whole_table(self) -> Fragments:
        bets = self.table.open_bets()
        out = line(say(self.lang, "whole_table"), "class:title")
        for b in bets:
            prison = say(self.lang, "in_prison_level", level=b.prison) if b.prison else ""
            out += line(f"  {b.player}: {report.bet_name(b, self.lang)}{prison}", "class:chip")
        return out + report.picture((b.position for b in bets), self.lang)

    def _svg(self, args: list[str]) -> Fragments:
        if len(args) != 1:
            return error(say(self.lang, "svg_where"))
        path = Path(args[0])
        if self.pending is not None:
            _, a = self.table.announcement(self.pending.aid)
            title = f"{self.pending.player}: {self.pending.text}"
            path.write_text(announcement_svg(a, title, self.lang), encoding="utf-8")
            said = say(self.lang, "svg_announcement", player=self.pending.player, path=path)
            return line(said, "class:ok")
        chips = [(b.position, b.amount) for b in self.table.open_bets()]
        path.write_text(svg(chips, f"table {self.table.name}", self.lang), encoding="utf-8")
        return line(say(self.lang, "svg_table", path=path), "class:ok")


SHOWN_AROUND = 36
"""Characters of a refused line shown on each side of the caret: a long line (a paste)
is shown as an excerpt, never echoed whole."""


def excerpt(text: str, column: int, around: int = SHOWN_AROUND) -> tuple[str, int]:
    """The part of a refused line to show under its message, and where the caret goes in
    it: the whole line when it is short, else the words around ``column`` with "…"
    where the line goes on."""
    if len(text) <= 2 * around + 8:
        return text, column
    start = max(0, min(column - around, len(text) - 2 * around))
    end = min(len(text), start + 2 * around)
    before = "…" if start > 0 else ""
    after = "…" if end < len(text) else ""
    return before + text[start:end] + after, column - start + len(before)


def folded(text: str, width: int) -> str:
    """Text folded to a terminal's width between words, never inside one; a line that
    goes on is indented under where its words began (a command's explanation stays in
    its column)."""
    out = []
    for row in text.split("\n"):
        match = re.match(r"(\s*/\S+\s+(?:\[\S+\]\s+)?|\s*)", row)
        hang = " " * min(len(match.group(1)) if match else 0, width // 2)
        out.append(
            textwrap.fill(
                row,
                width - 1,
                subsequent_indent=hang,
                break_long_words=False,
                break_on_hyphens=False,
            )
            or row
        )
    return "\n".join(out)
