"""Croupiers enrolled on their own voice: where their adapted acoustic models live.

``callbets enrol`` adapts PocketSphinx's model to one croupier's recordings and stores
the adapted means and variances in the user's data folder, one folder per language and
croupier: ``$XDG_DATA_HOME/callbets/croupiers/<lang>/<name>/`` (``~/.local/share/…``).
``--croupier NAME`` names one; without it ``$CALLBETS_CROUPIER`` (the name the audit
already records) is used when that croupier is enrolled for the table's language.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from ..errors import InputError
from .models import data_dir

NAME = re.compile(r"[^\W_][\w .'-]{0,62}")
"""A croupier's name: letters or digits first, then also spaces, dots, apostrophes and
hyphens; at most 63 characters (it names a folder)."""
FILES = ("means", "variances")
"""What an enrolment stores besides ``enrol.json``."""


class NotEnrolled(InputError):
    """A croupier named who is not enrolled for that language, or a name that cannot be."""


def croupiers_dir() -> Path:
    """The folder of every enrolled croupier."""
    return data_dir().parent / "croupiers"


def folder(name: str, lang: str) -> Path:
    """Where a croupier's model for a language is (or would be) stored.

    :raises NotEnrolled: a name that cannot name a folder.
    """
    if not NAME.fullmatch(name):
        raise NotEnrolled(
            f"{name!r} cannot be a croupier's name: letters, digits, spaces, '.', \"'\" "
            "and '-', starting with a letter or digit, at most 63 characters"
        )
    return croupiers_dir() / lang / name


def enrolled(name: str, lang: str) -> bool:
    """Whether a croupier has a model for a language."""
    try:
        where = folder(name, lang)
    except NotEnrolled:
        return False
    return all((where / f).is_file() for f in FILES)


def resolve(name: str | None, lang: str) -> str | None:
    """The croupier whose model to use: ``name`` (who must be enrolled for ``lang``), else
    ``$CALLBETS_CROUPIER`` when enrolled for ``lang``, else None (the language's model).

    :raises NotEnrolled: ``name`` is given and not enrolled for ``lang``.
    """
    if name:
        if not enrolled(name, lang):
            raise NotEnrolled(
                f"croupier {name!r} is not enrolled for '{lang}' "
                f"(callbets enrol SUITE --lang {lang} --croupier {name!r})"
            )
        return name
    from_env = os.environ.get("CALLBETS_CROUPIER", "")
    return from_env if from_env and enrolled(from_env, lang) else None


def save_report(name: str, lang: str, report: dict[str, Any]) -> None:
    """Keep what an enrolment measured beside the model (``enrol.json``)."""
    path = folder(name, lang) / "enrol.json"
    path.write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
