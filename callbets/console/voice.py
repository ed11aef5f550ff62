"""Listening in the background for the console.

A :class:`Listener` reads audio blocks (the microphone by default) into a
:class:`~callbets.speech.dictation.Dictation`, which cuts utterances by voice activity
and decodes them while they are spoken; it reports the words heard so far (``partial``)
and then each utterance as a :class:`Heard` to the console, which puts the words
through the same readback and confirmation as typed text.  The confirm and cancel
phrases of ``grammar/dialogue.toml`` act as Enter and Esc.
Everything that needs the speech extra is imported when listening starts, so the
console runs without it and says why it cannot listen.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from ..errors import CallbetsError
from ..language.dialogue import confirmation, reading_choice
from ..language.talk import table_talk
from ..messages import message_in
from ..messages import said as message
from ..roulette.house import House
from ..speech.audio import open_microphone
from ..speech.decide import decide
from ..speech.dictation import Dictation, Partial
from ..speech.engines import Hearing, default_engine, make_engine

Blocks = Callable[[], Iterator[bytes]]


@dataclass(frozen=True)
class Heard:
    """What the listener made of one utterance."""

    kind: str
    """``accept``, ``ask``, ``refuse`` (see :mod:`callbets.speech.decide`), ``confirm`` or
    ``cancel`` (a dialogue phrase), ``partial`` (the words so far of an utterance still
    being spoken), ``listening`` (the recogniser is ready and the microphone open: only
    now is anyone told the console listens) or ``error`` (listening stopped)."""
    text: str
    """The words heard (for ``ask``, the most likely legal reading's words)."""
    reason: str = ""
    """Why it was decided so, or what went wrong (a message of ``grammar/messages.toml``
    where it has one: :func:`~callbets.messages.message_in` says it in the table's
    language)."""
    choices: tuple[str, ...] = ()
    """The legal readings to choose from, in notation (``ask``)."""
    texts: tuple[str, ...] = ()
    """The words heard for each of ``choices``, in the same order (what goes in the line)."""
    continues: bool = False
    """The croupier went on after a pause: this holds the utterance before it too, and
    takes its place (:class:`callbets.speech.dictation.Heard`)."""


class Listener:
    """Recognise utterances in a background thread and report each one."""

    def __init__(
        self,
        lang: str,
        house: House,
        engine: str | None = None,
        model: str | None = None,
        degraded: bool = False,
        blocks: Blocks | None = None,
        croupier: str | None = None,
    ) -> None:
        self.lang, self.house, self.model = lang, house, model
        self.degraded = degraded
        """Run a Vosk model that lacks words of the table (every bet is then asked)."""
        self.croupier = croupier
        """An enrolled croupier whose voice model the engine uses."""
        self.engine_name = engine or default_engine(lang, model, croupier)
        """The recogniser (the language's default unless told)."""
        self.blocks = blocks
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        """True while the listening thread runs."""
        return self._thread is not None and self._thread.is_alive()

    def describe(self) -> str:
        """The engine and language, for the console."""
        whose = f", {self.croupier}" if self.croupier else ""
        return f"{self.engine_name}, {self.lang}{whose}"

    def start(self, report: Callable[[Heard], None]) -> None:
        """Start listening; each utterance (or a failure) is passed to ``report``."""
        self._stop.clear()
        self._thread = threading.Thread(target=self._listen, args=(report,), daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop listening (after the block being read)."""
        self._stop.set()

    def join(self, timeout: float | None = None) -> None:
        """Wait for the listening thread to end."""
        if self._thread is not None:
            self._thread.join(timeout)

    def _until_stopped(self, blocks: Iterator[bytes]) -> Iterator[bytes]:
        for block in blocks:
            if self._stop.is_set():
                return
            yield block

    def _listen(self, report: Callable[[Heard], None]) -> None:
        try:
            engine = make_engine(
                self.engine_name, self.lang, self.model, self.degraded, self.croupier
            )
            dictation = Dictation(engine, self.house)
            source = self.blocks() if self.blocks else open_microphone().blocks()
            report(Heard("listening", ""))  # the engine made, the device opened
            for block in self._until_stopped(source):
                for event in dictation.feed(block):
                    if isinstance(event, Partial):
                        report(Heard("partial", event.text))
                    else:
                        report(replace(self.hear(event.hearing), continues=event.continues))
            for event in dictation.flush():
                if not isinstance(event, Partial):
                    report(replace(self.hear(event.hearing), continues=event.continues))
        except (CallbetsError, OSError, ImportError) as err:
            report(Heard("error", "", message_in(err, self.lang)))

    def hear(self, hearing: object) -> Heard:
        """What a recogniser's result means at the table."""
        assert isinstance(hearing, Hearing)
        said = hearing.best.text if hearing.best else ""
        answer = confirmation(said, self.lang)
        if answer:
            return Heard(answer, said, message("heard_dialogue"))
        if table_talk(said, self.lang) is not None:  # never acted on unasked
            return Heard("ask", said, message("heard_table_talk"))
        if reading_choice(said, self.lang, 9) is not None and not said.strip().isdigit():
            return Heard("ask", said, message("heard_pick"))
        decision = decide(hearing, self.lang, self.house)
        choices = tuple(c.notation() for c in decision.choices)
        texts = tuple(
            next(r.candidate.text for r in decision.readings if r.announcement == choice)
            for choice in decision.choices
        )
        words = said
        if decision.kind == "ask" and decision.chosen is not None:
            words = texts[decision.choices.index(decision.chosen)]
        return Heard(decision.kind, words, decision.reason, choices, texts)
