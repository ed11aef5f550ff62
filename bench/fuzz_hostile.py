"""The long fuzz run of issue 11: many random and hostile inputs through the parser API and
the ``--jsonl`` contract, reporting rates and the worst time per kilobyte; and of issue 22:
hostile table-command inputs (malformed URLs, URLs and connection strings holding a
password, names with control characters, huge integers) through ``callbets table``,
``db`` and ``floor``, each run as a croupier's shell would; and hostile files (model
archives, WAVs, pipes and devices) through the APIs and commands that read them.

Run: python bench/fuzz_hostile.py [--inputs 100000] [--lines 20000] [--files 400]
     [--doors 300] [--seed 1] [--postgres postgresql://USER@HOST/DB]  (a database whose
     schema is made, for the table commands on PostgreSQL too)
     python bench/fuzz_hostile.py --only files --files 400   (or --only text, --only doors)
Reports figures, not pass/fail timings; exits 1 only if an input raised anything but
callbets' own errors, a --jsonl stream did not answer every line, a file was not refused
in one line with exit 2, a table command ended in an unexpected error (exit 3, a
traceback), echoed a password or wrote a raw control character to the terminal, or
anything hung.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import stat
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import unicodedata
import uuid
import wave
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType

from callbets import AnnouncementError, parse
from callbets.errors import InputError
from callbets.language.grammar import language
from callbets.regress.runner import load_baseline, load_suite
from callbets.roulette.house import find_house
from callbets.speech.audio import read_wav
from callbets.speech.models import install

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("fr", "it", "en")


def corpus() -> list[tuple[str, str]]:
    out = []
    for path in sorted((ROOT / "tests" / "corpus").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            case = json.loads(line)
            out.append((case["lang"], case["text"]))
    return out


def generator(seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    cases = corpus()
    vocab = {lang: language(lang).lexicon.vocabulary() for lang in LANGS}
    extra = ["17", "5/8", "-", "=", "€", "×", ",", "0", "100", "9" * 12, "\x1b[31m", "\u202e"]

    def soup(lang: str) -> str:
        return " ".join(rng.choice(vocab[lang] + extra) for _ in range(rng.randrange(1, 60)))

    def mutant(lang: str) -> str:
        text = rng.choice([t for lg, t in cases if lg == lang])
        words = text.split()
        for _ in range(rng.randrange(1, 4)):
            op = rng.randrange(4)
            i = rng.randrange(len(words)) if words else 0
            if op == 0 and words:
                del words[i]
            elif op == 1 and words:
                words.insert(i, words[i])
            elif op == 2 and len(words) > 1:
                j = min(i + 1, len(words) - 1)
                words[i], words[j] = words[j], words[i]
            else:
                words.insert(i, rng.choice(vocab[lang]))
        return " ".join(words)

    def garbage(_: str) -> str:
        size = rng.choice([10, 100, 500, 2000])
        return "".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0x80, 0x3000)]))
                       for _ in range(size))  # fmt: skip

    def repeated(lang: str) -> str:
        word = rng.choice(vocab[lang] + ["trentatre", "vingt", "dix", "un", "rouge et"])
        return (word + rng.choice(["", " "])) * rng.randrange(10, 400)

    kinds = {"soup": soup, "mutant": mutant, "garbage": garbage, "repeated": repeated}
    while True:
        lang = rng.choice(LANGS)
        kind = rng.choice(list(kinds))
        yield kind, lang, kinds[kind](lang)


def run_api(n: int, seed: int) -> int:
    kinds: Counter[str] = Counter()
    outcome: Counter[str] = Counter()
    per_kb: list[float] = []
    worst = (0.0, "")
    bad = 0
    start = time.perf_counter()
    for _, (kind, lang, text) in zip(range(n), generator(seed), strict=False):
        t0 = time.perf_counter()
        try:
            parse(text, lang)
            outcome["accepted"] += 1
        except AnnouncementError as err:
            outcome[err.kind] += 1
        except Exception as err:
            bad += 1
            print(f"NOT OUR ERROR {type(err).__name__}: {err} on {text[:80]!r}")
        dt = time.perf_counter() - t0
        kinds[kind] += 1
        size = len(text.encode("utf-8"))
        if size >= 256:  # below, the fixed cost of a call dominates
            per_kb.append(dt / size * 1024)
        if dt > worst[0]:
            worst = (dt, text[:60])
    elapsed = time.perf_counter() - start
    per_kb.sort()
    print(f"API: {n} inputs in {elapsed:.1f} s ({n / elapsed:,.0f}/s); kinds {dict(kinds)}")
    print(f"     outcomes {dict(outcome)}; not callbets' own errors: {bad}")
    print(f"     time per kilobyte (inputs of 256 bytes or more): "
          f"median {statistics.median(per_kb) * 1000:.2f} ms, "
          f"p99 {per_kb[int(0.99 * len(per_kb))] * 1000:.2f} ms, max {per_kb[-1] * 1000:.1f} ms; "
          f"slowest input {worst[0] * 1000:.1f} ms ({worst[1]!r})")  # fmt: skip
    return bad


def run_stream(lines: int, seed: int) -> int:
    rng = random.Random(seed)
    chunks = []
    for _ in range(lines):
        size = rng.choice([0, 5, 30, 200, 5000])
        chunks.append(bytes(rng.randrange(256) for _ in range(size)).replace(b"\n", b" "))
    data = b"\n".join(chunks) + b"\n"
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "callbets", "parse", "--jsonl"], input=data,
                          capture_output=True, check=False)  # fmt: skip
    elapsed = time.perf_counter() - start
    out = proc.stdout.decode("utf-8").split("\n")[:-1]
    expected = sum(1 for c in chunks if c.removesuffix(b"\r").decode("utf-8", "replace").strip())
    kinds = Counter(json.loads(line).get("error", {}).get("kind", "ok") for line in out)
    print(
        f"--jsonl: {lines} random byte lines ({len(data) / 1e6:.1f} MB) in {elapsed:.1f} s, "
        f"{len(out)} answers for {expected} non-blank lines, exit {proc.returncode}, "
        f"kinds {dict(kinds)}"
    )
    return int(len(out) != expected or proc.returncode != 0 or b"Traceback" in proc.stderr)


# ---- the table's doors (issue 22) -----------------------------------------------------------
SECRET = "Fz-s3cret-9q"
"""The password every URL and connection string of the run holds: it must never be shown."""
CONTROLS = ["\x1b[2J", "\x1b]0;pwned\x07", "\x07", "\x9b31m", "\u202e", "\r", "\x7f",
            "\x1bP+q\x1b\\", "\x08\x08", "\u2028"]  # fmt: skip
DOORS_TIMEOUT_S = 30
"""A command that takes longer has hung (a connection is given up after 5 s)."""


def hostile_url(rng: random.Random) -> str:
    """A database location: malformed, or well formed and out of reach, mostly with the
    password in it (in the user part, the query or a key/value string)."""
    if rng.random() < 0.15:
        return rng.choice([f"host=127.0.0.1 port=1 password={SECRET} dbname=casino",
                           f"dbname=casino password='{SECRET} x' host=nohost.invalid",
                           f"password={SECRET}"])  # fmt: skip
    scheme = rng.choice(["postgresql://", "postgres://", "POSTGRESQL://"])
    user = rng.choice(["", "pit@", f"pit:{SECRET}@", f":{SECRET}@", f"pit:%zz{SECRET}@",
                       f"pit:{SECRET}@x@"])  # fmt: skip
    host = rng.choice(["127.0.0.1", "[::1", "[::1]", "::1", "", "[", "nohost.invalid", "h\x1b[2J"])
    port = rng.choice(["", ":1", ":99999", ":x", ":-1", ":1" + "0" * 30])
    path = rng.choice(["/casino", "/d%zz", "", "/", "/casino\x07"])
    table = rng.choice(["T1", "a:b", "x" * 41, "T\x1b[2J", ""])
    query = rng.sample([f"table={table}",
                        f"password={SECRET}", "sslmode=bogus", "foo=bar", "%", "table=T2"],
                       rng.randrange(0, 3))  # fmt: skip
    return f"{scheme}{user}{host}{port}{path}" + ("?" + "&".join(query) if query else "")


def hostile_name(rng: random.Random) -> str:
    """A player, a croupier or an announcement with control characters in it."""
    base = rng.choice(["rouge", "bleu", "marie", "rouge à 5", "17 en plein à 10", ""])
    for _ in range(rng.randrange(1, 4)):
        i = rng.randrange(len(base) + 1)
        base = base[:i] + rng.choice(CONTROLS) + base[i:]
    return base


def hostile_integer(rng: random.Random) -> str:
    """A number a command line takes, far out of range or not plainly written."""
    return rng.choice([str(2**63), str(2**63 - 1), str(-(2**63) - 1), str(2**31), "9" * 40,
                       str(rng.randrange(2**64, 2**200)), "1e9", "0x10", "١٢", "-0", " 7",
                       f"{2**63}.{2**63}", "1." + "9" * 30])  # fmt: skip


def door_cases(
    rng: random.Random, tables: list[str], folder: Path
) -> Iterator[tuple[str, list[str]]]:
    """(kind, the command's words), forever."""
    while True:
        kind = rng.choice(["url", "name", "integer"])
        if kind == "url":
            url = hostile_url(rng)
            yield kind, rng.choice([["table", "--table", url, "show"],
                                    ["table", "--table", url, "open"],
                                    ["table", "--table", url, "bet", "rouge", "rouge à 5"],
                                    ["db", "upgrade", url], ["floor", "--table", url, "--json"],
                                    ["floor", "--table", url, "--once"]])  # fmt: skip
        elif kind == "name":
            name, table = hostile_name(rng), rng.choice(tables)
            yield kind, rng.choice([["table", "--table", table, "player", name],
                                    ["table", "--table", table, "bet", name, "rouge à 5"],
                                    ["table", "--table", table, "bet", "rouge", name],
                                    ["table", "--table", table, "bet", "--id", name, "rouge",
                                     "rouge à 5"],
                                    ["table", "--table", table, "--croupier", name, "close"],
                                    ["table", "--table", str(folder / f"{name}.sqlite"), "open"],
                                    ["table", "--table", table, "replay", name, "tout"],
                                    ["floor", "--table", table, "--once"]])  # fmt: skip
        else:
            number, table = hostile_integer(rng), rng.choice(tables)
            yield kind, rng.choice([["table", "--table", table, "confirm", number],
                                    ["table", "--table", table, "cancel", number],
                                    ["table", "--table", table, "replay", number, "tout"],
                                    ["table", "--table", table, "spin", number],
                                    ["table", "--table", table, "spin", "3", "--round", number],
                                    ["table", "--table", table, "spin", "0", "--choice",
                                     f"{number}=half"],
                                    ["floor", "--table", table, "--every", number,
                                     "--once"]])  # fmt: skip


def raw_controls(data: bytes) -> int:
    """How many control characters (but line breaks and tabs) a terminal would be sent."""
    text = data.decode("utf-8", "replace")
    return sum(c not in "\n\t" and unicodedata.category(c).startswith("C") for c in text) + (
        text.count("\ufffd") - data.decode("utf-8", "ignore").count("\ufffd")
    )


def run_doors(n: int, seed: int, postgres: str | None) -> int:
    """Hostile table-command inputs, each in its own ``callbets`` process (with ``-v`` and
    ``--log``, so the log is checked too)."""
    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix="callbets-fuzz-doors-"))
    run = uuid.uuid4().hex[:6]
    tables = [str(folder / "t.sqlite")]
    if postgres:
        tables.append(f"{postgres}?table=fuzz-{run}")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    for table in tables:  # run in the run's folder: a location taken for a file is made there
        for words in (["open"], ["player", "rouge"], ["bet", "rouge", "rouge à 5"]):
            subprocess.run([sys.executable, "-m", "callbets", "table", "--table", table, *words],
                           capture_output=True, check=True, cwd=folder, env=env)  # fmt: skip
    log = folder / "callbets.log"
    tried: Counter[str] = Counter()
    exits: Counter[int] = Counter()
    unexpected = hangs = secrets = raw = 0
    start = time.perf_counter()
    for _, (kind, words) in zip(range(n), door_cases(rng, tables, folder), strict=False):
        tried[kind] += 1
        command = [sys.executable, "-m", "callbets", "-v", "--log", str(log), *words]
        try:
            proc = subprocess.run(command, capture_output=True, timeout=DOORS_TIMEOUT_S,
                                  cwd=folder, env=env, check=False)  # fmt: skip
        except subprocess.TimeoutExpired:
            hangs += 1
            print(f"HUNG {words!r}")
            continue
        exits[proc.returncode] += 1
        said = proc.stdout + proc.stderr
        if proc.returncode not in (0, 1, 2) or b"Traceback" in proc.stderr:
            unexpected += 1
            print(f"UNEXPECTED exit {proc.returncode} {words!r}: {proc.stderr[-300:]!r}")
        if SECRET.encode() in said:
            secrets += 1
            print(f"SECRET SHOWN {words!r}: {said[-300:]!r}")
        if raw_controls(said):
            raw += 1
            print(f"RAW CONTROL {words!r}: {said[-300:]!r}")
    logged = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
    secrets += SECRET in logged
    raw += raw_controls(logged.encode("utf-8"))
    elapsed = time.perf_counter() - start
    backends = "SQLite and PostgreSQL" if postgres else "SQLite only"
    print(f"doors: {n} table commands in {elapsed:.1f} s ({backends}); tried {dict(tried)}; "
          f"exits {dict(sorted(exits.items()))}")  # fmt: skip
    print(
        f"       unexpected errors {unexpected}, hangs (over {DOORS_TIMEOUT_S} s) {hangs}, "
        f"secrets shown or logged {secrets}, raw control characters on stdout/stderr/log {raw}"
    )
    return unexpected + hangs + secrets + raw


