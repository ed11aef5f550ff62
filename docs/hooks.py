"""MkDocs hooks: the pages' generated parts, made from callbets itself at build time so
that nothing in them is written twice (mkdocs.yml names this file under ``hooks``).

A page asks for a part with a marker, ``<!-- generated: NAME -->``:

* ``commands``: every command's ``--help``, from the argument parser;
* ``called-bets``: each called bet chip by chip, as the parser places it;
* ``payouts``: each kind of position, the numbers it covers and what it pays;
* ``reds``, ``wheel``: the red numbers; the wheel's numbers in order;
* ``houses``: the house files shipped, and the keys a house file may set;
* ``changelog``: the project's ``CHANGELOG.md``.
"""

from __future__ import annotations

import argparse
import re
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from callbets import parse
from callbets.cli import build_parser
from callbets.roulette.layout import ODDS, RED, WHEEL, BetKind

ROOT = Path(__file__).resolve().parent.parent
MARKER = re.compile(r"<!-- generated: ([a-z-]+) -->")


def on_page_markdown(markdown: str, **_: Any) -> str:
    """Replace every marker of a page by its generated part."""
    return MARKER.sub(lambda m: PARTS[m.group(1)](), markdown)


# ---- commands ---------------------------------------------------------------------------
def _commands(parser: argparse.ArgumentParser, words: list[str]) -> Iterator[str]:
    yield f"### `{' '.join(words)}`\n\n```text\n{parser.format_help().rstrip()}\n```\n"
    for action in parser._actions:  # argparse has no public walk of its subcommands
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _commands(sub, [*words, name])


def commands() -> str:
    """Every command's help, as ``--help`` prints it."""
    return "\n".join(_commands(build_parser(), ["callbets"]))


# ---- the game ---------------------------------------------------------------------------
CALLED = (
    ("voisins du zéro", "voisins du zéro à 1"),
    ("tiers du cylindre", "tiers à 1"),
    ("orphelins (à cheval)", "orphelins à 1"),
    ("orphelins en plein", "orphelins en plein à 1"),
    ("jeu zéro", "jeu zéro à 1"),
    ("a number and its neighbours", "le 17 et les voisins à 1"),
    ("finale en plein", "finale 8 à 1"),
    ("finale à cheval", "finale 8/9 à 1"),
    ("the complete of a number", "le 17 complet à 1"),
)
"""Each called bet by an announcement of it at one piece (French, at the default house)."""


def called_bets() -> str:
    """Each called bet's chips, as the parser places them at the default house."""
    rows = ["| called bet | announced | pieces | chips (position: pieces) |", "|---|---|---|---|"]
    for name, text in CALLED:
        a = parse(text, "fr")
        chips = [(p.position, p.amount) for c in a.calls for p in c.placements]
        shown = ", ".join(f"{pos.kind.value} {'/'.join(map(str, pos.numbers))}: {n}"
                          for pos, n in chips)  # fmt: skip
        rows.append(f"| {name} | `{text}` | {sum(n for _, n in chips)} | {shown} |")
    return "\n".join(rows) + "\n"


COVERS = {
    BetKind.STRAIGHT: "1", BetKind.SPLIT: "2", BetKind.STREET: "3", BetKind.CORNER: "4",
    BetKind.SIXLINE: "6", BetKind.DOZEN: "12", BetKind.COLUMN: "12",
    BetKind.TWO_DOZENS: "24", BetKind.TWO_COLUMNS: "24",
}  # fmt: skip
"""Numbers each kind covers (the simple chances: 18)."""


def payouts() -> str:
    """Each kind of position, the numbers it covers and its odds."""
    rows = ["| position | numbers covered | pays (to 1) |", "|---|---|---|"]
    for kind, odds in ODDS.items():
        rows.append(f"| {kind.value} | {COVERS.get(kind, '18')} | {odds} |")
    return "\n".join(rows) + "\n"


def reds() -> str:
    """The red numbers."""
    return ", ".join(map(str, sorted(RED)))


def wheel() -> str:
    """The wheel's numbers in order, from zero, clockwise."""
    return ", ".join(map(str, WHEEL))


def houses() -> str:
    """The house files shipped, and the keys of a house file."""
    rows = ["| house | what it is |", "|---|---|"]
    for path in sorted((ROOT / "callbets" / "houses").glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        rows.append(f"| `{path.stem}` | {data.get('description', '')} |")
    keys = (ROOT / "callbets" / "houses" / "README.md").read_text(encoding="utf-8")
    table = "\n".join(line for line in keys.splitlines() if line.startswith("|"))
    return "\n".join(rows) + "\n\nThe keys of a house file:\n\n" + table + "\n"


def changelog() -> str:
    """The project's CHANGELOG.md."""
    return (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")


PARTS: dict[str, Callable[[], str]] = {
    "changelog": changelog,
    "commands": commands,
    "called-bets": called_bets,
    "payouts": payouts,
    "reds": reds,
    "wheel": wheel,
    "houses": houses,
}
