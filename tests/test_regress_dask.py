"""`callbets regress --dask`: the project's audio suites spread over a Dask cluster give
the serial run's results, each worker loads its recogniser once, and an unusable
``--dask`` (no Dask, no scheduler, Ctrl-C) ends with one clear line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from callbets.cli import main
from callbets.cli.options import EXIT_USAGE
from callbets.regress.runner import (
    Item,
    Result,
    _engine,
    dask_client,
    load_suite,
    report_json,
    run_item,
    run_on_dask,
)

from .conftest import ROOT

AUDIO = ROOT / "tests" / "fixtures" / "audio"
SUITES = [
    AUDIO / "suite-en.jsonl",
    AUDIO / "suite-natural.jsonl",
    ROOT / "tests" / "suites" / "typed-en",
]
INTERRUPTED = 130


def cb(*args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "callbets", *args], capture_output=True,
                          text=True, timeout=timeout)  # fmt: skip


def two_cores() -> str:
    """Run ``callbets`` on (at most) two cores, so that ``--dask local`` starts two workers
    whatever the machine."""
    cores = sorted(os.sched_getaffinity(0))[:2]
    return (
        f"import os, runpy, sys; os.sched_setaffinity(0, {set(cores)!r}); "
        "sys.argv[0] = 'callbets'; runpy.run_module('callbets', run_name='__main__')"
    )


@pytest.fixture(scope="module")
def items() -> list[Item]:
    return [item for suite in SUITES for item in load_suite(suite)]


@pytest.fixture(scope="module")
def serial(items: list[Item]) -> dict[str, Result]:
    """The serial run, in this process, by item id."""
    pytest.importorskip("pocketsphinx")
    return {item.id: run_item(item, "pocketsphinx") for item in items}


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """A local cluster of two worker processes, for the tests of this module."""
    with dask_client("local", workers=2) as c:
        yield c


def report(serial: dict[str, Result], suites: list[Path]) -> dict[str, Any]:
    """What the serial run reports for these suites (a report has no timing field)."""
    return report_json([serial[item.id] for s in suites for item in load_suite(s)])


def test_dask_gives_the_serial_results_in_order_and_loads_each_recogniser_once(
    items: list[Item], serial: dict[str, Result], client: Any
):
    done: list[int] = []
    results = run_on_dask(client, items, "pocketsphinx", done=lambda: done.append(1))
    assert report_json(results) == report(serial, SUITES)
    assert len(done) == len(items)  # the progress bar's count, across workers
    loads = client.run(_engine.cache_info)
    assert len(loads) == 2
    assert all(info.misses <= 1 for info in loads.values()), loads
    assert sum(info.misses for info in loads.values()) >= 1
    # another run on the same workers loads nothing more, and gives the same again
    again = run_on_dask(client, items[:6], "pocketsphinx")
    assert report_json(again) == report_json(results[:6])
    misses = {worker: info.misses for worker, info in client.run(_engine.cache_info).items()}
    assert misses == {worker: info.misses for worker, info in loads.items()}


def test_an_item_does_not_depend_on_the_items_heard_before(serial: dict[str, Result]):
    """What lets any spreading of the items give the serial results: the recogniser
    starts each item afresh (PocketSphinx would carry its cepstral mean over)."""
    natural = load_suite(AUDIO / "suite-natural.jsonl")
    backwards = [run_item(item, "pocketsphinx") for item in reversed(natural)]
    assert report_json(backwards[::-1]) == report(serial, [AUDIO / "suite-natural.jsonl"])


def test_the_command_line_on_a_scheduler_address(
    tmp_path: Path, serial: dict[str, Result], client: Any
):
    suites = [AUDIO / "suite-natural.jsonl", ROOT / "tests" / "suites" / "typed-en"]
    out = tmp_path / "dask.json"
    address = client.scheduler.address
    proc = cb("regress", *map(str, suites), "--engine", "pocketsphinx", "--dask", address,
              "--json", str(out))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # no progress bar off a terminal, no Dask logs
    assert json.loads(out.read_text()) == report(serial, suites)


def test_the_command_line_on_a_local_cluster_and_with_jobs(
    tmp_path: Path, serial: dict[str, Result]
):
    suite = AUDIO / "suite-natural.jsonl"
    expected = report(serial, [suite])
    local = subprocess.run(
        [sys.executable, "-c", two_cores(), "regress", str(suite), "--engine", "pocketsphinx",
         "--dask", "local", "--json", str(tmp_path / "local.json")],
        capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert local.returncode == 0, local.stderr
    assert local.stderr == ""
    assert json.loads((tmp_path / "local.json").read_text()) == expected
    jobs = cb("regress", str(suite), "--engine", "pocketsphinx", "--jobs", "2",
              "--json", str(tmp_path / "jobs.json"))  # fmt: skip
    assert jobs.returncode == 0, jobs.stderr
    assert json.loads((tmp_path / "jobs.json").read_text()) == expected


@pytest.mark.parametrize(("address", "message"), [
    ("tcp://127.0.0.1:1", "callbets: cannot reach the Dask scheduler at tcp://127.0.0.1:1 "
                          "(no answer within 5 s)"),
    ("nonsense", "callbets: bad Dask scheduler address 'nonsense': missing port number"),
])  # fmt: skip
def test_a_scheduler_that_cannot_be_reached_is_one_line(address: str, message: str):
    start = time.monotonic()
    proc = cb("regress", str(AUDIO / "suite-natural.jsonl"), "--dask", address, timeout=60)
    assert time.monotonic() - start < 30
    assert proc.returncode == EXIT_USAGE
    assert proc.stdout == ""
    (line,) = proc.stderr.splitlines()
    assert line.startswith(message)


def test_without_dask_it_names_the_extra_to_install():
    code = ("import sys; sys.modules['distributed'] = None; from callbets.cli import main; "
            f"sys.exit(main(['regress', {str(AUDIO / 'suite-natural.jsonl')!r}, "
            "'--dask', 'local']))")  # fmt: skip
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)  # fmt: skip
    assert proc.returncode == EXIT_USAGE
    assert proc.stderr == (
        "callbets: --dask needs Dask's distributed scheduler: pip install 'callbets[cluster]'\n"
    )


def test_dask_and_jobs_do_not_go_together(capsys: pytest.CaptureFixture[str]):
    with pytest.raises(SystemExit) as stop:
        main(["regress", str(AUDIO / "suite-natural.jsonl"), "--dask", "local", "--jobs", "2"])
    assert stop.value.code == EXIT_USAGE
    assert "not allowed with argument" in capsys.readouterr().err


def test_ctrl_c_closes_the_local_cluster_quietly():
    """Ctrl-C, sent as a terminal does to the whole process group: the run ends with 130,
    nothing on stderr, and no worker process is left."""
    psutil = pytest.importorskip("psutil")  # comes with distributed
    pytest.importorskip("pocketsphinx")
    proc = subprocess.Popen(
        [sys.executable, "-c", two_cores(), "regress", str(AUDIO / "suite-en.jsonl"),
         "--engine", "pocketsphinx", "--dask", "local"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        workers: list[Any] = []
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
            workers = [p for p in psutil.Process(proc.pid).children(recursive=True)
                       if "resource_tracker" not in " ".join(p.cmdline())]  # fmt: skip
        assert len(workers) == 2
        time.sleep(2)  # the workers are loading their recognisers or hearing items
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == INTERRUPTED
    assert err == "" and out == ""
    _, alive = psutil.wait_procs(workers, timeout=10)
    assert not alive
