"""Where Vosk models live, how one is installed, and whether it can serve callbets.

callbets never downloads a model.  It looks for ``<lang>`` (a folder holding one
unpacked model) in, in order:

1. ``--model PATH`` or ``$CALLBETS_VOSK_MODEL_<LANG>`` (a model folder itself);
2. ``$CALLBETS_MODELS/<lang>``;
3. the user's data folder, ``$XDG_DATA_HOME/callbets/models/<lang>``
   (``~/.local/share/callbets/models/<lang>``);
4. ``models/<lang>`` of a source checkout (never inside an installed package).

``callbets models install ZIP`` unpacks a downloaded model archive into 3 (or 2).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..language.grammar import LANGUAGES
from ..messages import said
from . import BadSpeechFile, ModelUnusable, SpeechUnavailable
from .archive import open_model_archive
from .vosk_words import missing_words


def data_dir() -> Path:
    """The user's callbets model folder (``$XDG_DATA_HOME`` or ``~/.local/share``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "callbets" / "models"


def checkout_dir() -> Path | None:
    """``models/`` of the source checkout this code runs from, if it runs from one."""
    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file() and (root / "models").is_dir():
        return root / "models"
    return None


def search_path() -> list[Path]:
    """The folders searched for ``<lang>/``, in order."""
    folders = []
    if os.environ.get("CALLBETS_MODELS"):
        folders.append(Path(os.environ["CALLBETS_MODELS"]))
    folders.append(data_dir())
    checkout = checkout_dir()
    if checkout is not None:
        folders.append(checkout)
    return folders


def model_path(lang: str, given: str | None = None) -> Path:
    """The model folder for a language: the first found along the search path (or,
    when none is found, where the first place would be, for the error message)."""
    if given:
        return Path(given)
    env = os.environ.get(f"CALLBETS_VOSK_MODEL_{lang.upper()}")
    if env:
        return Path(env)
    candidates = [folder / lang for folder in search_path()]
    return next((p for p in candidates if is_model(p)), candidates[0])


def is_model(path: Path) -> bool:
    """Whether a folder looks like an unpacked Vosk model."""
    return (path / "am").is_dir() or (path / "conf" / "model.conf").is_file()


def check_model_dir(path: Path) -> None:
    """Refuse, with the reason, a folder that is not a Vosk model taking runtime grammars.

    :raises SpeechUnavailable: missing folder, or a model with a static graph.
    """
    if not is_model(path):
        places = ", ".join(str(p) for p in search_path())
        raise ModelUnusable(said("vosk_no_model", path=path, places=places))
    graph = path / "graph"
    if (graph / "HCLG.fst").exists() and not (graph / "HCLr.fst").exists():
        raise ModelUnusable(said("vosk_static_graph", path=path))


def folder_size(path: Path) -> int:
    """Bytes under a folder."""
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


@dataclass
class ModelReport:
    """What ``callbets models`` says of one language."""

    lang: str
    path: Path
    found: bool
    problems: list[str] = field(default_factory=list)
    missing_words: list[str] = field(default_factory=list)
    size: int = 0
    checked_words: bool = False

    @property
    def usable(self) -> bool:
        """Found, takes runtime grammars, knows every grammar word."""
        return self.found and not self.problems and not self.missing_words

    def lines(self) -> list[str]:
        """Plain-text report."""
        if not self.found:
            return [f"{self.lang}: no model (looked for {self.path})"]
        head = f"{self.lang}: {self.path} ({self.size / 1e6:.0f} MB)"
        out = [head + (" ok" if self.usable else "")]
        out += [f"  problem: {p}" for p in self.problems]
        if self.missing_words:
            out.append(
                f"  lacks {len(self.missing_words)} grammar words: " + ", ".join(self.missing_words)
            )
        elif not self.checked_words and not self.problems:
            out.append("  lexicon not checked (vosk is not installed)")
        return out


def check(lang: str, given: str | None = None, load: Any = None) -> ModelReport:
    """Check a language's model: where, runtime grammars, lexicon coverage, size.

    ``load(path)`` returns an object with ``vosk_model_find_word`` (default: vosk.Model).
    """
    path = model_path(lang, given)
    report = ModelReport(lang, path, is_model(path))
    if not report.found:
        return report
    report.size = folder_size(path)
    try:
        check_model_dir(path)
    except SpeechUnavailable as err:
        report.problems.append(str(err))
        return report
    if load is None:
        try:
            import vosk  # optional dependency (the speech extra)
        except ImportError:
            return report
        vosk.SetLogLevel(-2)  # Kaldi's warnings too: callbets says what matters itself
        load = vosk.Model
    try:
        found = load(str(path))
    except Exception as err:  # Vosk raises a bare Exception for a broken model
        report.problems.append(f"Vosk cannot load it: {err}")
        return report
    report.checked_words = True
    report.missing_words = missing_words(found.vosk_model_find_word, lang)
    return report


_NAME_LANG = re.compile(r"vosk-model-(?:small-)?([a-z]{2})(?:-[a-z]{2})?-")


def language_of(archive: Path) -> str | None:
    """The language a model archive is for, from its name (vosk-model-small-fr-0.22)."""
    match = _NAME_LANG.search(archive.name)
    return match.group(1) if match and match.group(1) in LANGUAGES else None


