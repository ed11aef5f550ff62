"""The console in a terminal, on prompt_toolkit.

Line editing with completion of the grammar's own phrases (and the players' names and
the commands), history kept beside the table file across restarts, a status bar, Enter
to confirm and Esc to cancel a readback, and F5 to listen when the speech extra is
installed.  What each line means is :class:`~callbets.console.session.Session`'s job.
"""

from __future__ import annotations

import contextvars
import os
import unicodedata
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace

from prompt_toolkit import PromptSession, print_formatted_text
from prompt_toolkit.application import run_in_terminal
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.output import Output
from prompt_toolkit.styles import Style

from ..language.grammar import language
from ..language.normalize import fold
from ..language.readback import reading_line
from ..messages import message_in
from ..table import Table
from .report import Fragments, error, line
from .session import Session
from .voice import Heard, Listener
from .words import command_words, say

STYLE = Style.from_dict(
    {
        "error": "#ff5f5f bold",
        "ok": "#5fd75f bold",
        "warn": "#ffaf00 bold",
        "title": "#00afff bold",
        "player": "bold",
        "call": "bold",
        "chip": "",
        "dim": "#8a8a8a",
        "pay": "#5fd75f",
        "prison": "#ffaf00",
        "mark": "#ffd700 bold reverse",
        "cloth": "#5f875f",
        "bottom-toolbar": "#ffffff bg:#005f5f noreverse",
    }
)
ESCAPE = "\x1b"
"""What the prompt returns when Esc drops the announcement read back."""


class PhraseCompleter(Completer):
    """Completes the phrases of the table's grammar, players' names and commands."""

    def __init__(self, lang: str, players: Callable[[], list[str]]) -> None:
        lexicon = language(lang).lexicon
        self.phrases = sorted(
            " ".join(words)
            for words, name in lexicon.phrases.items()
            if any(w.isalpha() for w in words) and name not in lexicon.ignored
        )
        self.players = players
        self.commands = [f"/{name}" for name in command_words(lang)]

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterator[Completion]:
        """Completions for the words before the cursor (up to four of them)."""
        before = document.text_before_cursor
        if not before.strip():
            return
        if before.lstrip().startswith("/") and " " not in before.strip():
            yield from self._from(before.strip(), self.commands)
            return
        if ":" not in before and " " not in before.strip():
            yield from self._from(before.strip(), [f"{p}:" for p in self.players()])
        words = before.split(" ")
        for k in range(min(4, len(words)), 0, -1):
            tail = " ".join(words[-k:])
            if tail.strip() and tail == tail.lstrip():
                yield from self._from(tail, self.phrases)

    @staticmethod
    def _from(typed: str, options: Iterable[str]) -> Iterator[Completion]:
        folded = fold(typed)
        for option in options:
            if fold(option).startswith(folded) and fold(option) != folded:
                yield Completion(option, start_position=-len(typed))


def _bindings(session: Session) -> KeyBindings:
    kb = KeyBindings()

    @kb.add("escape", eager=True)
    def _escape(event: KeyPressEvent) -> None:
        if session.waiting:
            event.app.exit(result=ESCAPE)
        else:
            event.current_buffer.reset()

    @kb.add(Keys.Vt100MouseEvent)
    def _no_mouse(event: KeyPressEvent) -> None:
        """The console uses no mouse; a typed or pasted "\x1b[31m" looks like a mouse
        report and made prompt_toolkit's own handler raise.  Drop it."""

    @kb.add("f5")
    def _voice(event: KeyPressEvent) -> None:
        said = session.handle("/voice")  # toggles, or says why it cannot listen
        run_in_terminal(lambda: show(said, event.app.output))

    return kb


def visible(text: str) -> str:
    """Control characters typed or pasted (an escape sequence) shown as codes, never sent
    to the terminal: a line cannot change what the croupier's screen shows."""
    return "".join(
        c if c == "\n" or not unicodedata.category(c).startswith("C") else repr(c)[1:-1]
        for c in text
    )


def show(fragments: Fragments, output: Output | None = None) -> None:
    """Print fragments in the console's style (on the app's output, if given)."""
    if fragments:
        safe = [(style, visible(text)) for style, text in fragments]
        print_formatted_text(FormattedText(safe), style=STYLE, end="", output=output)


def history_for(table: Table) -> History:
    """The command history kept beside the table file (in memory if that cannot be)."""
    path = table.local_file(".history")
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
    except OSError:
        return InMemoryHistory()
    return FileHistory(str(path))


