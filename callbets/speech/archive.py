"""A model archive (a zip) looked at before anything of it is written, then unpacked
under a cap on the bytes really written.

Before extracting, every member must be a plain file or folder at a safe path, not too
deep, neither encrypted nor packed with a method Python cannot unpack, nor inflating to
far more than its packed size; the packed sizes must fit the file, the whole must not
inflate to far more than the archive, and the declared sizes must fit the cap and the
free space;
and the archive must hold a model (``am/`` with files, ``conf/model.conf``), at its top
or in its only top folder.  Declared sizes can lie: unpacking counts what it writes.
"""

from __future__ import annotations

import os
import shutil
import stat
import zipfile
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

from ..files import open_regular
from ..messages import said
from . import BadSpeechFile

MAX_ARCHIVE_BYTES = 4 * 1024**3
"""The most an archive may unpack to (the small models are about 50 MB, big ones 2 GB)."""

MAX_MEMBERS = 20_000
"""The most members a model archive may hold (a model has a few dozen)."""

MAX_DEPTH = 32
"""The most folders deep a member may lie (a model's files are 2 or 3 deep)."""

MAX_RATIO = 200
"""The most a member larger than :data:`RATIO_FROM` bytes may inflate to, times its
packed size (a model's files pack to between a tenth and the whole of their size)."""

RATIO_FROM = 1024**2

MAX_TOTAL_RATIO = 20
"""The most a whole archive may inflate to, times its own size (a model packs to half
its size or more: its graphs and acoustic model are dense)."""

METHODS = {zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA}
"""The compression methods Python unpacks (not deflate64, 9, nor any other)."""

CHUNK = 1024**2


@dataclass
class ModelArchive:
    """An archive checked to hold a model: the members under its root, and their size."""

    path: Path
    zip: zipfile.ZipFile
    root: str
    """The model's folder in the archive: ``""`` or ``"top/"``."""
    members: list[zipfile.ZipInfo]
    size: int
    """The bytes the model's members declare."""

    def extract(self, into: Path, most: int = MAX_ARCHIVE_BYTES) -> None:
        """Write the model's members under ``into`` (a new, empty folder), counting the
        bytes really written: no member past its declared size, no more than ``most``.

        :raises BadSpeechFile: a member is damaged or unpacks to more than declared.
        :raises OSError: the disk refused a write.
        """
        written = 0
        for m in self.members:
            target = into.joinpath(*PurePosixPath(m.filename[len(self.root) :]).parts)
            if m.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "xb") as out, self._opened(m) as src:
                mine = 0
                while chunk := self._read(src, m):
                    mine += len(chunk)
                    written += len(chunk)
                    if mine > m.file_size:
                        raise BadSpeechFile(said("archive_lied", path=self.path, member=m.filename))
                    if written > most:
                        size, cap = f"{written / 1e9:.1f}", f"{most / 1e9:.1f}"
                        raise BadSpeechFile(
                            said("archive_too_big", path=self.path, size=size, most=cap)
                        )
                    out.write(chunk)

    def _opened(self, m: zipfile.ZipInfo) -> IO[bytes]:
        try:
            return self.zip.open(m)
        except Exception as err:  # zipfile raises anything on a damaged member
            raise self._damaged(m, err) from None

    def _read(self, src: IO[bytes], m: zipfile.ZipInfo) -> bytes:
        try:
            return src.read(CHUNK)
        except Exception as err:  # zlib.error, BadZipFile (CRC), EOFError, LZMAError…
            raise self._damaged(m, err) from None

    def _damaged(self, m: zipfile.ZipInfo, err: Exception) -> BadSpeechFile:
        reason = str(err) or type(err).__name__
        return BadSpeechFile(said("archive_corrupt", path=self.path, member=m.filename,
                                  reason=reason))  # fmt: skip


