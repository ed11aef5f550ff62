"""A back-off n-gram language model in ARPA format, counted from sentences.

Recognisers that take a language model (PocketSphinx reads ARPA files) are given one
counted from the grammar's own generated announcements (:mod:`.sentences`): the model
says which words follow which, the parser still decides what is legal.  The estimate is
interpolated absolute discounting, written the way ARPA files store interpolated
models: a seen n-gram's probability already includes its share of the lower order, and
the back-off weight of a history is the mass its discount set aside, so every
distribution sums to one.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable

BOS, EOS = "<s>", "</s>"
DISCOUNT = 0.7
"""Absolute discount taken from each seen n-gram."""
FLOOR = 1e-7
"""Unigram mass given to a vocabulary word never seen in the sentences."""


def _log10(p: float) -> float:
    return math.log10(max(p, 1e-99))


class NGramModel:
    """Counts of 1- to ``order``-grams, and their probabilities."""

    def __init__(self, sentences: Iterable[str], order: int = 3, vocabulary: Iterable[str] = ()):
        self.order = order
        self.counts: list[Counter[tuple[str, ...]]] = [Counter() for _ in range(order + 1)]
        for sentence in sentences:
            words = (BOS, *sentence.split(), EOS)
            for n in range(1, order + 1):
                for i in range(len(words) - n + 1):
                    gram = words[i : i + n]
                    if gram != (BOS,):
                        self.counts[n][gram] += 1
        self.vocabulary = sorted({w for (w,) in self.counts[1]} | set(vocabulary) - {BOS})
        self._prob: dict[tuple[str, ...], float] = {}
        self._bow: dict[tuple[str, ...], float] = {}
        self._estimate()

    def _estimate(self) -> None:
        total = sum(self.counts[1].values())
        unseen = [w for w in self.vocabulary if (w,) not in self.counts[1]]
        scale = 1.0 - FLOOR * len(unseen)
        for w in self.vocabulary:
            c = self.counts[1].get((w,), 0)
            self._prob[(w,)] = scale * c / total if c else FLOOR
        for n in range(2, self.order + 1):
            history_total: Counter[tuple[str, ...]] = Counter()
            followers: defaultdict[tuple[str, ...], int] = defaultdict(int)
            for gram, c in self.counts[n].items():
                history_total[gram[:-1]] += c
                followers[gram[:-1]] += 1
            gamma = {h: DISCOUNT * followers[h] / t for h, t in history_total.items()}
            for gram, c in self.counts[n].items():
                h = gram[:-1]
                lower = self.probability(gram[1:])
                self._prob[gram] = (c - DISCOUNT) / history_total[h] + gamma[h] * lower
            self._bow.update(gamma)

    def probability(self, gram: tuple[str, ...]) -> float:
        """P(last word | the words before it), backing off as an ARPA reader would."""
        if gram in self._prob:
            return self._prob[gram]
        if len(gram) == 1:
            return FLOOR
        return self._bow.get(gram[:-1], 1.0) * self.probability(gram[1:])

    def arpa(self) -> str:
        """The model as ARPA text."""
        unigrams: list[tuple[str, ...]] = [(BOS,), *((w,) for w in self.vocabulary)]
        grams = [unigrams]
        grams += [sorted(self.counts[n]) for n in range(2, self.order + 1)]
        lines = ["", "\\data\\"]
        lines += [f"ngram {n + 1}={len(g)}" for n, g in enumerate(grams)]
        for n, block in enumerate(grams, start=1):
            lines += ["", f"\\{n}-grams:"]
            for gram in block:
                p = -99.0 if gram == (BOS,) else _log10(self._prob[gram])
                line = f"{p:.5f}\t{' '.join(gram)}"
                if n < self.order and gram != (EOS,):
                    line += f"\t{_log10(self._bow.get(gram, 1.0)):.5f}"
                lines.append(line)
        lines += ["", "\\end\\", ""]
        return "\n".join(lines)
