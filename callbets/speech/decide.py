"""From what was heard to a bet: accept, ask or refuse (language- and engine-neutral).

* **refuse**: no candidate parses to a legal announcement;
* **ask**: the recogniser's first choice is not legal but a later one is, two legal
  candidates put different chips down, the parser itself finds the text ambiguous, an
  alternative extends the chosen text (the end of the utterance may have been lost),
  or the weakest word of the chosen candidate is below the confidence threshold (the
  weakest word counts, not the average: voice.md, lesson on Vosk's confidences);
* **accept**: one clear legal reading, every word confident.

Even an accepted announcement is only read back: nothing is placed until the croupier
confirms (:func:`callbets.dialogue.confirmation`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..announcement import Announcement
from ..errors import AmbiguousError, AnnouncementError
from ..house import House, find_house
from ..parse import parse
from .engines import Candidate, Hearing

THRESHOLD = 0.85
"""Least confidence of the weakest word for an announcement to be accepted unasked."""


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

    def to_json(self) -> dict[str, Any]:
        """The decision part of ``callbets transcribe``'s JSON."""
        return {
            "kind": self.kind,
            "reason": self.reason,
            "choices": [c.notation() for c in self.choices],
        }


def _read(candidate: Candidate, lang: str, house: House) -> Reading:
    try:
        return Reading(candidate, parse(candidate.text, lang, house))
    except AnnouncementError as err:
        return Reading(candidate, error=err)


def decide(
    hearing: Hearing, lang: str, house: House | None = None, threshold: float = THRESHOLD
) -> Decision:
    """Decide what an utterance means (see the module docstring)."""
    house = house or find_house()
    readings = tuple(_read(c, lang, house) for c in hearing.candidates)
    legal = [r for r in readings if r.announcement is not None]
    if not legal:
        ambiguous = [r for r in readings if isinstance(r.error, AmbiguousError)]
        if ambiguous:
            return Decision(
                "ask", f"'{ambiguous[0].candidate.text}': {ambiguous[0].error}", readings=readings
            )
        heard = readings[0].candidate.text if readings else ""
        why = f"nothing legal was heard ('{heard}')" if heard else "nothing was heard"
        return Decision("refuse", why, readings=readings)
    best = legal[0]
    assert best.announcement is not None
    distinct: dict[str, Announcement] = {}
    for r in legal:
        assert r.announcement is not None
        distinct.setdefault(r.announcement.notation(), r.announcement)
    choices = tuple(distinct.values())
    if best is not readings[0]:
        first = readings[0].candidate.text
        return Decision(
            "ask",
            f"the first thing heard was not a bet ('{first}')",
            best.announcement,
            choices,
            readings,
        )
    if len(choices) > 1:
        return Decision(
            "ask",
            "the recogniser heard several different bets",
            best.announcement,
            choices,
            readings,
        )
    longer = [
        r.candidate.text for r in readings if r.candidate.text.startswith(best.candidate.text + " ")
    ]
    if longer:
        return Decision(
            "ask",
            f"part of what was said may be missing (also heard '{longer[0]}')",
            best.announcement,
            choices,
            readings,
        )
    weakest = best.candidate.weakest
    if weakest is not None and weakest < threshold:
        word = min(best.candidate.words, key=lambda wc: wc[1])[0]
        return Decision(
            "ask",
            f"not sure of the word '{word}' ({weakest:.2f})",
            best.announcement,
            choices,
            readings,
        )
    return Decision("accept", "one clear reading", best.announcement, choices, readings)
