"""House profiles: a house extends another, and every key is documented once."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from callbets import AnnouncementError, find_house, parse
from callbets.errors import HouseError
from callbets.roulette import house as house_module
from callbets.roulette.house import house_from_text

from .conftest import ROOT


def test_a_house_extends_another_and_changes_only_what_it_says(tmp_path: Path):
    salon = tmp_path / "salon.toml"
    salon.write_text('extends = "france"\nname = "france-salon"\n'
                     '[neighbours]\nmax = 2\n[limits]\nstraight = [5, 500]\n')  # fmt: skip
    france, mine = find_house("france"), find_house(str(salon))
    assert mine.neighbours_max == 2 and mine.neighbours_default == france.neighbours_default
    assert mine.limits.by_kind["straight"] == (5, 500)
    assert mine.limits.by_kind["split"] == france.limits.by_kind["split"]
    changed = {f.name for f in dataclasses.fields(mine)
               if getattr(mine, f.name) != getattr(france, f.name)}  # fmt: skip
    assert changed == {"name", "neighbours_max", "limits"}


def test_a_house_extends_a_file_beside_it_and_chains(tmp_path: Path):
    (tmp_path / "base.toml").write_text(
        'extends = "venice-french"\nname = "base"\npiece_value = 5\n'
    )
    (tmp_path / "top.toml").write_text(
        'extends = "base.toml"\nname = "top"\n[neighbours]\ndefault = 1\n'
    )
    top = find_house(str(tmp_path / "top.toml"))
    assert (top.name, top.piece_value, top.neighbours_default) == ("top", 5, 1)
    assert top.offered == find_house("venice-french").offered


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('extends = "a.toml"\nname = "a"\n', "goes round"),
        ('extends = "france"\n', "needs its own name"),
        ('extends = 3\nname = "x"\n', "must be text"),
        ('extends = "nowhere"\nname = "x"\n', "unknown house 'nowhere'"),
        ('extends = "france"\nname = "x"\n[neighbours]\nmax = 12\n', "bad value for 'neighbours'"),
    ],
)
def test_a_bad_extends_is_refused_and_says_why(tmp_path: Path, text, says):
    path = tmp_path / "a.toml"
    path.write_text(text)
    with pytest.raises(HouseError, match=re.escape(says)):
        house_from_text(text, str(path))


def _keys_read() -> set[str]:
    """Every key path the loader reads (``_get``/``_optional`` calls in house.py)."""
    source = Path(house_module.__file__).read_text(encoding="utf-8")
    found = set(re.findall(r'_(?:get|optional)\(\s*data,\s*"([\w.]+)"', source))
    return {k for k in found if k != "limits"} | {f"limits.{k}" for k in house_module.LIMIT_KINDS}


def _keys_documented() -> set[str]:
    """Every key of the table in callbets/houses/README.md (``a``, ``b`` in one row split)."""
    text = (ROOT / "callbets" / "houses" / "README.md").read_text(encoding="utf-8")
    keys: set[str] = set()
    for row in re.findall(r"^\| (`[^|]+`) \|", text, re.M):
        for key in re.findall(r"`([\w.<>]+)`", row):
            keys |= ({f"limits.{k}" for k in house_module.LIMIT_KINDS}
                     if key == "limits.<kind>" else {key})  # fmt: skip
    return keys


def test_every_key_the_loader_reads_is_documented_and_nothing_else():
    assert _keys_read() - _keys_documented() == set(), "not in callbets/houses/README.md"
    assert _keys_documented() - _keys_read() - {"extends"} == set(), "documented, never read"


def test_a_house_says_what_a_stake_word_of_either_meaning_means(tmp_path: Path):
    """Italian "per", Spanish "por": asked by default; a house that reads them one way
    says so (stakes.either), and then a total that does not divide is refused."""
    path = tmp_path / "por.toml"
    path.write_text('extends = "venice-french"\nname = "por-total"\n[stakes]\neither = "total"\n')
    total = find_house(str(path))
    with pytest.raises(AnnouncementError, match="in total"):
        parse("vecinos del cero por 45", "es")
    assert parse("vecinos del cero por 45", "es", total).notation() == "voisins x5"
    assert parse("la serie per 60", "it", total).notation() == "tiers x10"
    with pytest.raises(AnnouncementError, match="does not divide"):
        parse("vecinos por 5", "es", total)
    path.write_text(path.read_text().replace('"total"', '"per_piece"'))
    find_house.cache_clear()
    assert parse("la serie per 6", "it", find_house(str(path))).notation() == "tiers x6"
