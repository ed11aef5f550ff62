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
from ..language.parse import MAX_CHARS
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


class LineHistory(FileHistory):
    """The history file, without lines longer than any announcement can be (a paste the
    parser refuses is not kept, nor offered again by the up arrow)."""

    def store_string(self, string: str) -> None:
        """Keep a line, if it is not too long to be one."""
        if len(string) <= MAX_CHARS:
            super().store_string(string)

    def append_string(self, string: str) -> None:
        """Offer a line again (up arrow), if it is not too long to be one."""
        if len(string) <= MAX_CHARS:
            super().append_string(string)


def history_for(table: Table) -> History:
    """The command history kept beside the table file (in memory if that cannot be)."""
    path = table.local_file(".history")
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
    except OSError:
        return InMemoryHistory()
    return LineHistory(str(path))


class VoiceLink:
    """The listener joined to the console: F5 and /voice start and stop it, what it hears
    is put in the prompt (or, while no prompt is up, kept until one is), and F6 puts the
    next legal reading of an uncertain utterance in the line."""

    def __init__(
        self, session: Session, prompt: PromptSession[str], listener: Listener, kb: KeyBindings
    ) -> None:
        self.session, self.prompt, self.listener = session, prompt, listener
        self.lang = session.lang
        self.readings: list[str] = []
        """The legal readings of the last utterance, the one in the line first (F6)."""
        self.submitted = ""
        """The words of the last utterance put to the readback."""
        self.resumed: Heard | None = None
        """An utterance to hear once the readback it replaces is dropped."""
        self.waiting: deque[Heard] = deque()
        """What the listener's thread heard, for the prompt's thread."""
        self.context = contextvars.copy_context()  # the console's own app session (get_app)
        kb.add("f6")(self.next_reading)

    def next_reading(self, event: KeyPressEvent) -> None:
        """F6: the next legal reading in the line."""
        if len(self.readings) > 1:
            self.readings.append(self.readings.pop(0))
            event.current_buffer.text = self.readings[0]
            event.current_buffer.cursor_position = len(self.readings[0])

    def toggle(self) -> Fragments:
        """/voice and F5: start or stop listening, and say which."""
        session = self.session
        session.changed()
        if self.listener.running:
            self.listener.stop()
            session.voice = ""
            return line(say(self.lang, "listening_off"), "class:dim")
        self.listener.start(self.deliver)  # "listening" is said once it is (Heard)
        return []

    def deliver(self, h: Heard) -> None:
        """What the listener heard (in the listener's thread): kept, then handed over in
        the prompt's thread."""
        self.waiting.append(h)
        loop = self.prompt.app.loop
        if loop is not None and self.prompt.app.is_running:
            loop.call_soon_threadsafe(self.flush, context=self.context.copy())

    def flush(self) -> None:
        """Hand over what was heard (an utterance that continues a dropped readback
        first, once that readback is gone)."""
        if self.resumed is not None and self.session.pending is None:
            resumed, self.resumed = self.resumed, None
            self.heard(resumed)
        while self.waiting and self.resumed is None:
            self.heard(self.waiting.popleft())

    def heard(self, h: Heard) -> None:
        """One thing heard: partial words in the status bar; a confirm or cancel while a
        readback waits; otherwise what was heard, and the reading put in the line."""
        session, app = self.session, self.prompt.app
        if h.kind == "listening":  # the engine ready and the microphone open
            session.voice = say(self.lang, "listening_status")
            session.changed()
            shown = line(say(self.lang, "listening_on", engine=self.listener.describe()),
                         "class:dim")  # fmt: skip
            run_in_terminal(lambda: show(shown, app.output))
            app.invalidate()
            return
        if h.kind == "partial":  # the words so far, live in the status bar
            session.voice = say(self.lang, "listening_partial", text=h.text[-40:])
            session.changed()
            app.invalidate()
            return
        session.voice = say(self.lang, "listening_status")
        session.changed()
        if h.kind in ("confirm", "cancel") and session.waiting:
            app.exit(result="" if h.kind == "confirm" else ESCAPE)
            return
        pending = session.pending
        if h.continues and pending is not None and self.submitted == pending.text.strip():
            # the croupier went on after a pause ("zero spiel … by five"): the readback
            # waiting is only the start of what he said; drop it, then hear the whole
            self.resumed = replace(h, continues=False)
            app.exit(result=ESCAPE)
            return
        message = self.said(h)
        run_in_terminal(lambda: show(message, app.output))
        if h.kind in ("accept", "ask") and session.pending is None:
            buffer = self.prompt.default_buffer
            buffer.text = h.text
            buffer.cursor_position = len(h.text)
            if h.kind == "accept":
                self.submitted = h.text.strip()
                buffer.validate_and_handle()
        app.invalidate()

    def said(self, h: Heard) -> Fragments:
        """What the console shows of an utterance: the words, the readings to choose from
        (in the table's words), or why listening stopped."""
        reason = message_in(h.reason, self.lang)
        if h.kind == "error":
            self.session.voice = ""
            self.session.changed()
            return line(say(self.lang, "listening_stopped", reason=reason), "class:error")
        key = "heard_unsure" if h.kind == "ask" else "heard"
        style = "class:warn" if h.kind == "ask" else "class:dim"
        message: Fragments = line(say(self.lang, key, text=h.text, reason=reason), style)
        for i, choice in enumerate(h.choices, 1):  # in the table's words, not notation
            message += line(
                f"  {i}. {reading_line(choice, self.lang, self.session.table.house)}",
                "class:dim",
            )
        self.readings[:] = list(h.texts)
        if len(self.readings) > 1:
            message += line(say(self.lang, "next_reading"), "class:dim")
        return message


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
        session.voice_link = VoiceLink(session, prompt, listener, keys)
    show(session.greeting())
    try:
        while not session.done:
            try:
                link = session.voice_link
                text = prompt.prompt(session.prompt, pre_run=link.flush if link else None)
            except KeyboardInterrupt:
                continue
            except EOFError:
                break
            try:
                session.rows, session.columns = prompt.output.get_size()
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
