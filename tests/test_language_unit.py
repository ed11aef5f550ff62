"""A language is one unit: every language on disk is complete, and a half-added one is
refused at load with every missing key named (callbets/language/unit.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from callbets import _resources
from callbets.language import grammar as grammar_module
from callbets.language import unit
from callbets.language.grammar import LANGUAGES

from .conftest import ROOT


def test_the_languages_are_the_grammar_files_on_disk():
    on_disk = {p.stem for p in (ROOT / "grammar").glob("*.lark")} - {"shared"}
    assert set(LANGUAGES) == on_disk and len(LANGUAGES) >= 3


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_on_disk_is_complete(lang):
    assert unit.problems(lang) == []
    unit.check_language(lang)


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch):
    """A copy of grammar/ that the loaders read instead (caches emptied before and after)."""
    folder = tmp_path / "grammar"
    shutil.copytree(ROOT / "grammar", folder)
    for module in (_resources, unit):
        monkeypatch.setattr(module, "grammar_dir", lambda: folder)
    caches = (_resources.grammar_tables, unit.check_language, _resources.language_words,
              grammar_module._language)  # fmt: skip
    for cache in caches:
        cache.cache_clear()
    yield folder
    for cache in caches:
        cache.cache_clear()


def _add_table(path: Path, lang: str, lines: list[str]) -> None:
    path.write_text(path.read_text(encoding="utf-8") + f"\n[{lang}]\n" + "\n".join(lines) + "\n",
                    encoding="utf-8")  # fmt: skip


def test_a_half_added_language_is_refused_naming_every_missing_key(scratch: Path):
    (scratch / "pt.lark").write_text((scratch / "fr.lark").read_text(encoding="utf-8"))
    _add_table(scratch / "messages.toml", "pt", ['no_bet = "nenhuma aposta"'])
    _add_table(scratch / "dialogue.toml", "pt", [])
    found = unit.problems("pt")
    files = [p.split(":")[0] for p in found]
    assert files == ["grammar/messages.toml", "grammar/readback.toml", "grammar/dialogue.toml",
                     "grammar/console.toml", "grammar/commands.toml"]  # fmt: skip
    english = _resources.grammar_tables("messages.toml")["en"]
    missing_messages = found[0].split("missing ", 1)[1].split(", ")
    assert set(missing_messages) == set(english) - {"no_bet"}  # every key, not the first
    assert "no [pt] table" in found[1]
    with pytest.raises(unit.IncompleteLanguage) as err:
        unit.check_language("pt")
    assert "language 'pt' is incomplete" in str(err.value) and "stops_after" in str(err.value)


def test_a_language_is_checked_before_its_grammar_is_read(scratch: Path, monkeypatch):
    (scratch / "pt.lark").write_text("this is not a grammar")
    monkeypatch.setattr(grammar_module, "LANGUAGES", (*LANGUAGES, "pt"))
    with pytest.raises(unit.IncompleteLanguage, match=r"grammar/readback\.toml"):
        grammar_module.language("pt")


def test_templates_with_other_fields_are_named(scratch: Path):
    path = scratch / "messages.toml"
    text = path.read_text(encoding="utf-8")
    start = text.index("[fr]")
    key = next(
        k for k, v in _resources.grammar_tables("messages.toml")["fr"].items() if "{word}" in str(v)
    )
    line_start = text.index(f"\n{key} = ", start) + 1
    line_end = text.index("\n", line_start)
    path.write_text(text[:line_start] + f'{key} = "sans champ"' + text[line_end:])
    _resources.grammar_tables.cache_clear()
    assert unit.problems("fr") == [f"grammar/messages.toml: other {{fields}} than English in {key}"]


def test_an_optional_key_left_out_is_said_in_english(scratch: Path):
    path = scratch / "dialogue.toml"
    english = _resources.grammar_tables("dialogue.toml")["en"]
    key = next(iter(english))
    text = path.read_text(encoding="utf-8")
    start = text.index("[it]")
    line_start = text.index(f"\n{key} = ", start) + 1
    line_end = text.index("\n", line_start)
    path.write_text(text[:line_start] + text[line_end + 1 :])
    _resources.grammar_tables.cache_clear()
    assert unit.problems("it") == [f"grammar/dialogue.toml: missing {key}"]
    path.write_text(f'optional = ["{key}"]\n' + path.read_text(encoding="utf-8"))
    _resources.grammar_tables.cache_clear()
    assert unit.problems("it") == []
    assert _resources.language_words("dialogue.toml", "it")[key] == english[key]


def test_a_language_found_complete_is_not_read_again_until_its_files_change(
    scratch: Path, tmp_path: Path, monkeypatch
):
    monkeypatch.setenv("CALLBETS_CACHE", str(tmp_path / "cache"))
    unit.check_language("it")
    assert len(list((tmp_path / "cache" / "languages").glob("it-*.complete"))) == 1
    path = scratch / "dialogue.toml"  # a key taken out: another digest, checked again
    text = path.read_text(encoding="utf-8")
    start = text.index("[it]")
    line_start = text.index("\nconfirm = ", start) + 1
    path.write_text(text[:line_start] + text[text.index("\n", line_start) + 1 :])
    _resources.grammar_tables.cache_clear()
    unit.check_language.cache_clear()
    with pytest.raises(unit.IncompleteLanguage, match="confirm"):
        unit.check_language("it")
