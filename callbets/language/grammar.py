"""Load the grammar of a language: Lark parser, word lexicon and number composer.

``grammar/shared.lark`` (the shape of an announcement) and ``grammar/<lang>.lark`` (the
words) are read once per language and compiled for Lark's LALR parser, which is fed the
tokens made by :mod:`callbets.language.lexicon` and :mod:`callbets.language.numbers`
rather than raw text.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from lark import Lark, Token
from lark.common import LexerConf
from lark.lexer import Lexer
from lark.parsers.lalr_analysis import Shift
from lark.parsers.lalr_parser_state import ParseConf, ParserState

from .._resources import grammar_dir
from .lexicon import Lexicon, Tok
from .numbers import Composer
from .transform import ElementBuilder
from .unit import check_language, languages_on_disk

LANGUAGES: tuple[str, ...] = languages_on_disk()
"""The languages callbets speaks: one per ``grammar/<code>.lark`` (each checked whole when
first loaded: :mod:`callbets.language.unit`)."""


class _TokenFeed(Lexer):
    """A Lark "lexer" that hands over tokens lexed beforehand."""

    def __init__(self, conf: LexerConf) -> None:
        self.conf = conf

    def lex(self, data: Any) -> Iterator[Token]:  # type: ignore[override]
        yield from data


def _strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@cache
def written_forms(lang: str) -> dict[str, tuple[str, ...]]:
    """Accent-free word → the spellings the grammar files write it with, the plain one
    first when it is written too (French "a" → "à"; "zero" → "zero", "zéro"): a
    recogniser whose lexicon spells words with accents (Vosk's French and Italian
    models) must be given a spelling it knows."""
    code = re.sub(r"//[^\n]*", "", grammar_text_raw(lang))  # comments quote other words
    written = {
        word
        for string in re.findall(r'"((?:[^"\\]|\\.)*)"', code)
        for word in re.split(r"[\s\-/']+", string.lower())
        if word.isalpha()
    }
    out: dict[str, tuple[str, ...]] = {}
    for word in sorted(written):
        plain = _strip_accents(word)
        if plain != word:
            first = (plain,) if plain in written else ()
            out[plain] = (*out.get(plain, first), word)
    return out


def grammar_text_raw(lang: str) -> str:
    """The grammar files of a language as written (accents kept)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language '{lang}' (known: {', '.join(LANGUAGES)})")
    folder = grammar_dir()
    shared = (folder / "shared.lark").read_text(encoding="utf-8")
    return shared + "\n" + (folder / f"{lang}.lark").read_text(encoding="utf-8")


def grammar_text(lang: str) -> str:
    """The grammar of a language as Lark reads it (shared shape + the language's words).

    :raises ValueError: an unknown language.
    """
    return _strip_accents(grammar_text_raw(lang))


@dataclass(frozen=True)
class Language:
    """Everything needed to read announcements in one language."""

    code: str
    """``fr``, ``it`` or ``en``."""
    parser: Lark
    """The LALR parser over pre-lexed tokens."""
    lexicon: Lexicon
    """Word phrases → terminals."""
    composer: Composer
    """How number words combine."""

    def to_lark(self, toks: tuple[Tok, ...]) -> list[Token]:
        """Lark tokens for a lexed, grouped token list (the value is the text or number)."""
        out = []
        for t in toks:
            if t.type == "RANGE" and t.value is not None:
                value = f"{t.value // 100}-{t.value % 100}"
            elif t.type in VALUED:
                value = str(t.value)
            else:
                value = t.text
            out.append(Token(t.type, value, start_pos=t.start, end_pos=t.end))
        return out

    def read(self, toks: tuple[Tok, ...]) -> Any:
        """Parse lexed tokens with the ``start`` rule: Lark's LALR parser driven straight
        from its parse table, since the text was lexed already (Lark's front end would only
        wrap the tokens again).  Returns what the grammar's transformer builds.

        :raises lark.exceptions.UnexpectedToken: the tokens do not form an announcement.
        """
        tokens = self.to_lark(toks)
        types = tuple(t.type for t in toks)
        moves = self._moves.get(types, ())
        if moves == ():  # a shape not seen yet (the console's voice thread parses too)
            moves = lalr_moves(self._start, types)
            if len(self._moves) >= MAX_SHAPES:
                self._moves.clear()
            self._moves[types] = moves
        if moves is not None:
            return replay(moves, tokens)
        state = ParserState(self._start, None)  # type: ignore[arg-type]  # fed below, no lexer
        for token in tokens:
            state.feed_token(token)  # raises where the tokens stop fitting
        end = Token.new_borrow_pos("$END", "", tokens[-1]) if tokens else Token("$END", "")
        return state.feed_token(end, True)

    @cached_property
    def _moves(self) -> dict[tuple[str, ...], Moves | None]:
        return {}

    @cached_property
    def _start(self) -> ParseConf[Any]:
        return lalr_start(self.parser)

    @cached_property
    def introduced(self) -> frozenset[str]:
        """Terminals an article may stand before: the bet words and ``NEIGHBOURS``."""
        return _word_terminals(self.parser) | {"NEIGHBOURS"}