# ---- hostile files (issue 22) ----------------------------------------------------------
HANG_SECONDS = 20
"""An API call or a command that takes longer than this on one file has hung."""


def _model_zip(path: Path, rng: random.Random, method: int = zipfile.ZIP_DEFLATED) -> Path:
    with zipfile.ZipFile(path, "w", method) as zf:
        zf.writestr(
            "m/am/final.mdl", bytes(rng.randrange(256) for _ in range(rng.randrange(1, 4000)))
        )
        zf.writestr("m/conf/model.conf", b"--beam=10.0\n--max-active=3000\n")
        zf.writestr("m/graph/HCLr.fst", b"fst")
    return path


def _patch(path: Path, member: str, local: dict[int, bytes], central: dict[int, bytes]) -> None:
    data = bytearray(path.read_bytes())
    name = member.encode()
    at = data.index(name) - 30
    for offset, value in local.items():
        data[at + offset : at + offset + len(value)] = value
    at = data.index(b"PK\x01\x02")
    while data[at + 46 : at + 46 + len(name)] != name:
        at = data.index(b"PK\x01\x02", at + 4)
    for offset, value in central.items():
        data[at + offset : at + offset + len(value)] = value
    path.write_bytes(bytes(data))


def _special_member(path: Path, rng: random.Random, kind: int, target: bytes) -> Path:
    _model_zip(path, rng)
    with zipfile.ZipFile(path, "a") as zf:
        info = zipfile.ZipInfo(rng.choice(["m/graph/x", "m/am/final2.mdl", "m/x"]))
        info.external_attr = (kind | 0o644) << 16
        zf.writestr(info, target)
    return path


