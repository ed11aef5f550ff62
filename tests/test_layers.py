"""The tree is the architecture: one package per layer, arrows one way, no import circle.

Imports are read from the source with :mod:`ast`, counting imports inside functions and
under ``TYPE_CHECKING`` (imports all the same), so a circle cannot hide from this test.
A few lines over ``ast`` rather than a tool such as import-linter: the contract is short,
it needs nothing installed, and it also checks what import-linter does not (the size of
modules, the reason given for each import inside a function).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "callbets"

LAYERS = {
    "callbets._resources": 0,
    "callbets.errors": 0,
    "callbets.files": 0,
    "callbets.messages": 0,
    "callbets.roulette": 1,
    "callbets.language": 2,
    "callbets.pictures": 3,
    "callbets.table": 3,
    "callbets.speech": 3,
    "callbets.regress": 4,
    "callbets.console": 5,
    "callbets.web": 5,
    "callbets.cli": 6,
    "callbets.__main__": 7,
    "callbets": 7,
}
"""Each module's layer: a module may import its own layer and the layers below it.  The
base (errors, messages, data files), the game, the language, what sits on them (table,
speech, pictures; regress uses speech), the console and the floor's web page, the command
line."""

MAX_LINES = 600
MAX_LOOSE = 10


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The callbets modules that ``name`` imports, anywhere in its code."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([node.module] if node.module else []))
            subs = {f"{base}.{a.name}" for a in node.names} & MODULES.keys()
            out |= subs if len(subs) == len(node.names) else subs | {base}
    return {m for m in out if m in MODULES and m != name}


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _layer(name: str) -> int:
    while name not in LAYERS:
        name = name.rpartition(".")[0]
    return LAYERS[name]


def _circle() -> list[str] | None:
    """One import circle, as the modules along it, or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for n in sorted(GRAPH[m]):
            if state.get(n) == 1:
                return [*path[path.index(n) :], n]
            if n not in state and (found := visit(n)):
                return found
        state[m] = 2
        path.pop()
        return None

    for m in sorted(GRAPH):
        if m not in state and (found := visit(m)):
            return found
    return None


def test_the_graph_is_read() -> None:
    assert "callbets.roulette.layout" in GRAPH["callbets.roulette.catalogue"]
    assert "callbets.table.chain" in GRAPH["callbets.table.books"]


def test_no_import_circle() -> None:
    circle = _circle()
    assert circle is None, "import circle: " + " → ".join(circle or [])


def test_the_circle_finder_finds_one() -> None:
    GRAPH["callbets.roulette.layout"].add("callbets.roulette.catalogue")
    try:
        assert _circle() == [
            "callbets.roulette.catalogue", "callbets.roulette.layout", "callbets.roulette.catalogue"
        ]  # fmt: skip
    finally:
        GRAPH["callbets.roulette.layout"].discard("callbets.roulette.catalogue")


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_run_one_way(name: str) -> None:
    upward = sorted(m for m in GRAPH[name] if _layer(m) > _layer(name))
    assert not upward, f"{name} (layer {_layer(name)}) imports from above: {upward}"


def test_every_module_has_a_layer_package() -> None:
    loose = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(loose) <= MAX_LOOSE, loose
    for name in MODULES:
        assert _layer(name) is not None


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_over_600_lines(name: str) -> None:
    lines = MODULES[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{name} has {lines} lines"


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_an_import_inside_a_function_says_why(name: str) -> None:
    """An optional dependency, or start-up time: said in a comment on its line or the
    line before, never a silent dodge of a circle."""
    lines = MODULES[name].read_text(encoding="utf-8").splitlines()
    tree = ast.parse("\n".join(lines))
    silent = []
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Import | ast.ImportFrom):
                said = lines[node.lineno - 1] + lines[node.lineno - 2]
                if "#" not in said:
                    silent.append(f"{name}:{node.lineno}")
    assert not silent, f"imports inside functions with no reason: {silent}"
