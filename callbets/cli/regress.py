"""``callbets regress``: run suites of announcements and report at the level of bets."""

from __future__ import annotations

import argparse
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..language.grammar import LANGUAGES
from ..messages import said
from ..regress.enrol import HOLD_OUT_EVERY, enrol
from ..regress.record import record
from ..regress.runner import (
    Item,
    Result,
    compare_baseline,
    dask_client,
    describe,
    junit,
    load_baseline,
    load_suite,
    report_json,
    run_item,
    run_on_dask,
    summary,
)
from ..speech.engines import ENGINES
from .options import echo, lang_code, ratio, whole_number


def _run(items: list[Item], args: argparse.Namespace) -> list[Result]:
    """Score every item (here, in ``--jobs`` processes or on a Dask cluster), with a progress
    bar of the items done (rate and time left) on a terminal."""
    from tqdm import tqdm  # start-up time: about 14 ms here, only when a suite runs

    bar_options: dict[str, Any] = {"total": len(items), "unit": "item", "file": sys.stderr,
                                   "disable": not sys.stderr.isatty(), "dynamic_ncols": True,
                                   "leave": False}  # fmt: skip
    if args.dask:
        # the cluster first: its workers start before the bar's monitor thread exists
        with dask_client(args.dask) as client, tqdm(**bar_options) as bar:
            if not client.scheduler_info().get("workers"):
                bar.write(f"callbets: waiting for Dask workers to join {args.dask}", sys.stderr)
            return run_on_dask(client, items, args.engine, args.model, done=bar.update,
                               croupier=args.croupier)  # fmt: skip
    engines = [args.engine] * len(items)
    models = [args.model] * len(items)
    croupiers = [args.croupier] * len(items)
    results: list[Result] = []
    with tqdm(**bar_options) as bar:
        if args.jobs > 1:
            with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                for r in pool.map(run_item, items, engines, models, croupiers):
                    results.append(r)
                    bar.update()
        else:
            for item in items:
                results.append(run_item(item, args.engine, args.model, args.croupier))
                bar.update()
    return results


def _print_summary(data: dict[str, Any]) -> None:
    total = data["total"]
    print(
        f"{total['items']} items: {total['exact']} exact, {total['asked']} asked, "
        f"{total['refused']} refused, {total['wrong']} WRONG"
    )
    first = data["first_reading"]
    if first["read"]:
        print(f"  first reading right: {first['right']} of {first['read']} read")
    for group in ("languages", "families"):
        for name, c in data[group].items():
            print(
                f"  {name:18} {c['exact']:4}/{c['items']:<4} exact  {c['asked']:3} asked  "
                f"{c['refused']:3} refused  {c['wrong']:3} wrong"
            )
    if data["wer"] is not None:
        print(f"word error rate of the recogniser: {data['wer']:.1%}")


def _writable(output: str | None) -> None:
    """Refuse, before the run, a report file that could not be written at its end.

    :raises InputError: its folder is missing or not writable, or it is a folder.
    """
    if output is None:
        return
    path = Path(output)
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir() or not folder.is_dir() or not os.access(folder, os.W_OK):
        raise InputError(said("regress_output_unwritable", file=output))


def cmd_regress(args: argparse.Namespace) -> int:
    """Run every item of every suite; exit 1 on any wrong item or a missed threshold."""
    if args.suites and args.suites[0] == "record":
        return record(args)
    for output in (args.json, args.junit):  # before minutes of audio, not after
        _writable(output)
    items = [item for suite in args.suites for item in load_suite(Path(suite), args.allow_outside)]
    results = _run(items, args)
    data = summary(results)
    _print_summary(data)
    for r in results:
        if r.outcome != "exact":
            echo(describe(r))  # the item's words come from a suite's file
    report = report_json(results)
    if args.baseline:
        changes = compare_baseline(results, load_baseline(Path(args.baseline)))
        report["baseline"] = changes
        print(
            f"against {args.baseline}: newly failing {changes['newly_failing'] or 'none'}; "
            f"newly passing {changes['newly_passing'] or 'none'}"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(report, ensure_ascii=False, indent=1), "utf-8")
    if args.junit:
        Path(args.junit).write_text(junit(results), "utf-8")
    exact_ratio = data["total"]["exact"] / max(1, data["total"]["items"])
    if data["total"]["wrong"]:
        return 1
    if args.min_exact is not None and exact_ratio < args.min_exact:
        print(f"exact {exact_ratio:.1%} is under the threshold {args.min_exact:.1%}")
        return 1
    return 0