TEMP_PREFIX = ".callbets-install-"
"""The name of a folder an install unpacks into, beside the models:
``.callbets-install-<lang>-<pid>-<random>``; the previous model waits in it as ``old``
while the new one takes its place."""

STALE_SECONDS = 24 * 3600
"""A leftover folder this old is removed even if its process id is alive again."""


def install_dir() -> Path:
    """Where ``callbets models install`` puts models: ``$CALLBETS_MODELS``, else the
    user's data folder."""
    given = os.environ.get("CALLBETS_MODELS")
    return Path(given) if given else data_dir()


def clean_leftovers(folder: Path | None = None) -> list[Path]:
    """Remove what an install killed midway left in ``folder`` (default: the install
    folder): its unpacking folders, once their process is gone; a previous model that
    was set aside and not yet replaced is put back.  Returns what was removed."""
    folder = folder or install_dir()
    try:
        found = [p for p in folder.iterdir() if p.is_dir() and not p.is_symlink()]
    except OSError:
        return []
    removed = _clean_older(folder, found)
    for leftover in (p for p in found if p.name.startswith(TEMP_PREFIX)):
        lang, _, rest = leftover.name.removeprefix(TEMP_PREFIX).partition("-")
        pid = rest.partition("-")[0]
        try:
            fresh = time.time() - leftover.stat().st_mtime < STALE_SECONDS
        except OSError:
            continue
        if pid.isdigit() and fresh and _alive(int(pid)):
            continue  # an install running now
        old = leftover / "old"
        if lang in LANGUAGES and old.is_dir() and not (folder / lang).exists():
            with contextlib.suppress(OSError):
                old.rename(folder / lang)
        shutil.rmtree(leftover, ignore_errors=True)
        removed.append(leftover)
    return removed


_OLDER_TEMP = re.compile(r"tmp[a-z0-9_]{8}")


def _clean_older(folder: Path, found: list[Path]) -> list[Path]:
    """What an install by an earlier callbets, killed midway, left: ``tmpXXXXXXXX/unpacked``
    (removed) and ``.<lang>.old`` (put back if ``<lang>`` is missing, else removed)."""
    removed = []
    for p in found:
        with contextlib.suppress(OSError):
            if _OLDER_TEMP.fullmatch(p.name) and [c.name for c in p.iterdir()] == ["unpacked"]:
                shutil.rmtree(p, ignore_errors=True)
                removed.append(p)
            elif (lang := p.name[1:-4]) in LANGUAGES and p.name == f".{lang}.old":
                if not (folder / lang).exists():
                    p.rename(folder / lang)
                else:
                    shutil.rmtree(p, ignore_errors=True)
                    removed.append(p)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # someone else's process
    return True


def install(
    archive: Path,
    lang: str | None = None,
    into: Path | None = None,
    load: Callable[[str], object] | None = None,
) -> Path:
    """Unpack a downloaded model archive to ``<into>/<lang>`` (default: the install
    folder); the archive is checked before anything is written (see
    :mod:`callbets.speech.archive`), unpacked beside the models, and loaded (``load``,
    default: Vosk if it is installed); only a model that loads replaces the previous one
    of that language.

    :raises BadSpeechFile: unreadable, unsafe or hostile archive, unknown language, not
        a model, or a model that does not load; the previous model is kept.
    :raises InputError: the archive is not a regular file.
    """
    lang = lang or language_of(archive)
    if lang not in LANGUAGES:
        raise BadSpeechFile(said("archive_language", name=archive.name, langs=", ".join(LANGUAGES)))
    into = into or install_dir()
    try:
        into.mkdir(parents=True, exist_ok=True)
        clean_leftovers(into)
        with contextlib.ExitStack() as stack:
            model = open_model_archive(archive, stack, room=into)
            tmp = Path(tempfile.mkdtemp(prefix=f"{TEMP_PREFIX}{lang}-{os.getpid()}-", dir=into))
            stack.callback(shutil.rmtree, tmp, ignore_errors=True)
            unpacked = tmp / "model"
            unpacked.mkdir()
            model.extract(unpacked)
            try:
                check_model_dir(unpacked)
            except SpeechUnavailable as err:
                raise BadSpeechFile(*err.args) from None
            _loads(archive, unpacked, load)
            target = into / lang
            if target.exists():
                target.rename(tmp / "old")
            unpacked.rename(target)
            return target
    except OSError as err:
        reason = err.strerror or str(err)
        raise BadSpeechFile(said("archive_failed", path=archive, reason=reason)) from None


def _loads(archive: Path, folder: Path, load: Callable[[str], object] | None) -> None:
    """Refuse an unpacked model that does not load (Vosk's noise kept off the terminal)."""
    if load is None:
        try:
            import vosk  # optional dependency (the speech extra)
        except ImportError:
            return  # the archive's structure and model.conf were checked before unpacking
        vosk.SetLogLevel(-2)
        load = vosk.Model
    try:
        with _quiet_stderr():  # Kaldi prints its options' help straight to stderr
            load(str(folder))
    except Exception as err:  # Vosk raises a bare Exception for a broken model
        reason = str(err) or type(err).__name__
        raise BadSpeechFile(said("model_does_not_load", path=archive, reason=reason)) from None


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """File descriptor 2 sent to /dev/null (what a C++ library writes there too)."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
