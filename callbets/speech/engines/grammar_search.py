"""Whisper led through the grammar's language: it can only write the table's words.

Decoded freely, Whisper base writes what it thinks was said in any words ("Le 17
éleguane en a sur" for "le dix-sept et les voisins à cinq"), numbers as digits, and in
noise it invents whole sentences (voice.md).  Here it never chooses a token freely: a
beam search over the *words* of the language model the other engines use
(:mod:`callbets.speech.lm`, counted from the grammar's own announcements) lets it write
after each word only a word that may follow it there (the model's word pairs), or the
end where an announcement may end.  Each word is offered in the spellings Whisper knows
(the grammar's accented ones, "zéro", "più"; capitalised; glued to the word before after
an apostrophe, "dell'otto", or by a hyphen between number words, "dix-sept"), and a
comma or a full stop may come between words.  What it writes is therefore always words
the parser knows, and the parser judges legality over the n-best list.

A hypothesis's score is Whisper's own log-probability of its tokens (over its whole
vocabulary: a reading Whisper would not have written scores low), plus the language
model's (:data:`LM_WEIGHT`); finished readings are ranked per token, as Whisper ranks
its own.  A word's confidence is the probability of its tokens among the tokens the
grammar allowed at each step: low where other words of the grammar were nearly as likely.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

import numpy as np

from ...language.grammar import language, written_forms
from ...language.lexicon import Tok
from .whisper_model import Array, Whisper

START, END = "<s>", "</s>"
LN10 = math.log(10.0)
LM_WEIGHT = 0.3
"""How much the grammar's language model adds to Whisper's log-probability of each word
(shallow fusion): "il diciassette con i vicini da cinque" over "dodici diciassette
cinque", which Whisper's digits ("il 17 … 5") let through word pairs alone."""
BEAM = 6
"""Hypotheses kept at each token."""
MAX_TOKENS = 48
"""The longest announcement searched, in tokens."""
TOKENS_PER_SECOND = 6
"""At most so many tokens per second of audio (and 6 more): a search that would go on
is repeating itself (Whisper's known loops)."""
PUNCTUATION = (",", ".")


@dataclass
class Node:
    """A point inside the spellings of the words that may come next."""

    children: dict[int, Node] = field(default_factory=dict)
    words: set[tuple[str, ...]] = field(default_factory=set)
    """The words whose spelling ends here (several for a number written in digits: "17"
    is "dix sept")."""

    def add(self, tokens: Iterable[int], words: tuple[str, ...]) -> None:
        """Spell ``words`` with ``tokens`` from this node."""
        node = self
        for t in tokens:
            node = node.children.setdefault(t, Node())
        node.words.add(words)


@dataclass(frozen=True)
class Bigrams:
    """An ARPA model's unigrams and bigrams, natural-log probabilities (``<s>``: before
    the first word; ``</s>``: the end)."""

    unigrams: dict[str, tuple[float, float]]
    """word → (log-probability, back-off weight)."""
    bigrams: dict[str, dict[str, float]]
    """word → the words seen after it → log-probability."""

    def logp(self, prev: str, word: str) -> float:
        """log P(word | prev), backing off to the unigram."""
        seen = self.bigrams.get(prev, {}).get(word)
        if seen is not None:
            return seen
        return self.unigrams.get(prev, (0.0, 0.0))[1] + self.unigrams.get(word, (-99.0, 0.0))[0]