ARCHIVE_KINDS = ["encrypted", "method", "corrupt", "nested", "bomb", "symlink", "special",
                 "truncated", "bytes", "lying", "many", "junk", "config", "unsafe"]  # fmt: skip
SPECIAL = [stat.S_IFIFO, stat.S_IFCHR, stat.S_IFBLK, stat.S_IFSOCK]


def hostile_archive(rng: random.Random, path: Path) -> tuple[str, Path]:
    """A generated hostile model archive: its kind and its path."""
    kind = rng.choice(ARCHIVE_KINDS)
    if kind == "encrypted":
        _patch(_model_zip(path, rng), "m/am/final.mdl", {6: b"\x01"}, {8: b"\x01"})
    elif kind == "method":
        code = struct.pack("<H", rng.choice([9, 10, 14, 97, 98, 99, 0xFFFF]))
        _patch(_model_zip(path, rng), "m/am/final.mdl", {8: code}, {10: code})
    elif kind == "corrupt":
        data = bytearray(_model_zip(path, rng).read_bytes())
        for _ in range(rng.randrange(1, 20)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        path.write_bytes(bytes(data))
    elif kind == "nested":
        _model_zip(path, rng)
        with zipfile.ZipFile(path, "a") as zf:
            zf.writestr("m/" + "d/" * rng.randrange(33, 600) + "f", b"x")
    elif kind == "bomb":
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr("m/conf/model.conf", b"--beam=10.0\n")
            zf.writestr("m/am/final.mdl", bytes(rng.randrange(2, 40) * 1024**2))
    elif kind in ("symlink", "special"):
        mode = stat.S_IFLNK if kind == "symlink" else rng.choice(SPECIAL)
        _special_member(path, rng, mode, rng.choice([b"/etc/passwd", b"../../x", b"/dev/zero"]))
    elif kind == "truncated":
        whole = _model_zip(path, rng).read_bytes()
        path.write_bytes(whole[: rng.randrange(len(whole))])
    elif kind == "bytes":
        path.write_bytes(rng.choice([b"PK\x03\x04", b"PK\x05\x06", b""]) + rng.randbytes(300))
    elif kind == "lying":  # the inflated size (local and central), or the packed size
        size = struct.pack("<I", rng.choice([0, 1, 100, 0xFFFFFFFF]))
        at = rng.choice([(22, 24), (18, 20)])
        _patch(_model_zip(path, rng), "m/am/final.mdl", {at[0]: size}, {at[1]: size})
    elif kind == "many":  # many members, each under the size a ratio is checked from
        _model_zip(path, rng)
        with zipfile.ZipFile(path, "a", zipfile.ZIP_DEFLATED) as zf:
            for i in range(rng.randrange(5, 40)):
                zf.writestr(f"m/graph/{i}", bytes(rng.randrange(500_000, 1_040_000)))
    elif kind == "junk":
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr("junk/data.bin", rng.randbytes(rng.randrange(1, 200_000)))
    elif kind == "config":
        with zipfile.ZipFile(path, "w") as zf:
            zf.writestr("m/am/final.mdl", rng.randbytes(100))
            zf.writestr("m/conf/model.conf", rng.choice([rng.randbytes(50), b"garbage\n", b""]))
    else:
        _model_zip(path, rng)
        with zipfile.ZipFile(path, "a") as zf:
            zf.writestr(rng.choice(["../evil", "/etc/evil", "m/../../evil", "c:evil"]), b"x")
    return kind, path


def hostile_wav(rng: random.Random, path: Path) -> tuple[str, Path]:
    """A generated hostile WAV: a real one with its header or data damaged."""
    with wave.open(str(path), "wb") as w:
        w.setnchannels(rng.choice([1, 2]))
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(rng.randbytes(2 * rng.randrange(1, 8000) * 2))
    data = bytearray(path.read_bytes())
    kind = rng.choice(["field", "truncated", "garbage", "bytes", "chunk"])
    if kind == "field":  # channels, rate, byte rate, align, bits, data size
        at = rng.choice([22, 24, 28, 32, 34, 40])
        width = 2 if at in (22, 32, 34) else 4
        value = rng.choice([0, 1, 3, 255, 0xFFFF, 0x7FFFFFFF, 0xFFFFFFFF, rng.randrange(2**16)])
        data[at : at + width] = (value % 2 ** (8 * width)).to_bytes(width, "little")
    elif kind == "truncated":
        data = data[: rng.randrange(len(data))]
    elif kind == "garbage":
        data = data[:12] + bytearray(rng.randbytes(rng.randrange(1, 3000)))
    elif kind == "bytes":
        data = bytearray(rng.randbytes(rng.randrange(0, 3000)))
    else:  # a chunk whose size runs past the end
        data[16:20] = rng.choice([0x7FFFFFFF, 0xFFFFFFFF, 1]).to_bytes(4, "little")
    path.write_bytes(bytes(data))
    return kind, path


class Hang(Exception):
    """An API call that took longer than :data:`HANG_SECONDS`."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang


def _refused(call: Callable[[], object]) -> str:
    """'refused' (callbets' own InputError), 'accepted', 'hang', or the unexpected error."""
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(HANG_SECONDS)
    try:
        call()
        return "accepted"
    except InputError:
        return "refused"
    except Hang:
        return "hang"
    except Exception as err:
        return f"{type(err).__name__}: {err}"
    finally:
        signal.alarm(0)


OK_COMMAND = ("refused", "accepted", "hang")


def _command(args: list[str], env: dict[str, str], accepted: bool) -> str:
    """'refused' (exit 2, one line on stderr), 'accepted' (exit 0 or 1, for a file the
    API accepted: still valid after the damage), 'hang', or what else happened."""
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "callbets", *args],
            capture_output=True, text=True, timeout=HANG_SECONDS, env={**os.environ, **env},
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return "hang"
    lines = proc.stderr.strip().splitlines()
    if accepted and proc.returncode in (0, 1) and "Traceback" not in proc.stderr:
        return "accepted"
    if proc.returncode == 2 and len(lines) == 1 and "Traceback" not in proc.stderr:
        return "refused"
    return f"exit {proc.returncode}: {proc.stderr.strip()[-200:]!r}"


def _cases(n: int, seed: int, folder: Path) -> Iterator[tuple[str, str, Path]]:
    """(family, kind, path) of ``n`` generated hostile files, and the things that are
    not regular files."""
    rng = random.Random(seed)
    pipe = folder / "pipe"
    os.mkfifo(pipe)
    for kind, odd in (("pipe", pipe), ("device", Path("/dev/zero")), ("folder", folder)):
        yield "not a file", kind, odd
    for i in range(n):
        if i % 2:
            yield "archive", *hostile_archive(rng, folder / f"a{i}.zip")
        else:
            yield "wav", *hostile_wav(rng, folder / f"w{i}.wav")


def _calls(
    family: str, path: Path, models: Path
) -> tuple[dict[str, Callable[[], object]], list[str]]:
    """The API calls that read a file of this family, and the command that does."""
    if family == "archive":
        return {"install": lambda: install(path, "fr", models)}, [
            "models", "install", str(path), "--lang", "fr"]  # fmt: skip
    if family == "wav":
        return {"read_wav": lambda: read_wav(path)}, [
            "transcribe", "--engine", "pocketsphinx", str(path)]  # fmt: skip
    calls: dict[str, Callable[[], object]] = {
        "read_wav": lambda: read_wav(path),
        "install": lambda: install(path, "fr", models),
        "house": lambda: find_house(str(path)),
        "suite": lambda: load_suite(path),
        "baseline": lambda: load_baseline(path),
    }
    return calls, ["models", "install", str(path), "--lang", "fr"]


def run_files(n: int, seed: int, commands: int) -> int:
    """Hostile files through the APIs (every one) and the commands (``commands`` of each
    family); returns the count of unexpected outcomes and hangs."""
    tried: Counter[str] = Counter()
    outcome: Counter[str] = Counter()
    unexpected: list[str] = []
    ran: Counter[str] = Counter()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = {"CALLBETS_MODELS": str(folder / "models")}
        for family, kind, path in _cases(n, seed, folder):
            tried[f"{family}/{kind}"] += 1
            calls, cmd = _calls(family, path, folder / "models")
            accepted = False
            for name, call in calls.items():
                got = _refused(call)
                accepted = accepted or got == "accepted"
                if got == "accepted":  # still a valid file after the damage (a WAV's byte rate)
                    outcome[f"accepted {family}/{kind}"] += 1
                else:
                    outcome[got if got in ("refused", "hang") else "unexpected"] += 1
                if got not in ("refused", "accepted"):
                    unexpected.append(f"{name} {family}/{kind} {path.name}: {got}")
            if family == "not a file" or ran[family] < commands:
                ran[family] += 1
                got = _command(cmd, env, accepted)
                outcome[f"command {got if got in OK_COMMAND else 'unexpected'}"] += 1
                if got not in ("refused", "accepted"):
                    unexpected.append(f"callbets {' '.join(cmd[:2])} {family}/{kind}: {got}")
        leftovers = [p.name for p in (folder / "models").glob(".callbets-install-*")]
    elapsed = time.perf_counter() - start
    hangs = sum(v for k, v in outcome.items() if k.endswith("hang"))
    print(f"files: {sum(tried.values())} hostile files in {elapsed:.1f} s; kinds {dict(tried)}")
    print(f"       API calls and commands: {dict(outcome)}; commands run {dict(ran)}")
    print(f"       unexpected errors {len(unexpected) - hangs}, hangs {hangs}, "
          f"install leftovers {len(leftovers)}")  # fmt: skip
    for line in unexpected[:20]:
        print(f"       UNEXPECTED {line}")
    return len(unexpected) + len(leftovers)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--inputs", type=int, default=100_000)
    ap.add_argument("--lines", type=int, default=20_000)
    ap.add_argument("--files", type=int, default=400, help="hostile files generated")
    ap.add_argument("--commands", type=int, default=15, help="of each family, run by command")
    ap.add_argument("--only", choices=["text", "files", "doors"], help="run one section only")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--doors", type=int, default=300, help="table commands to try")
    ap.add_argument("--postgres", metavar="URL", help="a database with the callbets schema")
    args = ap.parse_args()
    bad = 0
    if args.only in (None, "text"):
        bad += run_api(args.inputs, args.seed) + run_stream(args.lines, args.seed)
    if args.only in (None, "files"):
        bad += run_files(args.files, args.seed, args.commands)
    if args.only in (None, "doors"):
        bad += run_doors(args.doors, args.seed, args.postgres)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
