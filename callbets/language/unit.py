"""A language is one unit: its grammar file and its words in every table, checked whole.

A language is a ``grammar/<code>.lark`` file (its words for the shared shape of an
announcement) and a ``[code]`` table in each of :data:`WORD_FILES`.  Every table must
have every key the reference language's table has (:data:`REFERENCE`, English), with
the same ``{fields}`` in its templates, except the keys a file lists as optional (a
top-level ``optional = ["key", "names.key"]``): those fall back to English.  A language
with a table missing or incomplete is refused when it is first loaded
(:func:`check_language`), with every missing key of every file named, before anything
runs; nothing is found missing one key at a time in the middle of an evening.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .._resources import cache_dir, grammar_dir, grammar_tables

REFERENCE = "en"
"""The language every other is checked against, and the fallback of an optional key."""

WORD_FILES = ("messages.toml", "readback.toml", "dialogue.toml", "console.toml", "commands.toml")
"""The per-language tables of ``grammar/``: refusals and notes, the readback's names, the
spoken dialogue, the console's words, the table's command words."""

_FIELD = re.compile(r"\{(\w*)")


def languages_on_disk() -> tuple[str, ...]:
    """Every language with a grammar file in ``grammar/`` (``shared.lark`` is the shape,
    not a language), in alphabetical order."""
    names = (p.stem for p in grammar_dir().glob("*.lark") if p.stem != "shared")
    return tuple(sorted(names))


def optional_keys(file: str) -> frozenset[str]:
    """The keys of a file that may be left out of a language (they fall back to English)."""
    return frozenset(grammar_tables(file).get("optional", ()))


def _leaves(table: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every key path of a nested table (``names.voisins``) with its value."""
    for key, value in table.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from _leaves(value, path + ".")
        else:
            yield path, value


def _fields(value: Any) -> frozenset[str]:
    """The ``{fields}`` of a template (of every string of a list)."""
    texts = value if isinstance(value, list) else [value]
    return frozenset(f for t in texts if isinstance(t, str) for f in _FIELD.findall(t))


@dataclass(frozen=True)
class Gaps:
    """What one file lacks for one language."""

    file: str
    lang: str
    missing: tuple[str, ...] = ()
    """Keys the reference language has and this one does not (optional ones aside)."""
    fields: tuple[str, ...] = ()
    """Keys whose template has other ``{fields}`` than the reference's."""
    no_table: bool = False
    """The file has no table for the language at all."""

    def __bool__(self) -> bool:
        return self.no_table or bool(self.missing or self.fields)

    def __str__(self) -> str:
        if self.no_table:
            return f"grammar/{self.file}: no [{self.lang}] table"
        parts = []
        if self.missing:
            parts.append("missing " + ", ".join(self.missing))
        if self.fields:
            parts.append("other {fields} than English in " + ", ".join(self.fields))
        return f"grammar/{self.file}: " + "; ".join(parts)


def gaps(lang: str, file: str) -> Gaps:
    """What ``file`` lacks for ``lang``, against the reference language."""
    tables = grammar_tables(file)
    if not isinstance(tables.get(lang), dict):
        return Gaps(file, lang, no_table=True)
    reference = dict(_leaves(tables[REFERENCE]))
    mine = dict(_leaves(tables[lang]))
    optional = optional_keys(file)
    missing = tuple(k for k in reference if k not in mine and k not in optional)
    fields = tuple(
        k for k, v in mine.items() if k in reference and _fields(v) != _fields(reference[k])
    )
    return Gaps(file, lang, missing, fields)


class IncompleteLanguage(ValueError):
    """A language whose grammar or tables are not all there; the message names the
    language, each file and every key missing."""

    def __init__(self, lang: str, problems: list[str]) -> None:
        self.lang = lang
        self.problems = problems
        lines = "\n".join(f"  {p}" for p in problems)
        super().__init__(f"language '{lang}' is incomplete:\n{lines}")


def problems(lang: str) -> list[str]:
    """Everything a language lacks: its grammar file, and each table's gaps."""
    out = []
    if not (grammar_dir() / f"{lang}.lark").is_file():
        out.append(f"grammar/{lang}.lark: no such file")
    out.extend(str(g) for g in (gaps(lang, f) for f in WORD_FILES) if g)
    return out


@cache
def check_language(lang: str) -> None:
    """Refuse a language that is not complete (checked once per language, and once per
    version of its files: a language found complete leaves a stamp named by their
    digest in the cache folder, so a command starting does not read every table again).

    :raises IncompleteLanguage: naming every file and key missing.
    """
    stamp = _stamp(lang)
    if stamp is not None and stamp.is_file():
        return
    found = problems(lang)
    if found:
        raise IncompleteLanguage(lang, found)
    if stamp is not None:
        with contextlib.suppress(OSError):  # a cache that cannot be written: check again
            stamp.parent.mkdir(parents=True, exist_ok=True)
            stamp.touch()


def _stamp(lang: str) -> Path | None:
    """The stamp of a language found complete: named by the digest of its grammar file
    and every word file (None where they cannot all be read)."""
    digest = hashlib.sha256(lang.encode())
    try:
        for name in (f"{lang}.lark", *WORD_FILES):
            digest.update((grammar_dir() / name).read_bytes())
    except OSError:
        return None
    return cache_dir() / "languages" / f"{lang}-{digest.hexdigest()[:24]}.complete"
