"""``callbets enrol``: adapt the recogniser to one croupier's recordings, and measure it.

A suite of his recordings (the ``callbets regress`` format; ``callbets regress record``
makes one) is split: every :data:`HOLD_OUT_EVERY`-th recording is held apart, the rest
adapt the model (one MLLR transform, then MAP, :mod:`callbets.speech.adapt`, on top of
the model already adapted to the language).  The held-apart recordings are then scored
with the language's model and with his, and the report says what enrolment changed:
first readings exact, and wrong bets accepted, before and after.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from ..errors import InputError
from ..language.normalize import words
from ..language.vocabulary import spellings
from ..speech.adapt import STEPS as ADAPT_STEPS
from ..speech.adapt import Recording, adapt, transform_means
from ..speech.croupiers import folder, save_report
from ..speech.engines.sphinx import PocketSphinxEngine, shipped_model, wheel_model
from .runner import Item, Result, forget_engines, load_suite, run_audio

HOLD_OUT_EVERY = 4
"""One recording in this many is held apart to measure the enrolment."""
MIN_RECORDINGS = 8
"""The fewest recordings (with the words said) an enrolment takes."""


def said_words(text: str, lang: str) -> tuple[str, ...]:
    """The words said, as the recogniser spells them: digits read as the language's
    number words ("17" → "dix sept"), punctuation left out."""
    out: list[str] = []
    for w in words(text):
        if w.text.isdigit():
            said = spellings(lang, int(w.text)) if int(w.text) < 1000 else ()
            if not said:
                raise ValueError(f"no words for the number {w.text}")
            out += [x.text for x in words(said[0])]
        elif w.text.replace("'", "").isalpha():
            out.append(w.text)
    return tuple(out)


@dataclass(frozen=True)
class Score:
    """How the held-apart recordings were read by one model."""

    items: int
    first_exact: int
    """The first reading shown had the expected chips."""
    wrong: int
    """A wrong bet accepted unasked (or a must-refuse one accepted)."""

    @classmethod
    def of(cls, results: Sequence[Result]) -> Score:
        """The score of a run's results."""
        first = sum(bool(r.first_right) for r in results)
        return cls(len(results), first, sum(r.outcome == "wrong" for r in results))


@dataclass(frozen=True)
class Enrolment:
    """What ``callbets enrol`` did."""

    croupier: str
    lang: str
    adapted_on: int
    held_apart: int
    skipped: list[str]
    """Recordings left out, each with why."""
    before: Score
    after: Score
    folder: str


def _recordings(items: Sequence[Item], lang: str, known: set[str]) -> tuple[
    list[tuple[Item, Recording]], list[str]
]:  # fmt: skip
    """The items usable for adaptation, and why the others are not."""
    usable, skipped = [], []
    for item in items:
        if not item.audio or not item.text:
            skipped.append(f"{item.id}: no audio or no words said")
            continue
        try:
            said = said_words(item.text, lang)
        except ValueError as err:
            skipped.append(f"{item.id}: {err}")
            continue
        unknown = sorted(set(said) - known)
        if unknown:
            skipped.append(f"{item.id}: words the recogniser does not know: {', '.join(unknown)}")
            continue
        usable.append((item, Recording(Path(item.audio), said)))
    return usable, skipped


def enrol(
    suite: Path,
    lang: str,
    croupier: str,
    progress: Callable[[int, int, str], None] = lambda done, total, what: None,
    allow_outside: bool = False,
) -> Enrolment:
    """Adapt the recogniser to a croupier's recordings, store it, and measure it on the
    recordings held apart (see the module docstring).

    :param progress: told (steps done, steps in all, what is being done) as it goes: the
        four steps of the adaptation, then each held-apart recording read twice.
    :raises InputError: a bad suite, a bad name, or too few usable recordings.
    :raises SpeechUnavailable: sphinxtrain's programs are missing or fail.
    """
    target = folder(croupier, lang)
    items = [i for i in load_suite(suite, allow_outside) if i.lang == lang]
    engine = PocketSphinxEngine(lang)
    known = {line.split()[0].split("(")[0] for line in engine.dictionary.read_text().splitlines()}
    usable, skipped = _recordings(items, lang, known)
    if len(usable) < MIN_RECORDINGS:
        raise InputError(
            f"{suite} has {len(usable)} usable {lang} recordings with their words; enrolment "
            f"needs at least {MIN_RECORDINGS}" + (f" ({skipped[0]}…)" if skipped else "")
        )
    held = [item for k, (item, _) in enumerate(usable) if k % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1]
    train = [rec for k, (_, rec) in enumerate(usable) if k % HOLD_OUT_EVERY != HOLD_OUT_EVERY - 1]
    total = 2 * ADAPT_STEPS + 1 + 2 * len(held)  # MLLR, the transform, MAP, the readings
    count = iter(range(1, total + 1))

    def step(what: str) -> None:
        progress(next(count), total, what)

    work = target.with_name(f".{target.name}.new")
    shutil.rmtree(work, ignore_errors=True)
    work.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    shipped = shipped_model(lang)
    prior = shipped if (shipped / "means").is_file() else wheel_model()
    _mllr_then_map(engine.dictionary, train, prior, work, step)
    before = _score(held, None, step)
    _replace(work, target)
    forget_engines()  # a model of his loaded earlier in this process is out of date
    after = _score(held, croupier, step)
    done = Enrolment(croupier, lang, len(train), len(held), skipped, before, after, str(target))
    report = {**asdict(done), "when": datetime.now(UTC).isoformat(timespec="seconds")}
    save_report(croupier, lang, report)
    return done


def _mllr_then_map(
    dictionary: Path, train: Sequence[Recording], prior: Path, work: Path,
    step: Callable[[str], None],
) -> None:  # fmt: skip
    """One MLLR transform of ``prior`` to his recordings, then MAP from there, into
    ``work`` (its ``means`` and ``variances``)."""
    mllr = work / "mllr"
    adapt(wheel_model(), dictionary, train, mllr, step, prior, method="mllr")
    step("transform")
    transform_means(prior, mllr / "mllr_matrix", work / "moved", mllr / "adapt.log")
    adapt(wheel_model(), dictionary, train, work, step, work / "moved")
    for scratch in (mllr, work / "moved"):
        shutil.rmtree(scratch)
    (work / "adapt.log").unlink(missing_ok=True)


def _score(held: Sequence[Item], croupier: str | None, step: Callable[[str], None]) -> Score:
    """The held-apart recordings read with the language's model or the croupier's."""
    results = []
    for item in held:
        results.append(run_audio(item, "pocketsphinx", None, croupier))
        step("reading the recordings held apart")
    return Score.of(results)


def _replace(new: Path, target: Path) -> None:
    """Put the new model in place of the croupier's old one, if any."""
    old = target.with_name(f".{target.name}.old")
    shutil.rmtree(old, ignore_errors=True)
    if target.exists():
        target.rename(old)
    new.rename(target)
    shutil.rmtree(old, ignore_errors=True)
