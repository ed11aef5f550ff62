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

import os
import re
import shutil
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..language.grammar import LANGUAGES
from . import SpeechUnavailable
from .vosk_words import missing_words

MAX_ARCHIVE_BYTES = 4 * 1024**3
"""The most an archive may unpack to (the small models are about 50 MB, big ones 2 GB)."""


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
        raise SpeechUnavailable(
            f"no Vosk model at {path} (looked in {places}); fetch one and run "
            "'callbets models install FILE.zip' (see models/README.md)"
        )
    graph = path / "graph"
    if (graph / "HCLG.fst").exists() and not (graph / "HCLr.fst").exists():
        raise SpeechUnavailable(
            f"the Vosk model at {path} has a static graph (HCLG.fst) and ignores runtime "
            "grammars; use a small model such as vosk-model-small-fr-0.22"
        )


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


def _safe_members(zf: zipfile.ZipFile) -> list[zipfile.ZipInfo]:
    """The archive's members, refusing absolute paths, '..', links and zip bombs."""
    members = zf.infolist()
    total = 0
    for m in members:
        parts = Path(m.filename).parts
        if m.filename.startswith(("/", "\\")) or ".." in parts or ":" in m.filename:
            raise SpeechUnavailable(f"the archive holds an unsafe path: {m.filename!r}")
        if (m.external_attr >> 16) & 0o170000 == 0o120000:
            raise SpeechUnavailable(f"the archive holds a symbolic link: {m.filename!r}")
        total += m.file_size
    if total > MAX_ARCHIVE_BYTES:
        raise SpeechUnavailable(f"the archive unpacks to {total / 1e9:.1f} GB: not a model")
    return members


def install(archive: Path, lang: str | None = None, into: Path | None = None) -> Path:
    """Unpack a downloaded model archive to ``<into>/<lang>`` (default: the user's data
    folder, or ``$CALLBETS_MODELS``); the previous model of that language is replaced only
    once the new one is unpacked and checked.

    :raises SpeechUnavailable: unreadable or unsafe archive, unknown language, not a model.
    """
    lang = lang or language_of(archive)
    if lang not in LANGUAGES:
        raise SpeechUnavailable(
            f"which language is {archive.name} for? say --lang ({', '.join(LANGUAGES)})"
        )
    into = into or (Path(os.environ["CALLBETS_MODELS"]) if os.environ.get("CALLBETS_MODELS")
                    else data_dir())  # fmt: skip
    into.mkdir(parents=True, exist_ok=True)
    try:
        with zipfile.ZipFile(archive) as zf, tempfile.TemporaryDirectory(dir=into) as tmp:
            unpacked = Path(tmp) / "unpacked"
            zf.extractall(unpacked, _safe_members(zf))
            root = _model_root(unpacked)
            check_model_dir(root)
            target = into / lang
            old = into / f".{lang}.old"
            if target.exists():
                shutil.rmtree(old, ignore_errors=True)
                target.rename(old)
            root.rename(target)
            shutil.rmtree(old, ignore_errors=True)
            return target
    except (OSError, zipfile.BadZipFile) as err:
        raise SpeechUnavailable(f"cannot install {archive}: {err}") from None


def _model_root(folder: Path) -> Path:
    """The model folder inside an unpacked archive (its only top folder, or itself)."""
    if is_model(folder):
        return folder
    tops = [p for p in folder.iterdir() if p.is_dir()]
    if len(tops) == 1 and is_model(tops[0]):
        return tops[0]
    raise SpeechUnavailable("the archive holds no Vosk model (no am/ or conf/model.conf)")
