"""`callbets regress`: manifests, scoring, baselines, JUnit, and the project's own suites."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from callbets.language.grammar import LANGUAGES
from callbets.regress.runner import ManifestError, load_suite, word_error_rate

from .conftest import ROOT

SUITES = ROOT / "tests" / "suites"


def cb(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "callbets", *args], capture_output=True, text=True)


def suite(tmp_path: Path, *items: dict[str, object]) -> Path:
    folder = tmp_path / "suite"
    folder.mkdir(exist_ok=True)
    (folder / "manifest.jsonl").write_text("\n".join(json.dumps(i) for i in items) + "\n")
    return folder


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ({"lang": "de", "text": "tiers", "expect": "tiers x1"}, "unknown language"),
        ({"lang": "fr", "text": "tiers", "expect": "tiers banana"}, "malformed expected chips"),
        ({"lang": "fr", "audio": "nope.wav", "expect": "tiers x1"}, "is missing"),
        ({"lang": "fr", "expect": "tiers x1"}, "needs 'text' or 'audio'"),
    ],
)
def test_manifest_errors_are_clear(tmp_path: Path, item, message):
    with pytest.raises(ManifestError, match=message):
        load_suite(suite(tmp_path, item))


def test_missing_manifest(tmp_path: Path):
    with pytest.raises(ManifestError, match="no manifest"):
        load_suite(tmp_path / "nowhere")
    proc = cb("regress", str(tmp_path / "nowhere"))
    assert proc.returncode == 2 and "no manifest" in proc.stderr


def test_a_wrong_item_fails_the_run_and_shows_the_chips(tmp_path: Path):
    folder = suite(
        tmp_path,
        {"id": "ok", "lang": "fr", "text": "tiers à 5", "expect": "tiers x5"},
        {"id": "bad", "lang": "fr", "text": "cheval 5/8", "expect": "split 5/6 x1"},
        {"id": "no", "lang": "fr", "text": "cheval 5/9", "expect": "refuse"},
    )
    proc = cb("regress", str(folder))
    assert proc.returncode == 1
    assert "3 items: 2 exact, 0 asked, 0 refused, 1 WRONG" in proc.stdout
    assert "- missing chip 5/6" in proc.stdout and "+ extra chip   5/8" in proc.stdout


def test_baseline_lists_new_failures_and_junit_is_valid(tmp_path: Path):
    good = {"id": "a", "lang": "en", "text": "tiers by 5", "expect": "tiers x5"}
    folder = suite(tmp_path, good)
    base = tmp_path / "base.json"
    assert cb("regress", str(folder), "--json", str(base)).returncode == 0
    folder = suite(tmp_path, {**good, "expect": "tiers x6"})
    junit = tmp_path / "j.xml"
    proc = cb("regress", str(folder), "--baseline", str(base), "--junit", str(junit))
    assert "newly failing ['a']" in proc.stdout and proc.returncode == 1
    root = ET.parse(junit).getroot()
    cases = root.findall("testcase")
    assert len(cases) == 1 and cases[0].find("failure") is not None
    # what JUnit readers expect of a suite and its cases (issue 42): the time, the errors
    assert root.get("errors") == "0" and float(root.get("time", "x")) > 0
    assert float(cases[0].get("time", "x")) == float(root.get("time", "y"))


def test_threshold_gates_the_run(tmp_path: Path):
    folder = suite(tmp_path, {"lang": "fr", "text": "voisins 45", "expect": "voisins x45"})
    assert cb("regress", str(folder)).returncode == 0  # asked, not wrong
    assert cb("regress", str(folder), "--min-exact", "0.9").returncode == 1


def test_word_error_rate():
    assert word_error_rate("tiers by five", "tiers by five") == 0
    assert word_error_rate("tiers by five", "tiers five") == pytest.approx(1 / 3)


def test_project_typed_suites_pass():
    proc = cb("regress", *(str(SUITES / f"typed-{lang}") for lang in LANGUAGES))
    print(proc.stdout.splitlines()[0])
    assert proc.returncode == 0, proc.stdout


def test_expected_chips_as_placements(tmp_path: Path):
    chips = {"placements": [[[0, 2, 3], 2], [[4, 7], 1], [[12, 15], 1], [[18, 21], 1],
                            [[19, 22], 1], [[25, 26, 28, 29], 2], [[32, 35], 1]]}  # fmt: skip
    folder = suite(tmp_path, {"lang": "fr", "text": "voisins", "expect": chips})
    assert cb("regress", str(folder)).returncode == 0
    bad = {"placements": [[[0, 2, 3], 1]]}
    assert (
        cb(
            "regress", str(suite(tmp_path, {"lang": "fr", "text": "voisins", "expect": bad}))
        ).returncode
        == 1
    )


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_project_audio_suites_with_vosk_when_a_model_is_present(lang):
    from callbets.speech.models import is_model, model_path

    if not is_model(model_path(lang)):
        pytest.skip(f"no Vosk model in {model_path(lang)} (see models/README.md)")
    suite_file = ROOT / "tests" / "fixtures" / "audio" / f"suite-{lang}.jsonl"
    proc = cb("regress", str(suite_file), "--engine", "vosk")
    print(proc.stdout.splitlines()[0])
    assert "0 WRONG" in proc.stdout.splitlines()[0]


def test_audio_suites_are_well_formed():
    for lang in ("en", "fr", "it"):
        items = load_suite(ROOT / "tests" / "fixtures" / "audio" / f"suite-{lang}.jsonl")
        assert len(items) >= 16 and all(i.audio for i in items)


def test_a_stake_mismatch_is_one_line_and_asked_items_are_not_skips(tmp_path: Path):
    folder = suite(
        tmp_path,
        {"id": "stake", "lang": "fr", "text": "tiers à 5", "expect": "tiers x100"},
        {"id": "asked", "lang": "fr", "text": "voisins 45", "expect": "voisins x5"},
    )
    junit = tmp_path / "j.xml"
    proc = cb("regress", str(folder), "--junit", str(junit))
    assert "stake [fr] wrong: the same chips at other stakes" in proc.stdout
    assert "parsed:   tiers x5" in proc.stdout and "missing chip" not in proc.stdout
    assert "first reading right: 0 of 2 read" in proc.stdout  # "voisins 45" reads x45 first
    root = ET.parse(junit).getroot()
    assert root.get("skipped") == "0" and root.find("testcase/skipped") is None
    asked = next(c for c in root.findall("testcase") if c.get("name") == "asked")
    props = {p.get("name"): p.get("value") for p in asked.iter("property")}
    assert props == {"outcome": "asked", "first_reading_right": "false"}
    assert "voisins x45" in (asked.findtext("system-out") or "")


@pytest.mark.parametrize(
    ("typed", "answers", "kept"),
    [("voisins by five", [], "voisins x5"),
     ("split five nine", ["y"], "refuse"),  # no such split: a must-refuse item
     ("split five nine", ["n"], None)],  # not kept: typed again
)  # fmt: skip
def test_recording_a_suite_keeps_a_refused_announcement_when_asked(
    monkeypatch, typed, answers, kept
):
    """``callbets regress record``: what the parser refuses can be recorded as an item
    that must be refused (a suite needs those too), when the user says so."""
    from callbets.regress import record

    replies = iter(answers)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(replies))
    assert record._expect(typed, "en") == kept


def test_a_must_refuse_item_that_is_asked_is_not_a_wrong_first_reading(tmp_path: Path):
    """Issue 23: an item that must be refused and is asked (never accepted) counted as a
    wrong first reading in the summary."""
    from callbets.regress.runner import Item, run_text, summary

    asked = run_text(Item("fr-1", "fr", "refuse", text="voisins 45"))  # ambiguous: asked
    right = run_text(Item("fr-2", "fr", "voisins x5", text="voisins à 5"))
    assert asked.outcome == "exact" and asked.first_right is None
    assert summary([asked, right])["first_reading"] == {"right": 1, "read": 1}


def test_recording_needs_the_suite_named(tmp_path: Path):
    proc = subprocess.run([sys.executable, "-m", "callbets", "regress", "record", "--lang", "fr"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60)  # fmt: skip
    assert proc.returncode == 2 and "SUITE" in proc.stderr
    assert list(tmp_path.iterdir()) == []  # nothing written into the current folder