def read_bigrams(arpa: Path) -> Bigrams:
    """The unigrams and bigrams of an ARPA file (log10 there, natural logs here)."""
    unigrams: dict[str, tuple[float, float]] = {}
    bigrams: dict[str, dict[str, float]] = {}
    section = ""
    with arpa.open(encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line.startswith("\\"):
                section = line
                if section == "\\3-grams:":
                    break
                continue
            parts = line.split()
            if section == "\\1-grams:" and len(parts) >= 2:
                back = float(parts[2]) * LN10 if len(parts) > 2 else 0.0
                unigrams[parts[1]] = (float(parts[0]) * LN10, back)
            elif section == "\\2-grams:" and len(parts) >= 3:
                bigrams.setdefault(parts[1], {})[parts[2]] = float(parts[0]) * LN10
    return Bigrams(unigrams, bigrams)


@dataclass(frozen=True)
class Hypothesis:
    """A partial announcement: its tokens (the cache row of the last), words, score."""

    row: int
    words: tuple[str, ...]
    word_scores: tuple[float, ...]
    score: float
    node: Node | None
    """Inside a word's spelling (None: between words)."""
    current: float = 0.0
    """The log-probability of the tokens of the word being spelled."""
    after_punctuation: bool = False
    last_token: int = -1


@dataclass(frozen=True)
class Found:
    """One announcement the search finished, with each word's confidence."""

    words: tuple[str, ...]
    confidences: tuple[float, ...]
    score: float
    """The log-probability per token (Whisper's own ranking of finished hypotheses)."""


class GrammarSearch:
    """The beam search of one language (built once per engine)."""

    def __init__(self, model: Whisper, lang: str, arpa: Path) -> None:
        self.model, self.lang = model, lang
        self.lm = read_bigrams(arpa)
        self.follow = {w: frozenset(nxt) for w, nxt in self.lm.bigrams.items()}
        self.spellings = written_forms(lang)
        lexicon = language(lang).lexicon
        self.numbers = frozenset(
            w for w in self.follow if w in lexicon.number_values or lexicon.glued_numbers(w)
        )
        self.prompt = (
            model.token("<|startoftranscript|>"),
            model.token(f"<|{lang}|>"),
            model.token("<|transcribe|>"),
            model.token("<|notimestamps|>"),
        )
        self.end = model.token("<|endoftext|>")
        self.punctuation = {model.tokens(p)[0]: p for p in PUNCTUATION}
        self._after: dict[str, Node] = {}
        self._spelled: dict[str, tuple[int, ...]] = {}

    def forms(self, word: str) -> set[str]:
        """How Whisper may write a word: its grammar spellings, lowercase and capitalised."""
        written = {word, *self.spellings.get(word, ())}
        return written | {w[:1].upper() + w[1:] for w in written}

    def after(self, word: str) -> Node:
        """The spellings of every word that may follow ``word`` (built once each)."""
        node = self._after.get(word)
        if node is None:
            node = Node()
            glue = "" if word.endswith("'") else " "
            for nxt in self.follow.get(word, frozenset()) - {END}:
                for form in self.forms(nxt):
                    node.add(self._tokens(glue + form), (nxt,))
                    if word in self.numbers and nxt in self.numbers:  # "dix-sept"
                        node.add(self._tokens("-" + form), (nxt,))
            for said, value in self.numbers_said.items():
                if self._follows(word, said):
                    node.add(self._tokens(glue + str(value)), said)
            self._after[word] = node
        return node

    def _follows(self, word: str, said: tuple[str, ...]) -> bool:
        """Whether the words ``said`` may follow ``word``, pair by pair."""
        pairs = zip((word, *said[:-1]), said, strict=True)
        return all(b in self.follow.get(a, frozenset()) for a, b in pairs)

    @cached_property
    def numbers_said(self) -> dict[tuple[str, ...], int]:
        """Numbers said in one word or two of the model's words (a ten and a unit) → their
        value, to be written in digits as Whisper writes them ("17", "ventisei" → "26")."""
        grammar = language(self.lang)
        values = grammar.lexicon.number_values

        def value(words: tuple[str, ...]) -> int | None:
            parts = [p for w in words for p in (grammar.lexicon.glued_numbers(w) or [w])]
            if not parts or any(p not in values for p in parts):
                return None
            return grammar.composer.value([Tok("N", p, 0, 0, values[p]) for p in parts])

        out: dict[tuple[str, ...], int] = {}
        for word in self.vocabulary:
            one = value((word,))
            if one is not None:
                out[(word,)] = one
            for nxt in self.follow.get(word, frozenset()):
                two = value((word, nxt)) if nxt in self.numbers else None
                if two is not None:
                    out[(word, nxt)] = two
        return out

    def _lm_logp(self, before: tuple[str, ...], words: tuple[str, ...]) -> float:
        prev = before[-1] if before else START
        total = 0.0
        for word in words:
            total += self.lm.logp(prev, word)
            prev = word
        return total

    def _tokens(self, text: str) -> tuple[int, ...]:
        tokens = self._spelled.get(text)
        if tokens is None:
            tokens = self._spelled[text] = self.model.tokens(text)
        return tokens

    def may_end(self, word: str) -> bool:
        """Whether an announcement may end after ``word``."""
        return END in self.follow.get(word, frozenset())

    def search(self, encoded: Array, n_best: int = 5) -> list[Found]:
        """The best announcements the grammar's words can say of the encoded audio."""
        decoder = self.model.decoder
        audio = decoder.cross(encoded)
        hidden, cache = decoder.prompt(np.array(self.prompt), audio)
        beam = [Hypothesis(0, (), (), 0.0, None)]
        found: list[Found] = []
        seconds = encoded.shape[0] * 0.02
        longest = min(MAX_TOKENS, 6 + int(TOKENS_PER_SECOND * seconds))
        for at in range(len(self.prompt), len(self.prompt) + longest):
            options = self._extend(beam, hidden)
            live = []
            for hyp, score in options[:BEAM]:  # as Whisper's own beam search: an end
                # counts when it is among the best; the rest go on
                if hyp.last_token != self.end:
                    live.append((hyp, score))
                else:
                    confidences = tuple(math.exp(s) for s in hyp.word_scores)
                    said = at + 1 - len(self.prompt)
                    found.append(Found(hyp.words, confidences, score / said))
            live += [(h, s) for h, s in options[BEAM:] if h.last_token != self.end]
            live = live[:BEAM]
            if not live or len(found) >= BEAM:
                break
            rows = np.array([h.row for h, _ in live])
            cache = [(k[rows], v[rows]) for k, v in cache]
            tokens = np.array([h.last_token for h, _ in live])
            hidden, cache = decoder.step(tokens, at, cache, audio)
            beam = [replace(h, row=i, score=s) for i, (h, s) in enumerate(live)]
        return _distinct(found)[:n_best]

    def _extend(self, beam: list[Hypothesis], hidden: Array) -> list[tuple[Hypothesis, float]]:
        """Every allowed next token of every hypothesis, best first."""
        out: list[tuple[Hypothesis, float]] = []
        every = self.model.decoder.logits(hidden)
        top = every.max(1, keepdims=True)
        norms = (top + np.log(np.exp(every - top).sum(1, keepdims=True)))[:, 0]
        for hyp in beam:
            allowed = self._allowed(hyp)
            ids = np.array(sorted(allowed), dtype=np.int64)
            logits = every[hyp.row, ids]
            logp = logits - norms[hyp.row]
            among = logits - (logits.max() + np.log(np.exp(logits - logits.max()).sum()))
            best = np.argsort(-logp)[: 2 * BEAM]  # no more can survive the beam
            for k in best.tolist():
                token = int(ids[k])
                moves = self._moves(hyp, token, float(logp[k]), float(among[k]), allowed[token])
                out.extend(moves)
        out.sort(key=lambda hs: -hs[1])
        return out

    def _allowed(self, hyp: Hypothesis) -> dict[int, Node | None]:
        """The tokens that may come next → the spelling node they lead to (None: the end,
        or punctuation)."""
        allowed: dict[int, Node | None] = {}
        if hyp.node is not None:
            allowed.update(hyp.node.children)
            return allowed
        prev = hyp.words[-1] if hyp.words else START
        allowed.update(self.after(prev).children)
        if hyp.words and self.may_end(prev):
            allowed[self.end] = None
        if hyp.words and not hyp.after_punctuation:
            allowed.update(dict.fromkeys(self.punctuation))
        return allowed

    def _moves(
        self, hyp: Hypothesis, token: int, lp: float, among: float, node: Node | None
    ) -> list[tuple[Hypothesis, float]]:
        """Where a token takes a hypothesis: ``lp`` is its log-probability (the score),
        ``among`` its log-probability among the allowed tokens alone (the confidence)."""
        score = hyp.score + lp
        if node is None:  # the end, or a punctuation mark between words
            punct = token != self.end
            if not punct:
                score += LM_WEIGHT * self._lm_logp(hyp.words, (END,))
            return [(Hypothesis(hyp.row, hyp.words, hyp.word_scores, score, None, 0.0, punct,
                                token), score)]  # fmt: skip
        current = hyp.current + among
        moves = []
        if node.children:  # still inside a word's spelling
            moves.append((Hypothesis(hyp.row, hyp.words, hyp.word_scores, score, node, current,
                                     False, token), score))  # fmt: skip
        for words in node.words:  # a word spelled whole: between words now (a number in
            # digits is several words, each as sure as the digits)
            scores = (*hyp.word_scores, *[current] * len(words))
            fused = score + LM_WEIGHT * self._lm_logp(hyp.words, words)
            moves.append((Hypothesis(hyp.row, (*hyp.words, *words), scores, fused, None, 0.0,
                                     False, token), fused))  # fmt: skip
        return moves

    @cached_property
    def vocabulary(self) -> frozenset[str]:
        """Every word the search may write."""
        return frozenset(self.follow) - {START, END}


def _distinct(found: list[Found]) -> list[Found]:
    """The best of each word sequence (spellings and punctuation differ, words not)."""
    seen: set[tuple[str, ...]] = set()
    out = []
    for f in sorted(found, key=lambda f: -f.score):
        if f.words not in seen:
            seen.add(f.words)
            out.append(f)
    return out
