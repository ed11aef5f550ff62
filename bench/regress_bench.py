"""Items per second of ``callbets regress`` on an audio suite: serial, ``--jobs N`` and
``--dask local`` (one worker process per core), each a fresh ``callbets`` process timed
from start to exit (Python, cluster start-up and the recognisers' loading included), and
whether each run's report is the serial one.  Figures only: nothing passes or fails on
time.

    python bench/regress_bench.py [SUITE …] [--engine pocketsphinx] [--jobs 2] [--repeat 3]

``--repeat K`` runs the suites' items K times over (as a larger archive would), with
their ids numbered.  Needs the ``speech`` and ``cluster`` extras.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path
from typing import Any

from callbets.regress.runner import load_suite

ROOT = Path(__file__).resolve().parent.parent
SUITES = [
    ROOT / "tests/fixtures/audio/suite-en.jsonl",
    ROOT / "tests/fixtures/audio/suite-natural.jsonl",
]


def archive(suites: list[str], repeat: int, folder: Path) -> tuple[Path, int]:
    """One manifest with every item of the suites, ``repeat`` times over."""
    items = [item for suite in suites for item in load_suite(Path(suite))]
    lines = []
    for k in range(repeat):
        for item in items:
            lines.append(json.dumps({"id": f"{item.id}#{k}", "lang": item.lang, "audio": item.audio,
                                     "text": item.text, "expect": item.expect,
                                     "house": item.house}))  # fmt: skip
    manifest = folder / "manifest.jsonl"
    manifest.write_text("\n".join(lines) + "\n", "utf-8")
    return manifest, len(lines)


def timed(manifest: Path, engine: str, spread: list[str], report: Path) -> float:
    """Seconds of one ``callbets regress`` run, start to exit."""
    command = [sys.executable, "-m", "callbets", "regress", str(manifest), "--allow-outside",
               "--engine", engine, "--json", str(report), *spread]  # fmt: skip
    start = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True)
    took = time.perf_counter() - start
    if proc.returncode not in (0, 1):  # 1: a wrong item, still a run
        sys.exit(f"{' '.join(command)} failed ({proc.returncode}):\n{proc.stderr}")
    return took


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("suites", nargs="*", default=[str(s) for s in SUITES], metavar="SUITE")
    p.add_argument("--engine", default="pocketsphinx")
    p.add_argument("--jobs", type=int, default=2, help="processes of the --jobs run")
    p.add_argument("--repeat", type=int, default=1, help="run the items this many times over")
    args = p.parse_args()
    from dask.system import cpu_count

    runs = [("serial", []), (f"--jobs {args.jobs}", ["--jobs", str(args.jobs)]),
            ("--dask local", ["--dask", "local"])]  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        manifest, n = archive(args.suites, args.repeat, Path(tmp))
        print(f"{n} items ({len(args.suites)} suites x{args.repeat}), engine {args.engine}, "
              f"{cpu_count()} cores ({platform.processor() or platform.machine()}), "
              f"Python {platform.python_version()}, dask {version('distributed')}, "
              f"load average {os.getloadavg()[0]:.1f} before")  # fmt: skip
        reports: dict[str, Any] = {}
        serial_rate = 0.0
        for name, spread in runs:
            report = Path(tmp) / f"{len(reports)}.json"
            seconds = timed(manifest, args.engine, spread, report)
            reports[name] = json.loads(report.read_text("utf-8"))
            rate = n / seconds
            serial_rate = serial_rate or rate
            same = "same report as serial" if reports[name] == reports["serial"] else "DIFFERENT"
            print(f"  {name:14} {seconds:7.1f} s  {rate:6.2f} items/s  x{rate / serial_rate:.2f}"
                  f"  {same}")  # fmt: skip
        print(f"load average {os.getloadavg()[0]:.1f} after")


if __name__ == "__main__":
    main()
