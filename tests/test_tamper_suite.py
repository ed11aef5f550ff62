"""bench/tamper_suite.py on both backends: every way an insider changes a table is found
by ``verify`` alone or by a head kept outside the table, as the README's table says, and
a table left alone verifies."""

from __future__ import annotations

import importlib.util
import os
import sys
from types import ModuleType

import pytest

from .conftest import ROOT, Where


def _suite() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "tamper_suite", ROOT / "bench" / "tamper_suite.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["tamper_suite"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


SUITE = _suite()


@pytest.mark.parametrize("case", SUITE.CASES, ids=lambda c: c.name)
def test_each_tampering_is_found_where_the_readme_says(where: Where, case, monkeypatch) -> None:
    monkeypatch.delenv(SUITE.KEY_VARIABLE, raising=False)
    found = SUITE.run_case(case, where("tampered"))
    assert found == ("nothing" if case.expect == "inherent" else case.expect)
    assert SUITE.KEY_VARIABLE not in os.environ
