"""Regression suites of announcements, scored at the level of bets.

A suite is a folder with ``manifest.jsonl`` (or a ``.jsonl`` file itself).  Each line is
one item::

    {"id": "fr-001", "lang": "fr", "text": "voisins du zéro à 5", "expect": "voisins x5"}
    {"id": "en-007", "lang": "en", "audio": "en/07.wav", "text": "tiers by five",
     "expect": "tiers x5", "engine": "pocketsphinx"}
    {"id": "it-003", "lang": "it", "text": "cavallo 4/8", "expect": "refuse"}

``expect`` is the canonical notation of the chips (``callbets parse`` prints it through
:meth:`Announcement.notation`), the chips themselves as in the sample corpus
(``{"placements": [[[0, 2, 3], 10], …]}``, merged by number set) or ``"refuse"``;
``audio`` paths are relative to the manifest; ``text`` is the transcript (typed items
are parsed from it; audio items use it for the word error rate); ``house`` and
``engine`` are optional.

Outcomes: **exact** (the expected chips, or a refusal that was expected), **asked** (the
recogniser asked: ambiguous or a weak word), **refused**, and **wrong** (chips that differ
from the expected ones: the figure that matters most).
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import re
import signal
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from multiprocessing import resource_tracker
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast
from xml.etree import ElementTree as ET

from ..errors import AmbiguousError, AnnouncementError, CallbetsError, InputError
from ..files import open_regular
from ..language.grammar import LANGUAGES
from ..language.parse import parse
from ..roulette.announcement import parse_notation
from ..roulette.house import find_house
from ..speech.audio import read_wav
from ..speech.croupiers import resolve
from ..speech.decide import decide
from ..speech.dictation import hear_recording
from ..speech.engines import default_engine, make_engine

if TYPE_CHECKING:
    from distributed import Client

OUTCOMES = ("exact", "asked", "refused", "wrong")


class ManifestError(InputError):
    """A suite manifest that cannot be used, with the file and line."""


@dataclass(frozen=True)
class Item:
    """One announcement of a suite and what it should give."""

    id: str
    lang: str
    expect: str
    text: str = ""
    audio: str = ""
    engine: str = ""
    house: str = "venice-french"
    suite: str = ""

    @property
    def family(self) -> str:
        """The kind of bet expected (first call's name), ``chips`` or ``refuse``."""
        if self.expect == "refuse" or self.expect.startswith("["):
            return "refuse" if self.expect == "refuse" else "chips"
        return self.expect.split()[0]


@dataclass
class Result:
    """What one item gave."""

    item: Item
    outcome: str
    got: str = ""
    heard: str = ""
    reason: str = ""
    wer: float | None = None
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    first_right: bool | None = None
    """Whether the first reading shown (accepted or asked about) had the expected chips;
    None when nothing was read (a refusal)."""
    seconds: float = 0.0
    """How long the item took to score (hearing, parsing, comparing)."""


def _chips(expect: str, house: str) -> Counter[str]:
    """Amount per set of numbers, from a notation or a JSON list of [[numbers], amount]."""
    if expect.startswith("["):
        pairs = json.loads(expect)
        return Counter({"/".join(map(str, sorted(nums))): amount for nums, amount in pairs})
    announcement = parse_notation(expect, find_house(house))
    return Counter({f"{'/'.join(map(str, k))}": v for k, v in announcement.merged().items()})


MAX_MANIFEST_BYTES = 64 * 1024 * 1024
"""A manifest larger than this is refused unread (a suite of a million items is smaller)."""
TEXT_FIELDS = ("id", "text", "audio", "house", "engine")


def load_suite(path: Path, allow_outside: bool = False) -> list[Item]:
    """Read a suite's manifest.

    Audio files must lie inside the suite's folder unless ``allow_outside`` is true; the
    error for one that does not never says whether it exists.

    :raises ManifestError: missing file, bad JSON, a line that is not an object, a field
        of the wrong type, unknown language, malformed expected chips, a missing audio
        file or an item with neither text nor audio (with the file and the line).
    """
    manifest = path / "manifest.jsonl" if path.is_dir() else path
    if not os.path.lexists(manifest):
        raise ManifestError(f"no manifest at {manifest}")
    items = []
    with open_regular(manifest, ManifestError) as f:  # never a pipe or a device
        if os.fstat(f.fileno()).st_size > MAX_MANIFEST_BYTES:
            raise ManifestError(f"{manifest} is larger than {MAX_MANIFEST_BYTES} bytes")
        for n, raw in enumerate(f, 1):
            where = f"{manifest}:{n}"
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise ManifestError(f"{where}: not UTF-8 text") from None
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except (json.JSONDecodeError, RecursionError) as err:
                raise ManifestError(f"{where}: not JSON ({getattr(err, 'msg', err)})") from None
            items.append(_item(data, where, manifest.parent, allow_outside))
    if not items:
        raise ManifestError(f"{manifest} holds no items")
    return items


def _audio_path(audio: str, where: str, folder: Path, allow_outside: bool) -> str:
    """The audio file of an item, kept inside the suite's folder."""
    if not audio:
        return ""
    path = (folder / audio).resolve()
    if not allow_outside and not path.is_relative_to(folder.resolve()):
        raise ManifestError(
            f"{where}: audio {audio!r} is outside the suite's folder (--allow-outside permits it)"
        )
    if not path.is_file():
        missing = "is not a regular file" if path.exists() else "is missing"
        raise ManifestError(f"{where}: audio file {audio!r} {missing}")
    return str(path)


def _item(data: Any, where: str, folder: Path, allow_outside: bool = False) -> Item:
    if not isinstance(data, dict):
        raise ManifestError(f"{where}: each line must be a JSON object, not {type(data).__name__}")
    for name in TEXT_FIELDS:
        if name in data and not isinstance(data[name], str):
            raise ManifestError(f"{where}: '{name}' must be text")
    lang = data.get("lang")
    if lang not in LANGUAGES:
        raise ManifestError(f"{where}: unknown language {lang!r} (one of {', '.join(LANGUAGES)})")
    expect = data.get("expect")
    if isinstance(expect, dict) and isinstance(expect.get("placements"), list):
        expect = json.dumps(expect["placements"])  # the chips, as in the sample corpus
    if not isinstance(expect, str) or not expect:
        raise ManifestError(f"{where}: 'expect' must be the expected chips' notation or 'refuse'")
    house = data.get("house", "venice-french")
    if expect != "refuse":
        try:
            _chips(expect, house)
        except (CallbetsError, ValueError, TypeError, KeyError, RecursionError) as err:
            raise ManifestError(f"{where}: malformed expected chips {expect!r}: {err}") from None
    audio = data.get("audio", "")
    audio_path = _audio_path(audio, where, folder, allow_outside)
    if not audio and not data.get("text"):
        raise ManifestError(f"{where}: an item needs 'text' or 'audio'")
    item_id = str(data.get("id") or f"{Path(where).stem}-{where.rsplit(':', 1)[1]}")
    return Item(
        item_id,
        lang,
        expect,
        data.get("text", ""),
        audio_path,
        data.get("engine", ""),
        house,
        str(folder),
    )


def word_error_rate(reference: str, hypothesis: str) -> float:
    """Word-level edit distance divided by the reference length."""
    ref, hyp = reference.lower().split(), hypothesis.lower().split()
    row = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        prev, row[0] = row[0], i
        for j, h in enumerate(hyp, 1):
            cur = min(row[j] + 1, row[j - 1] + 1, prev + (r != h))
            prev, row[j] = row[j], cur
    return row[len(hyp)] / max(1, len(ref))


def _right(item: Item, got: str) -> bool | None:
    """Whether a reading has the expected chips (None for an item that must be refused:
    no reading of it is right or wrong, what counts is that none is accepted)."""
    if item.expect == "refuse":
        return None
    return _chips(item.expect, item.house) == _chips(got, item.house)


def _compare(item: Item, got: str, heard: str) -> Result:
    if item.expect == "refuse":
        return Result(item, "wrong", got, heard, "accepted, but it should be refused",
                      first_right=False)  # fmt: skip
    want, have = _chips(item.expect, item.house), _chips(got, item.house)
    if want == have:
        return Result(item, "exact", got, heard, first_right=True)
    if want.keys() == have.keys():  # the same positions: only the stakes differ
        return Result(item, "wrong", got, heard, "the same chips at other stakes",
                      first_right=False)  # fmt: skip
    missing = sorted((want - have).elements())
    extra = sorted((have - want).elements())
    return Result(item, "wrong", got, heard, "different chips", missing=missing, extra=extra,
                  first_right=False)  # fmt: skip


def run_text(item: Item) -> Result:
    """Score a typed item through the parser."""
    try:
        got = parse(item.text, item.lang, find_house(item.house)).notation()
    except AmbiguousError as err:
        outcome = "exact" if item.expect == "refuse" else "asked"
        first = err.readings[0] if err.readings else ""
        right = _right(item, first) if first else None
        return Result(item, outcome, first, item.text, err.message, first_right=right)
    except AnnouncementError as err:
        outcome = "exact" if item.expect == "refuse" else "refused"
        return Result(item, outcome, heard=item.text, reason=f"{err.kind}: {err.message}")
    return _compare(item, got, item.text)


def run_audio(
    item: Item, engine_name: str, model: str | None, croupier: str | None = None
) -> Result:
    """Score a recorded item through a recogniser (an enrolled ``croupier``'s model where
    one is named) and the decision."""
    pcm = read_wav(Path(item.audio))
    engine = _engine(engine_name, item.lang, model, croupier)
    hearing = hear_recording(engine, pcm, find_house(item.house))
    decision = decide(hearing, item.lang, find_house(item.house))
    heard = hearing.best.text if hearing.best else ""
    wer = word_error_rate(item.text, heard) if item.text else None
    if decision.kind == "refuse":
        outcome = "exact" if item.expect == "refuse" else "refused"
        return Result(item, outcome, heard=heard, reason=decision.reason, wer=wer)
    got = decision.chosen.notation() if decision.chosen else ""
    if decision.kind == "ask":
        right = _right(item, got) if got else None
        return Result(item, "asked", got, heard, decision.reason, wer, first_right=right)
    result = _compare(item, got, heard)
    result.wer = wer
    return result


@functools.cache
def _engine(name: str, lang: str, model: str | None, croupier: str | None = None) -> Any:
    """The recogniser of an engine, language, model and croupier, loaded once per process:
    a serial run, each ``--jobs`` process and each Dask worker process load it on their
    first item that needs it and keep it (``_engine.cache_info().misses`` counts the
    loads)."""
    return make_engine(name, lang, model, croupier=croupier)


def forget_engines() -> None:
    """Drop the recognisers loaded in this process (a croupier's model was replaced)."""
    _engine.cache_clear()


def run_item(
    item: Item, engine: str = "", model: str | None = None, croupier: str | None = None
) -> Result:
    """Score one item (typed or recorded; a recording with ``croupier``'s enrolled model
    when he is enrolled for its language, see :func:`~callbets.speech.croupiers.resolve`)."""
    start = time.perf_counter()
    if item.audio:
        whose = resolve(croupier, item.lang)
        name = engine or item.engine or default_engine(item.lang, model, whose)
        result = run_audio(item, name, model, whose)
    else:
        result = run_text(item)
    result.seconds = time.perf_counter() - start
    return result


class ClusterError(InputError):
    """``--dask`` cannot be used: Dask is not installed, or the scheduler cannot be reached."""


DASK_CONNECT_SECONDS = 5
"""How long to try to reach a Dask scheduler before saying it cannot be reached."""


@contextlib.contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Ctrl-C waits until the end of the block, and processes started meanwhile never see it.

    A terminal sends Ctrl-C to every process of the run; only this one should act on it,
    by closing the cluster, which stops its workers.  SIGINT is blocked (not ignored) while
    the workers start: the threads that start them inherit the mask, the workers too, and
    a Ctrl-C in the meantime is delivered on the way out, not lost.
    """
    if threading.current_thread() is not threading.main_thread():
        yield  # a signal goes to the main thread: holding it from another one is no use
        return
    # multiprocessing's resource tracker unblocks SIGINT in the thread that starts it
    # (the first to start a worker): started from here first, it has nothing to undo
    resource_tracker.ensure_running()
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextlib.contextmanager
def dask_client(address: str, workers: int | None = None) -> Iterator[Client]:
    """A Dask client of the scheduler at ``address`` (``tcp://HOST:8786``), or of a
    ``LocalCluster`` for ``local``: ``workers`` processes (default: one per core this
    process may use) of one thread each, so that each has its own recogniser.  Closed on
    the way out, also on an error or Ctrl-C (a local cluster's workers stop with it).

    :raises ClusterError: Dask is not installed (the ``cluster`` extra), the address is
        malformed, or no scheduler answers there within :data:`DASK_CONNECT_SECONDS`.
    """
    try:
        from dask.system import cpu_count  # optional dependency (the cluster extra)
        from distributed import Client, LocalCluster  # (the same)
    except ImportError:
        raise ClusterError(
            "--dask needs Dask's distributed scheduler: pip install 'callbets[cluster]'"
        ) from None
    dask_log = logging.getLogger("distributed")
    with contextlib.ExitStack() as stack:
        stack.callback(dask_log.setLevel, dask_log.level)  # last, once all is closed
        if address == "local":
            with _ctrl_c_held():
                cluster = LocalCluster(  # type: ignore[no-untyped-call]
                    n_workers=workers or cpu_count(),  # its affinity and quota
                    threads_per_worker=1,
                    processes=True,
                    # the workers' own logs stay quiet: a task's error comes back to
                    # this process through its future, and a Ctrl-C that stops the
                    # scheduler first would make a worker log a failed heartbeat
                    silence_logs=logging.CRITICAL,
                    # no dashboard; the scheduler's own HTTP server on a free local port,
                    # so that a cluster already on 8787 does not make it warn and move
                    dashboard_address="127.0.0.1:0",
                    scheduler_kwargs={"dashboard": False},
                )
                stack.enter_context(cluster)  # closed if a Ctrl-C comes out of the hold
            client = stack.enter_context(Client(cluster))  # type: ignore[no-untyped-call]
        else:
            try:
                timeout = f"{DASK_CONNECT_SECONDS}s"
                client = Client(address, timeout=timeout)  # type: ignore[no-untyped-call]
            except ValueError as err:  # no port, unknown scheme
                raise ClusterError(f"bad Dask scheduler address {address!r}: {err}") from None
            except OSError:
                raise ClusterError(
                    f"cannot reach the Dask scheduler at {address} "
                    f"(no answer within {DASK_CONNECT_SECONDS} s)"
                ) from None
            stack.enter_context(client)
        try:
            yield client
        except KeyboardInterrupt:
            # a local worker busy in its recogniser is killed after a few seconds, which
            # Dask logs as errors with tracebacks: the user asked for it
            dask_log.setLevel(logging.CRITICAL + 1)
            raise


def run_on_dask(
    client: Client,
    items: Sequence[Item],
    engine: str = "",
    model: str | None = None,
    done: Callable[[], object] | None = None,
    croupier: str | None = None,
) -> list[Result]:
    """Score items on a Dask cluster; the results in the items' order, the same as a serial
    run's.

    Each recorded item is one task of :func:`run_item` (each worker process loads its
    recogniser on its first item, see :func:`_engine`); typed items are parsed here in
    the meantime, which is quicker than a round trip through the scheduler.  ``done`` is
    called as each item is scored, wherever it ran.  Recorded items' files (and a
    ``model``) must be at the same path on every worker.  On an error or Ctrl-C the items
    not yet scored are cancelled on the cluster.
    """
    from distributed import as_completed  # optional dependency (the cluster extra)

    results: list[Result | None] = [None] * len(items)
    recorded = [n for n, item in enumerate(items) if item.audio]
    # one key per item and per run (two items may be alike; two runs may share a scheduler)
    run = uuid.uuid4().hex
    futures = client.map(
        run_item,
        [items[n] for n in recorded],
        engine=engine,
        model=model,
        croupier=croupier,
        key=[f"callbets-regress-{run}-{n}" for n in recorded],
    )
    position = {f.key: n for f, n in zip(futures, recorded, strict=True)}
    pending = {f.key: f for f in futures}
    finished = as_completed(futures)  # type: ignore[no-untyped-call]
    del futures  # each result is released on the cluster once fetched
    try:
        for n, item in enumerate(items):
            if not item.audio:
                results[n] = run_item(item, engine, model, croupier)
                if done:
                    done()
        for future in finished:
            results[position[future.key]] = future.result()
            del pending[future.key]
            if done:
                done()
    except BaseException:
        with contextlib.suppress(Exception):  # the first error is the one to report
            client.cancel(list(pending.values()))  # type: ignore[no-untyped-call]
        raise
    return cast(list[Result], results)  # every position was filled above


def summary(results: list[Result]) -> dict[str, Any]:
    """Figures: overall, per language and per family; word error rate of audio items."""

    def count(rs: list[Result]) -> dict[str, int]:
        c = Counter(r.outcome for r in rs)
        return {"items": len(rs), **{o: c.get(o, 0) for o in OUTCOMES}}

    by_lang: dict[str, list[Result]] = defaultdict(list)
    by_family: dict[str, list[Result]] = defaultdict(list)
    for r in results:
        by_lang[r.item.lang].append(r)
        by_family[r.item.family].append(r)
    wers = [r.wer for r in results if r.wer is not None]
    read = [r.first_right for r in results if r.first_right is not None]
    return {
        "total": count(results),
        "first_reading": {"right": sum(read), "read": len(read)},
        "languages": {k: count(v) for k, v in sorted(by_lang.items())},
        "families": {k: count(v) for k, v in sorted(by_family.items())},
        "wer": round(sum(wers) / len(wers), 3) if wers else None,
    }


def report_json(results: list[Result]) -> dict[str, Any]:
    """The whole run as JSON (also the format of a baseline): the same for the same
    outcomes, so each item's time is left to the JUnit report."""
    return {
        "summary": summary(results),
        "items": [
            {
                **{k: v for k, v in asdict(r).items() if k not in ("item", "seconds")},
                "id": r.item.id,
                "lang": r.item.lang,
                "expect": r.item.expect,
                "family": r.item.family,
            }
            for r in results
        ],
    }


def load_baseline(path: Path) -> dict[str, Any]:
    """An earlier ``--json`` report.

    :raises ManifestError: unreadable, not JSON, or not a report.
    """
    try:
        with open_regular(path, ManifestError) as f:  # never a pipe or a device
            data = json.loads(f.read(MAX_MANIFEST_BYTES + 1).decode("utf-8"))
    except OSError as err:
        raise ManifestError(f"cannot read baseline {path}: {err.strerror}") from None
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise ManifestError(f"baseline {path} is not a JSON report of 'callbets regress'") from None
    items = data.get("items") if isinstance(data, dict) else None
    if not isinstance(items, list) or not all(
        isinstance(i, dict) and isinstance(i.get("id"), str) and isinstance(i.get("outcome"), str)
        for i in items
    ):
        raise ManifestError(f"baseline {path} is not a report of 'callbets regress' (--json)")
    report: dict[str, Any] = data
    return report


def compare_baseline(results: list[Result], baseline: dict[str, Any]) -> dict[str, list[str]]:
    """Items that newly fail and items that newly pass, against an earlier JSON report."""
    before = {i["id"]: i["outcome"] == "exact" for i in baseline.get("items", [])}
    now = {r.item.id: r.outcome == "exact" for r in results}
    return {
        "newly_failing": sorted(i for i, ok in now.items() if before.get(i) is True and not ok),
        "newly_passing": sorted(i for i, ok in now.items() if before.get(i) is False and ok),
    }


def junit(results: list[Result]) -> str:
    """A JUnit XML document: one test case per item.  A wrong bet fails; an item that was
    asked or refused passes (nothing wrong was placed) and says what it was in its
    properties and output, never as a skip: it was run."""
    suite = ET.Element(
        "testsuite",
        name="callbets regress",
        tests=str(len(results)),
        failures=str(sum(r.outcome == "wrong" for r in results)),
        errors="0",  # every item gives an outcome: one that cannot be run is refused
        skipped="0",
        time=f"{sum(r.seconds for r in results):.3f}",
    )
    counts = ET.SubElement(suite, "properties")
    for outcome in OUTCOMES:
        n = sum(r.outcome == outcome for r in results)
        ET.SubElement(counts, "property", name=outcome, value=str(n))
    for r in results:
        case = ET.SubElement(suite, "testcase", classname=f"{r.item.lang}.{r.item.family}",
                             name=r.item.id, time=f"{r.seconds:.3f}")  # fmt: skip
        props = ET.SubElement(case, "properties")
        ET.SubElement(props, "property", name="outcome", value=r.outcome)
        if r.first_right is not None:
            ET.SubElement(props, "property", name="first_reading_right",
                          value=str(r.first_right).lower())  # fmt: skip
        if r.outcome == "wrong":
            failure = ET.SubElement(case, "failure", message=r.reason)
            failure.text = describe(r)
        elif r.outcome in ("asked", "refused"):
            ET.SubElement(case, "system-out").text = describe(r)
    return _XML_FORBIDDEN.sub(_shown, ET.tostring(suite, encoding="unicode", xml_declaration=True))


_XML_FORBIDDEN = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""Characters XML 1.0 forbids even escaped (NUL, controls, lone surrogates, U+FFFE/F):
an item's id or text may hold them; the report shows them as ``\\x00``, ``\\ud800``."""


def _shown(match: re.Match[str]) -> str:
    return match.group().encode("unicode_escape", "backslashreplace").decode("ascii")


def describe(r: Result) -> str:
    """A failure as a croupier reads it: heard, parsed, expected, and the chips that differ."""
    lines = [
        f"{r.item.id} [{r.item.lang}] {r.outcome}: {r.reason}",
        f"  heard:    {r.heard!r}",
        f"  parsed:   {r.got or '-'}",
        f"  expected: {r.item.expect}",
    ]
    if r.first_right is not None and r.outcome != "exact":
        lines.append(f"  first reading {'right' if r.first_right else 'wrong'}")
    lines += [f"  - missing chip {c}" for c in r.missing]
    lines += [f"  + extra chip   {c}" for c in r.extra]
    return "\n".join(lines)
