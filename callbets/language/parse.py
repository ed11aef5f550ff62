"""Parse an announcement: text in, calls and chips out.  Pure: no I/O beyond loading the
grammar once per language.

Acceptance policy (what :func:`parse` accepts, refuses and asks about):

* Case, accents, extra spaces, punctuation, articles and politeness do not matter.
* Numbers may be digits or words.  Number words combine into the longest numbers they
  form ("trente trois" is 33); a number written as one word or with hyphens
  ("trente-sept") is one number.  If the longest reading is not a legal bet, the other
  groupings are tried: when exactly one is legal and announces as many positions as the
  longest reading it is taken ("cheval dix sept" is the split 7/10); a grouping that
  changes how many positions were announced ("trente sept et les voisins": 30 and 7?)
  is only ever asked about, with :class:`AmbiguousError` listing the readings.
* Every word that means something is used: articles and politeness are the only words
  dropped (the ``ARTICLE`` and ``POLITE`` terminals), and an article or a separator that
  ends the announcement means it was cut: refused.
* A bet named with numbers that contradict the name ("cheval 17/21") is illegal, never
  silently turned into another bet.
* A bare number after a call ("voisins 45") is ambiguous unless the house says otherwise.
* Chatter ("rien ne va plus") and anything else that is not a bet is unrecognised.
* Cost is bounded: at most :data:`MAX_CHARS` characters, :data:`~callbets.language.numbers.MAX_RUN`
  number words in a row, :data:`~callbets.language.assemble.draft.MAX_CALLS` calls, amounts up to
  :data:`~callbets.language.tokens.MAX_AMOUNT`; longer or larger input is refused with the reason;
  other groupings of the number words are read again only up to :data:`READ_BUDGET` tokens,
  and when that leaves groupings unread the announcement is asked about, never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from lark.exceptions import LarkError, UnexpectedInput, UnexpectedToken

from ..errors import AmbiguousError, AnnouncementError, StakeError, UnrecognizedError
from ..messages import said as message
from ..roulette.announcement import Announcement
from ..roulette.house import House, find_house
from .assemble import Assembler, SaidAgain
from .corrections import corrected
from .grammar import Language, language
from .lexicon import Tok
from .normalize import words
from .numbers import Reading, readings
from .repeated import READ_BACK, repeated
from .tokens import drop_articles, roles
from .transform import Element

_AMOUNT_TOKENS = frozenset({"NUMBER", "AMOUNT", "MONEY"})

MAX_CHARS = 500
"""The longest announcement read: a spoken or typed announcement is short; a longer text
is refused at once (its cost is then bounded whatever it holds)."""


def parse(text: str, lang: str = "fr", house: House | None = None) -> Announcement:
    """Parse one announcement into calls and chip placements.

    :param text: the announcement, typed or as a recogniser wrote it.
    :param lang: ``fr``, ``it`` or ``en``.
    :param house: the house profile; the default house when None.
    :raises UnrecognizedError: not a bet in this language.
    :raises IllegalBetError: not a legal bet on this layout or at this house.
    :raises AmbiguousError: several legal readings (listed in ``readings``).
    :raises StakeError: a missing, zero or indivisible stake.
    :raises ValueError: an unknown language.
    """
    language(lang)  # an unknown language is refused before anything else
    house = house or find_house()
    try:
        if len(text) > MAX_CHARS:
            raise UnrecognizedError(
                message("too_long", most=MAX_CHARS, count=len(text)), column=MAX_CHARS
            )
        _HOUSES.setdefault(house.rules, house)
        return _parse_cached(text, lang, house.rules)
    except AnnouncementError as err:
        raise err.with_text(text) from None


PARSED_KEPT = 4096
"""Announcements kept parsed, by text, language and house: a table hears the same few
dozen phrasings all evening (announced, confirmed, read back on the floor), and an
announcement is immutable.  A refusal is not kept: it is read again each time."""

_HOUSES: dict[str, House] = {}


@lru_cache(maxsize=PARSED_KEPT)
def _parse_cached(text: str, lang: str, rules: str) -> Announcement:
    return _parse(language(lang), text, _HOUSES[rules])


READ_BUDGET = 256
"""Tokens read again, over every other grouping of the number words: the corpus needs at
most 16; a long run of unclear number words ("trenta sette e i vicini, " over and over)
stops here and is asked about, so no announcement costs more than a few readings."""


def number_said(text: str, lang: str) -> int | None:
    """The number a text says when it is one number and nothing else ("dix-sept",
    "trentadue", "17"), else None.

    >>> number_said("dix-sept", "fr"), number_said("trentadue", "it"), number_said("tiers", "en")
    (17, 32, None)
    """
    try:
        toks = list(language(lang).lexicon.lex(words(text), text))
    except AnnouncementError:
        return None
    if not toks or (len(toks) > 1 and any(t.type == "DIGITS" for t in toks)):
        return None
    return language(lang).composer.value(toks)


def _parse(grammar: Language, text: str, house: House) -> Announcement:
    lexed = list(grammar.lexicon.lex(words(text), text, articles=True))
    toks = drop_articles(lexed, grammar.introduced, grammar.lexicon)
    if not toks:
        raise UnrecognizedError(message("no_bet"), column=0)
    first: _Attempt | None = None
    legal: list[tuple[Reading, _Attempt]] = []
    asked: list[_Attempt] = []
    budget, cut = READ_BUDGET, False
    for reading in readings(grammar.composer, toks):
        if first is not None and budget < len(reading.tokens):
            cut = True  # other readings are left unread: no single one can be chosen
            break
        budget -= len(reading.tokens)
        attempt = _read(grammar, reading, house, text)
        if first is None:
            if attempt.result is not None or isinstance(attempt.error, AmbiguousError):
                return _settled(attempt)
            first = attempt
            continue
        if attempt.result is None and not isinstance(attempt.error, AmbiguousError):
            continue
        if first.shape is not None and attempt.shape == first.shape:
            legal.append((reading, attempt))
        else:
            asked.append(attempt)
    # A reading that cuts words making one number ("cheval dix sept": 10 and 7, where a
    # listener hears 17) is offered, never taken alone.
    best = [(r, a) for r, a in legal if not any(o.dominates(r) for o, _ in legal)]
    if len(best) == 1 and not cut and not any(best[0][0].rank):
        return _settled(best[0][1])
    if best or asked:
        options = [a for _, a in best] or asked
        raise AmbiguousError(
            message("numbers_heard_ways"),
            [r for a in options for r in a.readings()],
            column=0,
        )
    assert first is not None and first.error is not None
    if cut:
        raise AmbiguousError(message("numbers_heard_ways"), [], column=0)
    raise first.error


@dataclass(frozen=True)
class _Attempt:
    """One reading of the number words, and what came of it."""

    shape: tuple[tuple[int, ...], ...] | None
    """How many positions each call announces, when the reading got that far."""
    result: Announcement | None = None
    error: AnnouncementError | None = None

    def readings(self) -> list[str]:
        """What this reading would place, in notation (several if it is itself unclear)."""
        if self.result is not None:
            return [self.result.notation()]
        return list(getattr(self.error, "readings", []))


def _settled(attempt: _Attempt) -> Announcement:
    if attempt.result is None:
        assert attempt.error is not None
        raise attempt.error
    return attempt.result


def _read(grammar: Language, reading: Reading, house: House, text: str) -> _Attempt:
    assembler = Assembler(house, text, grammar.lexicon.roles)
    shape = None
    try:
        yes = grammar.lexicon.roles.get("YES", frozenset())
        read = repeated(roles(reading.tokens, grammar.lexicon, house.piece_value), yes)
        toks = corrected(read.tokens)
        if read.marker is not None:
            assembler.said_again = SaidAgain(read.marker.text, read.marker.start,
                                              must=read.marker.type == READ_BACK)  # fmt: skip
        try:
            tree: Any = grammar.read(toks)
        except UnexpectedInput as err:
            raise _explain(err, toks, text) from None
        except LarkError as err:  # pragma: no cover - a grammar bug, never the user's fault
            raise UnrecognizedError(message("unreadable", error=err), column=0) from None
        elements: list[Element] = tree  # the inline ElementBuilder returns a list
        assembler.feed(elements)
        shape = assembler.shape()
        return _Attempt(shape, result=assembler.announcement())
    except AnnouncementError as err:
        return _Attempt(shape, error=err)


def _explain(err: UnexpectedInput, toks: tuple[Tok, ...], text: str) -> AnnouncementError:
    """A croupier's words for a Lark syntax error."""
    token = err.token if isinstance(err, UnexpectedToken) else None
    at_end = token is None or token.type == "$END"
    column = len(text) if at_end else token.start_pos  # type: ignore[union-attr]
    expected = set(getattr(err, "expected", ()) or ())
    if expected and expected <= _AMOUNT_TOKENS:
        before = _word_before(toks, column)
        return StakeError(message("needs_amount", word=before), column=column)
    if at_end:
        return UnrecognizedError(message("stops_halfway"), column=column)
    said = text[token.start_pos : token.end_pos]  # type: ignore[union-attr]
    return UnrecognizedError(message("does_not_fit", word=said), column=column)


def _word_before(toks: tuple[Tok, ...], column: int) -> str:
    before = [t for t in toks if t.start < column]
    return before[-1].text if before else ""
