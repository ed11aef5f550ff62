"""Parse an announcement: text in, calls and chips out.  Pure: no I/O beyond loading the
grammar once per language.

Acceptance policy (what :func:`parse` accepts, refuses and asks about):

* Case, accents, extra spaces, punctuation, articles and politeness do not matter.
* Numbers may be digits or words.  Number words combine into the longest numbers they
  form ("trente trois" is 33).  If that reading is not a legal bet, the other groupings
  are tried: when exactly one is legal it is taken ("cheval dix sept" is the split 7/10);
  when several are, the parser refuses with :class:`AmbiguousError` listing them.
* A bet named with numbers that contradict the name ("cheval 17/21") is illegal, never
  silently turned into another bet.
* A bare number after a call ("voisins 45") is ambiguous unless the house says otherwise.
* Chatter ("rien ne va plus") and anything else that is not a bet is unrecognised.
"""

from __future__ import annotations

from typing import Any

from lark.exceptions import LarkError, UnexpectedInput, UnexpectedToken

from .announcement import Announcement
from .assemble import assemble
from .errors import AmbiguousError, AnnouncementError, StakeError, UnrecognizedError
from .grammar import Language, language
from .house import House, find_house
from .lexicon import Tok
from .normalize import words
from .numbers import Reading, readings
from .transform import Element

_AMOUNT_TOKENS = frozenset({"NUMBER", "AMOUNT"})


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
    grammar = language(lang)
    house = house or find_house()
    try:
        return _parse(grammar, text, house)
    except AnnouncementError as err:
        raise err.with_text(text) from None


def _parse(grammar: Language, text: str, house: House) -> Announcement:
    toks = list(grammar.lexicon.lex(words(text), text))
    if not toks:
        raise UnrecognizedError("no bet in this announcement", column=0)
    legal: list[tuple[Reading, Announcement | AmbiguousError]] = []
    first_error: AnnouncementError | None = None
    for reading in readings(grammar.composer, toks):
        try:
            result: Announcement | AmbiguousError = _read(grammar, reading, house, text)
        except AmbiguousError as err:
            result = err
        except AnnouncementError as err:
            first_error = first_error or err
            continue
        if not any(reading.rank):
            return _settled(result)
        legal.append((reading, result))
    best = [(r, a) for r, a in legal if not any(o.dominates(r) for o, _ in legal)]
    if len(best) == 1:
        return _settled(best[0][1])
    if best:
        raise AmbiguousError(
            "the numbers can be heard more than one way",
            [a.notation() if isinstance(a, Announcement) else str(a) for _, a in best],
            column=0,
        )
    assert first_error is not None
    raise first_error


def _settled(result: Announcement | AmbiguousError) -> Announcement:
    if isinstance(result, AmbiguousError):
        raise result
    return result


def _read(grammar: Language, reading: Reading, house: House, text: str) -> Announcement:
    try:
        tree: Any = grammar.parser.parse(grammar.to_lark(reading.tokens), start="start")
        elements: list[Element] = tree  # the inline ElementBuilder returns a list
    except UnexpectedInput as err:
        raise _explain(err, reading.tokens, text) from None
    except LarkError as err:  # pragma: no cover - a grammar bug, never the user's fault
        raise UnrecognizedError(f"cannot read this announcement ({err})", column=0) from None
    return assemble(elements, house, text)


def _explain(err: UnexpectedInput, toks: tuple[Tok, ...], text: str) -> AnnouncementError:
    """A croupier's words for a Lark syntax error."""
    token = err.token if isinstance(err, UnexpectedToken) else None
    at_end = token is None or token.type == "$END"
    column = len(text) if at_end else token.start_pos  # type: ignore[union-attr]
    expected = set(getattr(err, "expected", ()) or ())
    if expected and expected <= _AMOUNT_TOKENS:
        before = _word_before(toks, column)
        return StakeError(f"'{before}' needs an amount", column=column)
    if at_end:
        return UnrecognizedError("the announcement stops halfway", column=column)
    said = text[token.start_pos : token.end_pos]  # type: ignore[union-attr]
    return UnrecognizedError(f"'{said}' does not fit here", column=column)


def _word_before(toks: tuple[Tok, ...], column: int) -> str:
    before = [t for t in toks if t.start < column]
    return before[-1].text if before else ""