def _voice(
    session: Session, prompt: PromptSession[str], listener: Listener, kb: KeyBindings
) -> None:
    """Let F5 and /voice start and stop the listener, and feed it into the prompt; F6 puts
    the next legal reading of an uncertain utterance in the line."""
    lang = session.lang
    readings: list[str] = []
    submitted: list[str] = []  # the words of the last utterance put to the readback
    resumed: list[Heard] = []  # an utterance to hear once the readback it replaces is dropped

    @kb.add("f6")
    def _next_reading(event: KeyPressEvent) -> None:
        if len(readings) > 1:
            readings.append(readings.pop(0))
            event.current_buffer.text = readings[0]
            event.current_buffer.cursor_position = len(readings[0])

    def heard(h: Heard) -> None:
        app = prompt.app
        buffer = prompt.default_buffer
        if h.kind == "partial":  # the words so far, live in the status bar
            session.voice = say(lang, "listening_partial", text=h.text[-40:])
            session.changed()
            app.invalidate()
            return
        session.voice = say(lang, "listening_status")
        session.changed()
        if h.kind in ("confirm", "cancel") and session.waiting:
            app.exit(result="" if h.kind == "confirm" else ESCAPE)
            return
        pending = session.pending
        if h.continues and pending is not None and submitted[-1:] == [pending.text.strip()]:
            # the croupier went on after a pause ("zero spiel … by five"): the readback
            # waiting is only the start of what he said; drop it, then hear the whole
            resumed.append(replace(h, continues=False))
            app.exit(result=ESCAPE)
            return
        key = "heard_unsure" if h.kind == "ask" else "heard"
        style = "class:warn" if h.kind == "ask" else "class:dim"
        reason = message_in(h.reason, lang)
        message: Fragments = line(say(lang, key, text=h.text, reason=reason), style)
        for i, choice in enumerate(h.choices, 1):  # in the table's words, not notation
            message += line(
                f"  {i}. {reading_line(choice, lang, session.table.house)}", "class:dim"
            )
        readings[:] = list(h.texts)
        if len(readings) > 1:
            message += line(say(lang, "next_reading"), "class:dim")
        if h.kind == "error":
            session.voice = ""
            session.changed()
            message = line(say(lang, "listening_stopped", reason=reason), "class:error")
        run_in_terminal(lambda: show(message, app.output))
        if h.kind in ("accept", "ask") and session.pending is None:
            buffer.text = h.text
            buffer.cursor_position = len(h.text)
            if h.kind == "accept":
                submitted[:] = [h.text.strip()]
                buffer.validate_and_handle()
        app.invalidate()

    waiting: deque[Heard] = deque()
    console = contextvars.copy_context()  # the console's own app session (get_app)

    def flush() -> None:
        if resumed and session.pending is None:
            heard(resumed.pop())
        while waiting and not resumed:
            heard(waiting.popleft())

    def deliver(h: Heard) -> None:  # in the listener's thread
        waiting.append(h)
        loop = prompt.app.loop
        if loop is not None and prompt.app.is_running:
            loop.call_soon_threadsafe(flush, context=console.copy())

    session.flush_voice = flush

    def toggle() -> Fragments:
        session.changed()
        if listener.running:
            listener.stop()
            session.voice = ""
            return line(say(lang, "listening_off"), "class:dim")
        listener.start(deliver)
        session.voice = say(lang, "listening_status")
        return line(say(lang, "listening_on", engine=listener.describe()), "class:dim")

    session.toggle_voice = toggle


def run(table: Table, listener: Listener | None = None) -> int:
    """Run the console on a table until /quit or Ctrl-D; returns the exit code."""
    session = Session(table)
    keys = _bindings(session)
    prompt: PromptSession[str] = PromptSession(
        history=history_for(table),
        completer=PhraseCompleter(table.lang, session.players),
        complete_while_typing=False,
        key_bindings=keys,
        bottom_toolbar=lambda: " " + session.status(),
        style=STYLE,
        reserve_space_for_menu=4,
    )
    prompt.app.ttimeoutlen = 0.05  # Esc acts at once
    if listener is not None:
        _voice(session, prompt, listener, keys)
    show(session.greeting())
    try:
        while not session.done:
            try:
                text = prompt.prompt(session.prompt, pre_run=session.flush_voice)
            except KeyboardInterrupt:
                continue
            except EOFError:
                break
            try:
                session.rows = prompt.output.get_size().rows
                show(session.cancel() if text == ESCAPE else session.handle(text))
            except KeyboardInterrupt:  # waiting for the table: its transaction rolled back
                session.changed()
                show(error(say(session.lang, "interrupted")))
            except Exception:
                log = session.log_unexpected(text)
                show(error(say(session.lang, "unexpected", log=log)))
    finally:
        if listener is not None:
            listener.stop()
    return 0