def open_model_archive(path: Path, stack: ExitStack, room: Path | None = None) -> ModelArchive:
    """The model archive at ``path``, checked (see the module); ``room``, a folder
    whose disk must have space for it.  ``stack`` closes the file.

    :raises BadSpeechFile: not a zip, an unsafe or hostile member, no model in it.
    :raises InputError: not a regular file, or unreadable.
    """
    f = stack.enter_context(open_regular(path, BadSpeechFile))
    try:
        zf = stack.enter_context(zipfile.ZipFile(f))
        infos = zf.infolist()
    except Exception:  # BadZipFile, EOFError, struct.error, ValueError… on a damaged file
        raise BadSpeechFile(said("archive_not_zip", path=path)) from None
    if len(infos) > MAX_MEMBERS:
        raise BadSpeechFile(said("archive_too_many", path=path, count=len(infos), most=MAX_MEMBERS))
    packed = os.fstat(f.fileno()).st_size
    if sum(m.compress_size for m in infos) > packed:  # packed sizes that do not fit the file
        raise BadSpeechFile(said("archive_not_zip", path=path))
    for m in infos:
        _check_member(path, m)
    root = _model_root(path, infos)
    _check_config(path, zf, zf.getinfo(f"{root}conf/model.conf"))
    members = [m for m in infos if m.filename.startswith(root) and m.filename != root]
    size = sum(m.file_size for m in members)
    if size > MAX_TOTAL_RATIO * packed + RATIO_FROM:  # many members, each under RATIO_FROM
        ratio = size // max(packed, 1)
        raise BadSpeechFile(said("archive_inflates", path=path, ratio=ratio))
    if size > MAX_ARCHIVE_BYTES:
        big, most = f"{size / 1e9:.1f}", f"{MAX_ARCHIVE_BYTES / 1e9:.1f}"
        raise BadSpeechFile(said("archive_too_big", path=path, size=big, most=most))
    if room is not None and size > (free := shutil.disk_usage(room).free):
        raise BadSpeechFile(said("archive_no_room", path=path, size=f"{size / 1e9:.1f}",
                                 folder=room, free=f"{free / 1e9:.1f}"))  # fmt: skip
    return ModelArchive(path, zf, root, members, size)


def _check_member(path: Path, m: zipfile.ZipInfo) -> None:
    """Refuse a member that could not be a model's file (before anything is written)."""
    name = m.filename
    parts = PurePosixPath(name).parts
    if name.startswith(("/", "\\")) or ".." in parts or ":" in name or "\0" in name:
        raise BadSpeechFile(said("archive_unsafe", path=path, member=repr(name)))
    kind = stat.S_IFMT(m.external_attr >> 16)
    if kind == stat.S_IFLNK:
        raise BadSpeechFile(said("archive_link", path=path, member=repr(name)))
    if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
        raise BadSpeechFile(said("archive_special", path=path, member=repr(name)))
    if len(parts) > MAX_DEPTH:
        shown = repr(name if len(name) < 60 else name[:57] + "…")
        raise BadSpeechFile(said("archive_deep", path=path, member=shown, depth=len(parts),
                                 most=MAX_DEPTH))  # fmt: skip
    if m.flag_bits & 0x1:
        raise BadSpeechFile(said("archive_encrypted", path=path, member=repr(name)))
    if m.compress_type not in METHODS:
        raise BadSpeechFile(said("archive_method", path=path, member=repr(name),
                                 method=m.compress_type))  # fmt: skip
    if m.file_size > RATIO_FROM and m.file_size > MAX_RATIO * max(m.compress_size, 1):
        ratio = m.file_size // max(m.compress_size, 1)
        raise BadSpeechFile(said("archive_bomb", path=path, member=repr(name), ratio=ratio))


def _model_root(path: Path, infos: list[zipfile.ZipInfo]) -> str:
    """The archive's folder holding a model: its top, or its only top folder holding one."""
    files = {m.filename for m in infos if not m.is_dir()}
    tops = {m.filename.split("/", 1)[0] + "/" for m in infos if "/" in m.filename}
    for root in ["", *sorted(tops)]:
        conf = f"{root}conf/model.conf"
        if conf in files and any(f.startswith(f"{root}am/") for f in files):
            return root
    raise BadSpeechFile(said("archive_no_model", path=path))


MAX_CONFIG_BYTES = 64 * 1024
"""The largest ``conf/model.conf`` read (a model's has a dozen lines)."""


def _check_config(path: Path, zf: zipfile.ZipFile, conf: zipfile.ZipInfo) -> None:
    """``conf/model.conf`` must be Kaldi options (``--name=value``, comments), read from
    the archive before anything is unpacked: Kaldi refuses anything else."""
    reason = ""
    if conf.file_size > MAX_CONFIG_BYTES:
        reason = f"conf/model.conf: {conf.file_size} bytes"
    else:
        try:
            with zf.open(conf) as f:
                lines = f.read(MAX_CONFIG_BYTES + 1).decode("utf-8").splitlines()
        except UnicodeDecodeError:
            lines = ["(not UTF-8 text)"]
        except Exception as err:  # zipfile raises anything on a damaged member
            raise BadSpeechFile(said("archive_corrupt", path=path, member=conf.filename,
                                     reason=str(err) or type(err).__name__)) from None  # fmt: skip
        options = [x.strip() for x in lines if x.strip() and not x.strip().startswith("#")]
        bad = [x for x in options if not x.startswith("--")] or ([] if options else ["(empty)"])
        if bad:
            reason = f"conf/model.conf: {bad[0][:40]!r}"
    if reason:
        raise BadSpeechFile(said("model_does_not_load", path=path, reason=reason))
