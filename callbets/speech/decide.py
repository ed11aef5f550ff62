"""From what was heard to a bet: accept, ask or refuse (language- and engine-neutral).

* **refuse**: no candidate parses to a legal announcement, or the recogniser's first
  choice says only what the parser skips (:func:`places_nothing`: "s'il vous plaît" said
  after a pause; a later candidate's "un" is the search's, not the croupier's);
* **ask**: the recogniser's first choice is not legal but a later one is, the parser
  itself finds the text ambiguous, or the reading is not sure enough by the engine's
  :class:`Policy`: a word that carries the bet (articles and politeness aside) below the
  confidence threshold (the weakest word counts, not the average: voice.md, lesson on
  Vosk's confidences), too few such words (a lone "three" is what noise is most often
  heard as), speech too close to the room's noise, and, for engines whose n-best list
  is informative, two legal candidates that put different chips down or an
  alternative that extends the chosen text (the end of the utterance may be lost);
  also a reading whose stake was not said (:func:`~.stake.stake_said`: one piece, or a
  stake still to come after a pause), a stake with a number said almost the same, a word
  shorter or longer (:func:`close_number`: "venti" and "ventitré", "vingt" and "vingt
  trois", "seventy" and "seventeen"), and an utterance marked a fragment (said right
  after another announcement: see :mod:`.dictation`);
* **accept**: one clear legal reading that passes the policy.

The policies are calibrated on the dev split, noisy sets included (bench/voice_bench.py),
so that no wrong bet is accepted unasked there.

Even an accepted announcement is only read back: nothing is placed until the croupier
confirms (:func:`callbets.language.dialogue.confirmation`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import AmbiguousError, AnnouncementError
from ..language.grammar import language
from ..language.normalize import words
from ..language.parse import parse
from ..messages import message_in, said
from ..roulette.announcement import Announcement
from ..roulette.house import House, find_house
from .engines import Candidate, Hearing
from .stake import stake_said

THRESHOLD = 0.85
"""Least confidence of the weakest word for an announcement to be accepted unasked."""
STAKE_THRESHOLD = 0.95
"""Least confidence of every stake word for PocketSphinx in English (hidden speech: "first
four by ten" heard as "by two" at 0.89 and accepted)."""


@dataclass(frozen=True)
class Policy:
    """When a legal reading may be accepted unasked."""

    min_confidence: float = THRESHOLD
    """Least confidence of the weakest word that carries the bet."""
    min_words: int = 1
    """Least number of words that carry the bet."""
    min_snr_db: float | None = None
    """Least margin of the speech over the room's noise (when the audio was segmented
    live and the engine's confidences are known to fail in noise)."""
    min_stake_confidence: float = 0.0
    """Least confidence of every word of a stake (the numbers after "by", "for", "à",
    "da" … or before "each"): the recogniser's most frequent confusions are between
    numbers (ten/two, fifteen/fifty, forty/fourteen), and a wrong stake looks right."""
    n_best_must_agree: bool = True
    """Whether every legal alternative must put the same chips down, and no alternative
    may extend the chosen text."""


POLICIES = {
    # Calibrated on the dev split (57 texts × 13 conditions, bench/voice_bench.py): the
    # lattice posteriors of bet words separate right from wrong; the n-best list, whose
    # alternatives differ mostly in filler words, does not, and asking on it only cost
    # right readings.  A single bet word ("three") is what noise and babble are most
    # often heard as, and below 10 dB the posteriors stop being trustworthy.
    "pocketsphinx": Policy(
        min_confidence=0.85,
        min_words=2,
        min_snr_db=10.0,
        n_best_must_agree=False,
        min_stake_confidence=STAKE_THRESHOLD,
    ),
    # French and Italian through the English model adapted to them (bench/adapt_base.py):
    # right readings have weak words (median weakest 0.38 in French) and wrong ones up to
    # 0.97, and other voices' bets in babble were accepted at 10 dB: accept only the
    # surest, in a quiet room; the rest is asked.
    "pocketsphinx:fr": Policy(min_confidence=0.99, min_words=3, min_snr_db=20.0),
    "pocketsphinx:it": Policy(min_confidence=0.99, min_words=3, min_snr_db=20.0),
    # Whisper with PocketSphinx (engines/whisper.py): two recognisers, one trained on real
    # speech and one adapted to the language, that learnt different things.  When their
    # first texts differ the second look asks; when they agree nothing on the dev splits
    # was wrong (101 of 312 files agreed), so the words need less on their own.
    "whisper": Policy(
        min_confidence=0.3,
        min_words=2,
        min_snr_db=10.0,
        n_best_must_agree=False,
        min_stake_confidence=0.3,
    ),
    # Vosk's word confidences are weak in grammar mode (voice.md): keep every check.
    "vosk": Policy(),
}
"""Each engine's policy (``engine:lang`` first, then ``engine``); an engine not listed
gets the strictest default."""


def policy_for(engine: str, lang: str) -> Policy:
    """The policy of an engine at a table of a language (see :data:`POLICIES`)."""
    return POLICIES.get(f"{engine}:{lang}") or POLICIES.get(engine) or Policy()


@dataclass(frozen=True)
class Reading:
    """One candidate and what the parser made of it."""

    candidate: Candidate
    announcement: Announcement | None = None
    error: AnnouncementError | None = None


@dataclass(frozen=True)
class Decision:
    """What to do with an utterance."""

    kind: str
    """``accept``, ``ask`` or ``refuse``."""
    reason: str
    """Why, in plain words."""
    chosen: Announcement | None = None
    """The announcement to read back (accept), or the most likely one (ask)."""
    choices: tuple[Announcement, ...] = ()
    """The legal readings to offer (ask)."""
    readings: tuple[Reading, ...] = field(default=())
    """Every candidate considered."""

    def to_json(self, lang: str | None = None) -> dict[str, Any]:
        """The decision part of ``callbets transcribe``'s JSON (the reason in ``lang``)."""
        return {
            "kind": self.kind,
            "reason": message_in(self.reason, lang) if lang else self.reason,
            "choices": [c.notation() for c in self.choices],
        }


def _read(candidate: Candidate, lang: str, house: House) -> Reading:
    try:
        return Reading(candidate, parse(candidate.text, lang, house))
    except AnnouncementError as err:
        return Reading(candidate, error=err)


def places_nothing(text: str, lang: str) -> bool:
    """Whether words of the language say nothing but what the parser skips (politeness,
    chatter, articles: "s'il vous plaît", "per favore"), phrases read whole."""
    try:
        return bool(text.strip()) and not any(language(lang).lexicon.lex(words(text), text))
    except AnnouncementError:  # a word that is not in the language
        return False


def bet_words(candidate: Candidate, lang: str) -> tuple[tuple[str, float], ...]:
    """The words of a candidate that carry the bet, with their confidences: articles,
    politeness and "both" are left out (misheard, they change nothing)."""
    lexicon = language(lang).lexicon
    return tuple((w, c) for w, c in candidate.words if lexicon.carries_bet(w))


def decide(
    hearing: Hearing, lang: str, house: House | None = None, policy: Policy | None = None
) -> Decision:
    """Decide what an utterance means (see the module docstring)."""
    house = house or find_house()
    policy = policy or policy_for(hearing.engine, lang)
    readings = tuple(_read(c, lang, house) for c in hearing.candidates)
    legal = [r for r in readings if r.announcement is not None]
    if not legal:
        ambiguous = [r for r in readings if isinstance(r.error, AmbiguousError)]
        if ambiguous:
            unclear = ambiguous[0]
            assert unclear.error is not None
            text, reason = unclear.candidate.text, unclear.error.message
            why = said("heard_ambiguous", text=text, reason=reason)
            return Decision("ask", why, readings=readings)
        heard = readings[0].candidate.text if readings else ""
        why = said("heard_nothing_legal", text=heard) if heard else said("heard_nothing")
        return Decision("refuse", why, readings=readings)
    best = legal[0]
    assert best.announcement is not None
    distinct: dict[Chips, Announcement] = {}
    for r in legal:  # one choice per set of chips ("neighbours 17 n2" is "neighbours 17")
        assert r.announcement is not None
        distinct.setdefault(_chips(r.announcement), r.announcement)
    choices = tuple(distinct.values())
    if best is not readings[0]:
        first = readings[0].candidate
        if places_nothing(first.text, lang):  # "svp" after a pause: the legal
            # alternatives ("svp un") are what the search adds to it, not what was said
            return Decision("refuse", said("heard_no_bet_word", text=first.text), readings=readings)
        why = said("heard_first_not_bet", text=first.text)
        return Decision("ask", why, best.announcement, choices, readings)
    if policy.n_best_must_agree:
        doubt = _n_best_doubt(best, readings, choices)
        if doubt:
            return Decision("ask", doubt, best.announcement, choices, readings)
    if hearing.degraded:
        why = said("heard_degraded_model")
        return Decision("ask", why, best.announcement, choices, readings)
    if hearing.fragment:
        why = said("heard_fragment", text=best.candidate.text)
        return Decision("ask", why, best.announcement, choices, readings)
    if hearing.second_look is not None and hearing.second_look != best.candidate.text:
        why = said("heard_second_look", text=hearing.second_look)
        again = _read(Candidate(hearing.second_look, best.candidate.score), lang, house)
        if again.announcement is not None:
            distinct.setdefault(_chips(again.announcement), again.announcement)
        return Decision("ask", why, best.announcement, tuple(distinct.values()), readings)
    unsure = _unsure(best.candidate, lang, policy, hearing.snr_db)
    if unsure:
        return Decision("ask", unsure, best.announcement, choices, readings)
    if not stake_said(best.candidate.text, lang, house):  # one piece, or the stake to come?
        why = said("heard_no_stake", text=best.candidate.text)
        return Decision("ask", why, best.announcement, choices, readings)
    return Decision("accept", said("heard_clear"), best.announcement, choices, readings)


Chips = tuple[tuple[tuple[int, ...], int], ...]


def _chips(announcement: Announcement) -> Chips:
    """What an announcement puts down, comparable between readings."""
    return tuple(sorted(announcement.merged().items()))


def _n_best_doubt(best: Reading, readings: tuple[Reading, ...], choices: tuple[Any, ...]) -> str:
    if len(choices) > 1:
        return said("heard_several_bets")
    longer = [
        r.candidate.text for r in readings if r.candidate.text.startswith(best.candidate.text + " ")
    ]
    if longer:
        return said("heard_maybe_cut", text=longer[0])
    return ""


def stake_runs(candidate: Candidate, lang: str) -> list[list[tuple[str, float]]]:
    """Each stake of a candidate as its number words, in the order said: the run after a
    stake's prefix ("by", "for", "à", "da": a ``*_PREFIX`` terminal of the grammar) or
    before "each"."""
    lexicon = language(lang).lexicon
    said = list(candidate.words)
    kinds = [lexicon.phrases.get((w,)) or "" for w, _ in said]
    numbers = [w in lexicon.number_values or bool(lexicon.glued_numbers(w)) for w, _ in said]
    out: list[list[tuple[str, float]]] = []
    for i, kind in enumerate(kinds):
        if kind.endswith("_PREFIX"):
            j = i + 1
            while j < len(said) and numbers[j]:
                j += 1
            out.append(said[i + 1 : j])
        if kind == "EACH":
            j = i
            while j > 0 and numbers[j - 1]:
                j -= 1
            out.append(said[j:i])
    return [run for run in out if run]


def stake_words(candidate: Candidate, lang: str) -> list[tuple[str, float]]:
    """The number words of a candidate that say a stake (every :func:`stake_runs`)."""
    return [word for run in stake_runs(candidate, lang) for word in run]


CLOSE_ENDING = 3
"""Letters two number words may differ by at their ends and still sound alike when they
share the rest ("seventy", "seventeen"; "cinque", "cinquanta")."""


def close_number(run: list[str], lang: str) -> str:
    """A number said almost as the number words ``run``, a word longer or shorter (""
    when there is none): the recogniser's confusion that a confidence does not show
    (hidden speech: "da venti" heard "da ventitré" at 0.99 and accepted).

    * more than one number word: the same words without the last ("vingt trois");
    * a word glued from several ("ventitré"): its first parts ("venti");
    * a number that another word may follow to make a longer one, as
      :mod:`callbets.language.numbers` composes them ("vingt", "dix" and "cent" in
      French, "twenty" but not "ten" in English): that word may have been lost;
    * a number word that another starts with, or that shares all but its last
      :data:`CLOSE_ENDING` letters with another ("cinq" / "cinquante", "seventy" /
      "seventeen").
    """
    lexicon = language(lang).lexicon
    if not run:
        return ""
    if len(run) > 1:
        return " ".join(run[:-1])
    word = run[0]
    parts = lexicon.glued_numbers(word) or [word]
    if len(parts) > 1:
        return "".join(parts[:-1])
    value = lexicon.number_values.get(word)
    if value is not None and _may_go_on(value, frozenset(lexicon.number_values.values())):
        return word + " …"
    close = []
    for other in lexicon.number_values:
        shorter, longer = sorted((word, other.replace(" ", "")), key=len)
        common = len(_common_start(shorter, longer))
        if (
            other != word
            and len(shorter) >= 3
            and (common == len(shorter) or common >= max(4, len(shorter) - CLOSE_ENDING))
        ):
            close.append((common, len(other), other))
    return max(close)[2] if close else ""


def _may_go_on(value: int, with_a_word: frozenset[int]) -> bool:
    """Whether a number word may be followed by another to say a longer number: a ten
    before a unit the language has no word of its own for, a hundred, a thousand."""
    if value in (100, 1000):
        return True
    ten = value % 10 == 0 and 10 <= value <= 90
    return ten and any(value + unit not in with_a_word for unit in range(1, 10))


def _common_start(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


def _ignored_inside(candidate: Candidate, lang: str) -> str:
    """A word the parser skips (politeness, chatter) heard between two words of the bet:
    a croupier does not say "cheers" inside a bet, a recogniser hears it for "and tiers"."""
    lexicon = language(lang).lexicon
    said = [w for w, _ in candidate.words]
    carries = [lexicon.carries_bet(w) for w in said]
    for i, w in enumerate(said):
        skipped = lexicon.phrases.get((w,)) in lexicon.ignored
        if skipped and any(carries[:i]) and any(carries[i + 1 :]):
            return w
    return ""


def _politeness(candidate: Candidate, lang: str) -> tuple[tuple[str, float], ...]:
    """The words the parser skips (politeness, chatter), with their confidences: a weak
    one may be a bet word misheard ("eight" heard as "mate" before "orphelins"), so it
    counts like a bet word; articles and "both" do not (misheard, they change nothing)."""
    lexicon = language(lang).lexicon
    return tuple((w, c) for w, c in candidate.words if lexicon.phrases.get((w,)) in lexicon.ignored)


def _unsure(candidate: Candidate, lang: str, policy: Policy, snr_db: float | None) -> str:
    """Why a legal reading is not sure enough to accept unasked ("" when it is)."""
    if policy.min_snr_db is not None and snr_db is not None and snr_db < policy.min_snr_db:
        return said("heard_noise", db=f"{snr_db:.0f}")
    if not candidate.words:
        return ""
    words = bet_words(candidate, lang)
    if len(words) < policy.min_words:
        return said("heard_too_short")
    lexicon = language(lang).lexicon
    if all(w.isdigit() or w in lexicon.number_values for w, _ in words):
        return said("heard_only_numbers")
    inside = _ignored_inside(candidate, lang)
    if inside:
        return said("heard_inside", word=inside)
    lexicon_words = words + _politeness(candidate, lang)
    stake = stake_words(candidate, lang)
    if stake:
        number, surest = min(stake, key=lambda wc: wc[1])
        if surest < policy.min_stake_confidence:
            return said("heard_unsure_word", word=number, confidence=f"{surest:.2f}")
    for run in stake_runs(candidate, lang):
        stake_said_as = [w for w, _ in run]
        other = close_number(stake_said_as, lang)
        if other:
            return said("heard_close_number", word=" ".join(stake_said_as), other=other)
    word, weakest = min(lexicon_words, key=lambda wc: wc[1])
    if weakest < policy.min_confidence:
        return said("heard_unsure_word", word=word, confidence=f"{weakest:.2f}")
    return ""