def add_commands(sub: Any) -> None:
    """Register ``regress``."""
    p = sub.add_parser(
        "regress",
        help="run suites of announcements (typed or recorded) and score them by bets",
        description="Run suites (folders with manifest.jsonl, or .jsonl files) and report "
        "exact, asked, refused and WRONG items.  'callbets regress record SUITE --lang L' "
        "records new items from the microphone.",
    )
    p.add_argument("suites", nargs="+", metavar="SUITE")
    p.add_argument("--engine", choices=ENGINES, default="")
    p.add_argument("--model", metavar="PATH", help="Vosk model folder")
    p.add_argument(
        "--croupier",
        metavar="NAME",
        help="read recordings with this enrolled croupier's model (default: "
        "$CALLBETS_CROUPIER where enrolled for the item's language)",
    )
    p.add_argument(
        "--lang", type=lang_code, choices=LANGUAGES, default="fr", help="language (record only)"
    )
    p.add_argument("--junit", metavar="FILE", help="write a JUnit XML file")
    p.add_argument("--json", metavar="FILE", help="write the full report as JSON")
    p.add_argument("--baseline", metavar="FILE", help="an earlier --json report to compare")
    p.add_argument("--min-exact", type=ratio, metavar="RATIO", help="fail under this ratio")
    spread = p.add_mutually_exclusive_group()
    spread.add_argument("--jobs", type=whole_number(1, 256), default=1,
                        help="processes on this machine (default 1)")  # fmt: skip
    spread.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="spread recorded items over a Dask cluster: its scheduler's address "
        "(tcp://HOST:8786), or 'local' for one worker process per core here; needs "
        "pip install 'callbets[cluster]'",
    )
    p.add_argument(
        "--allow-outside",
        action="store_true",
        help="let a manifest name audio files outside its suite's folder",
    )
    p.set_defaults(run=cmd_regress)

    p = sub.add_parser(
        "enrol",
        help="adapt the recogniser to one croupier's voice, from a suite of his recordings",
        description="Adapt PocketSphinx's acoustic model to one croupier from a suite of his "
        "recordings (the regress format: 'audio' and the words said in 'text'; digits are "
        "read as number words; 'callbets regress record' makes one). One recording in "
        f"{HOLD_OUT_EVERY} is held apart and read before and after, to say what enrolment "
        "changed. The model is stored in the user's data folder under his name; "
        "transcribe, listen, regress and the console use it with --croupier NAME or "
        "$CALLBETS_CROUPIER. Needs sphinxtrain's programs (Debian: sphinxtrain, "
        "sphinxbase-utils, pocketsphinx).",
    )
    p.add_argument("suite", metavar="SUITE", help="a folder with manifest.jsonl, or a .jsonl")
    p.add_argument("--lang", type=lang_code, choices=LANGUAGES, required=True)
    p.add_argument("--croupier", metavar="NAME", required=True)
    p.add_argument("--allow-outside", action="store_true",
                   help="let the manifest name audio files outside its folder")  # fmt: skip
    p.set_defaults(run=cmd_enrol)


def cmd_enrol(args: argparse.Namespace) -> int:
    """Enrol a croupier; print what enrolment changed on the recordings held apart."""
    from tqdm import tqdm  # start-up time: about 14 ms here, only for a long run

    with tqdm(unit="step", file=sys.stderr, disable=not sys.stderr.isatty(), leave=False,
              dynamic_ncols=True) as bar:  # fmt: skip

        def progress(done: int, total: int, what: str) -> None:
            bar.total, bar.n = total, done
            bar.set_description(what)

        done = enrol(Path(args.suite), args.lang, args.croupier, progress, args.allow_outside)
    print(f"enrolled {done.croupier} ({done.lang}): adapted on {done.adapted_on} recordings, "
          f"{done.held_apart} held apart")  # fmt: skip
    for name, score in (("before", done.before), ("after", done.after)):
        print(f"  {name:6} first readings exact {score.first_exact}/{score.items}, "
              f"wrong accepted {score.wrong}")  # fmt: skip
    print(f"  stored in {done.folder}")
    for why in done.skipped:
        print(f"  left out {why}")
    return 0
