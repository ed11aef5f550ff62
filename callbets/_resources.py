"""Where callbets finds its data files, installed or from a checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def grammar_dir() -> Path:
    """The folder of ``*.lark`` files: inside the wheel, else the checkout's ``grammar/``."""
    for candidate in (_PACKAGE / "grammar", _PACKAGE.parent / "grammar"):
        if (candidate / "shared.lark").is_file():
            return candidate
    raise FileNotFoundError("callbets cannot find its grammar files (grammar/shared.lark)")