def lalr_start(parser: Lark) -> ParseConf[Any]:
    """The parse table and callbacks of a Lark LALR parser, from the ``start`` rule.

    The one place that reaches inside Lark: ``Lark.parser`` (a ``ParsingFrontend``) holds
    an ``LALR_Parser`` whose ``parser`` is the ``_Parser`` with the table and callbacks.
    That is Lark 1.2 and 1.3 (the ``lark`` pin in pyproject.toml); ``tests/test_parse.py``
    checks that the table read here parses as Lark's own front end does.
    """
    frontend = parser.parser
    lalr = frontend.parser.parser  # LALR_Parser, then its _Parser
    return ParseConf(lalr.parse_table, lalr.callbacks, "start")


MAX_SHAPES = 4096
"""Sequences of token types whose parser moves are kept (a table hears a few hundred)."""

Moves = tuple[tuple[int, Callable[[list[Any]], Any]] | None, ...]
"""The LALR parser's moves over one sequence of token types: ``None`` shifts the next
token, ``(size, callback)`` reduces the last ``size`` values with the rule's callback."""


def lalr_moves(conf: ParseConf[Any], types: tuple[str, ...]) -> Moves | None:
    """The moves Lark's LALR parse table makes over ``types`` then the end, or None when
    they do not form an announcement.  The moves depend on the token types only, so an
    announcement of a shape already heard is parsed by replaying them
    (:func:`replay`), without walking the table again."""
    states, stack = conf.states, [conf.start_state]
    moves: list[tuple[int, Callable[[list[Any]], Any]] | None] = []
    for kind in (*types, "$END"):
        while True:
            action = states[stack[-1]].get(kind)
            if action is None:
                return None
            step, arg = action
            if step is Shift:
                stack.append(arg)
                moves.append(None)
                break
            size = len(arg.expansion)
            if size:
                del stack[-size:]
            moves.append((size, conf.callbacks[arg]))
            stack.append(states[stack[-1]][arg.origin.name][1])
            if kind == "$END" and stack[-1] == conf.end_state:
                return tuple(moves)
    return None  # never reached: the end is not shifted


def replay(moves: Moves, tokens: list[Token]) -> Any:
    """What the parser builds from ``tokens`` by the moves :func:`lalr_moves` found."""
    values: list[Any] = []
    feed = iter(tokens)
    for move in moves:
        if move is None:
            values.append(next(feed))
            continue
        size, callback = move
        args = values[-size:] if size else []
        if size:
            del values[-size:]
        values.append(callback(args))
    return values[-1]


VALUED = frozenset({"NUMBER", "AMOUNT", "COUNT", "MONEY", "PIECE_COUNT", "REPEAT"})
"""Tokens that Lark receives as their number rather than their words."""


@cache
def _word_terminals(parser: Lark) -> frozenset[str]:
    """The terminals of the grammar's ``word`` rule."""
    return frozenset(
        sym.name for rule in parser.rules if rule.origin.name == "word" for sym in rule.expansion
    )


_BUILDING = threading.Lock()


def language(lang: str) -> Language:
    """The compiled grammar of a language (cached; built once, even when several threads
    ask for it at once, as the web floor's do).

    :raises ValueError: an unknown language.
    :raises callbets.language.unit.IncompleteLanguage: a language whose grammar or word
        tables are not all there (every missing key named).
    """
    with _BUILDING:
        return _language(lang)


@cache
def _language(lang: str) -> Language:
    if lang in LANGUAGES:
        check_language(lang)
    parser = Lark(
        grammar_text(lang),
        parser="lalr",
        lexer=_TokenFeed,
        start=["start", "lexicon"],
        maybe_placeholders=False,
        transformer=ElementBuilder(),
        cache=True,
    )
    lexicon = Lexicon.from_parser(parser)
    return Language(lang, parser, lexicon, Composer.from_lexicon(lexicon))
