"""House profiles: the rules that differ between casinos, loaded from data files.

A profile is a TOML file (the shipped ones are in ``callbets/houses/``; the keys are
documented in ``callbets/houses/README.md``).  Code asks the profile; it never branches
on a casino's name.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Any, Literal, get_args

from ..errors import HouseError
from ..files import open_regular
from .call_names import CallName

DEFAULT_HOUSE = "venice-french"

KNOWN_CALLS = frozenset(CallName)
"""Every called bet a house may offer (rules.md 3.11)."""


ZeroRule = Literal["en_prison", "partage", "partage_odd_chip_prison", "player_choice"]
ZeroChoice = Literal["prison", "half", "move"]
PastMax = Literal["split", "lose"]
OddChip = Literal["fraction", "bank", "player"]
PrisonAtClose = Literal["half", "bank"]
OverMax = Literal["cap_and_refund", "refuse"]
OrphelinsDefault = Literal["cheval", "plein"]
CompleteStyle = Literal["progressive", "flat"]
BareAmount = Literal["ask", "per_piece"]
EitherStake = Literal["ask", "total", "per_piece"]
Remainder = Literal["return"]
"""The choices a house file makes, each one of a closed set of words."""

ZERO_RULES: frozenset[str] = frozenset(get_args(ZeroRule))
ZERO_CHOICES: frozenset[str] = frozenset(get_args(ZeroChoice))
LIMIT_KINDS = (
    "straight", "split", "street", "corner", "sixline", "dozen", "column",
    "two_dozens", "two_columns", "simple",
)  # fmt: skip


@dataclass(frozen=True)
class ZeroRules:
    """What zero does to the simple chances (rules.md 5)."""

    simple_chances: ZeroRule
    """``en_prison``, ``partage``, ``partage_odd_chip_prison`` or ``player_choice``."""
    prison_max_levels: int
    """Most prison levels (0: no limit)."""
    past_max: PastMax
    """What a zero past the last level does: ``split`` (half back) or ``lose``."""
    default_choice: ZeroChoice
    """What happens to a bet on zero when the player says nothing: ``prison`` or ``half``."""
    choices: frozenset[ZeroChoice]
    """What a player may ask for at a zero: ``prison``, ``half``, ``move``."""
    last_spin_forced_refund: bool
    """Whether a zero on the session's last spin forces ½, ¼, … back."""
    odd_chip: OddChip = "fraction"
    """Where half a stake is not a whole number of pieces: ``fraction`` (handed back as
    it is), ``bank`` (rounded down: the odd part stays with the bank) or ``player``
    (rounded up)."""
    prison_at_close: PrisonAtClose = "half"
    """What becomes of a stake still in prison when the evening ends: ``half`` (the value
    still in play handed back, ½, ¼, … of the stake, as a split at a zero) or ``bank``
    (the bank keeps it)."""


@dataclass(frozen=True)
class Limits:
    """Table minimum and maximum per position (rules.md 6.1), in stake units."""

    by_kind: dict[str, tuple[int, int]]
    """``straight`` … ``column``, ``two_dozens``, ``two_columns``, ``simple`` → (min, max)."""
    over_max: OverMax
    """``cap_and_refund`` (pay up to the maximum, hand back the excess) or ``refuse``."""
    min_outside_pieces: int
    """Least pieces on each simple chance, column or dozen (Venice Fair: 5)."""
    min_inside_pieces: int
    """Least pieces in total on number combinations in one announcement (Venice Fair: 5)."""
    prison_counts: bool = False
    """Whether stakes in prison count towards a position's maximum, at the value still in
    play (½, ¼… of the stake: rules.md 6.1, S7)."""

    def for_kind(self, kind: str) -> tuple[int, int] | None:
        """The (min, max) of a bet kind; simple chances share one entry."""
        key = "simple" if kind in ("red", "black", "even", "odd", "low", "high") else kind
        return self.by_kind.get(key)


@dataclass(frozen=True)
class House:
    """One casino's answers to the questions of rules.md section 8 that matter for bets."""

    name: str
    """Short name, e.g. ``venice-french``."""
    description: str
    """One line for people."""
    piece_value: int
    """Stake per piece when an announcement names no stake."""
    offered: frozenset[CallName]
    """The called bets this house accepts (names as in the JSON contract)."""
    orphelins_default: OrphelinsDefault
    """``cheval`` (5 chips) or ``plein`` (8 chips) when "orphelins" is said alone."""
    neighbours_default: int
    """Neighbours each side when no count is said."""
    neighbours_max: int
    """Most neighbours each side the house plays."""
    finale_zero_includes_0: bool
    """Whether "finale 0" covers 0 as well as 10, 20, 30."""
    horizontal_finales: frozenset[tuple[int, int]]
    """The horizontal finales à cheval offered, as digit pairs."""
    vertical_orphan_plein: bool
    """Whether finales 4/7, 5/8, 6/9 add 34, 35, 36 straight up."""
    complete_style: CompleteStyle
    """``progressive`` (1/2/3/4/6 pieces) or ``flat`` (one piece per position)."""
    complete_includes_zero_combinations: bool
    """Whether the complete of 1, 2, 3 counts 0/1/2, 0/2/3 and 0/1/2/3."""
    allow_24_numbers: bool
    """Whether two dozens or two columns à cheval may be played."""
    bare_amount: BareAmount
    """``ask``: a bare number after a call is refused as ambiguous; ``per_piece``."""
    zero: ZeroRules
    """What zero does to the simple chances."""
    limits: Limits
    """Minimum and maximum stakes."""
    payout_order: tuple[str, ...]
    """Bet kinds in the order the croupiers pay them (display and audit only)."""
    paid_to_place: frozenset[str]
    """Called bets whose winning piece is laid on the layout after the spin."""
    pour_le_tout: frozenset[str]
    """Called bets that may be replayed "pour le tout"."""
    pour_le_tout_remainder: Remainder
    """What cannot be placed "pour le tout": ``return`` (to the player)."""
    require_croupier: bool = False
    """Whether every change to a table must name its croupier (``table.require_croupier``)."""
    either_stake: EitherStake = "ask"
    """A stake word that means "a piece" at some tables and "in total" at others (Italian
    "per", Spanish "por"): ``ask`` (the default), or the house's own reading, ``total`` or
    ``per_piece`` (``stakes.either``)."""

    def offers(self, call: str) -> bool:
        """True when the house accepts this called bet."""
        return call in self.offered

    @cached_property
    def rules(self) -> str:
        """Every rule of the house, as text (its ``repr``, worked out once): two houses
        whose rules are alike have the same."""
        return repr(self)


MAX_HOUSE_BYTES = 65536
"""A house profile is a page of settings; a larger file is refused unread."""
MAX_AMOUNT = 1_000_000
"""The largest stake a profile may name (as :data:`callbets.language.tokens.MAX_AMOUNT`)."""


def _get(data: dict[str, Any], path: str, kind: type, source: str, item: type | None = None) -> Any:
    """The value at ``path``, of type ``kind`` (and, for a list, every item of ``item``)."""
    node: Any = data
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            raise HouseError(f"house file {source}: missing key '{path}'")
        node = node[key]
    if not isinstance(node, kind) or (kind is int and isinstance(node, bool)):
        raise HouseError(f"house file {source}: '{path}' must be {_kind_name(kind)}")
    if item is not None and not all(isinstance(x, item) for x in node):  # type: ignore[attr-defined]
        raise HouseError(f"house file {source}: '{path}' must be a list of {_kind_name(item)}")
    return node


def _kind_name(kind: type) -> str:
    return {int: "a whole number", str: "text", bool: "true or false", list: "a list",
            dict: "a table"}.get(kind, kind.__name__)  # fmt: skip


def _digit_pair(text: str, source: str) -> tuple[int, int]:
    a, sep, b = text.partition("/")
    if not (sep and a.isdigit() and b.isdigit()):
        raise HouseError(f"house file {source}: bad finale '{text}' (write it as '8/9')")
    return int(a), int(b)


def house_from_dict(data: dict[str, Any], source: str = "<dict>") -> House:
    """Build and check a house from parsed TOML data.

    :raises HouseError: a key is missing, has the wrong type or an unknown value.
    """
    if not isinstance(data, dict):
        raise HouseError(f"house file {source}: not a table of settings")
    said = frozenset(_get(data, "calls.offered", list, source, str))
    unknown = said - KNOWN_CALLS
    if unknown:
        raise HouseError(f"house file {source}: unknown called bets {sorted(unknown)}")
    offered = frozenset(CallName(name) for name in said)
    house = House(
        name=_get(data, "name", str, source),
        description=_get(data, "description", str, source),
        piece_value=_get(data, "piece_value", int, source),
        offered=offered,
        orphelins_default=_get(data, "calls.orphelins_default", str, source),
        neighbours_default=_get(data, "neighbours.default", int, source),
        neighbours_max=_get(data, "neighbours.max", int, source),
        finale_zero_includes_0=_get(data, "finales.zero_includes_0", bool, source),
        horizontal_finales=frozenset(
            _digit_pair(t, source) for t in _get(data, "finales.horizontal", list, source, str)
        ),
        vertical_orphan_plein=_get(data, "finales.vertical_orphan_plein", bool, source),
        complete_style=_get(data, "complete.style", str, source),
        complete_includes_zero_combinations=_get(
            data, "complete.includes_zero_combinations", bool, source
        ),
        allow_24_numbers=_get(data, "layout.allow_24_numbers", bool, source),
        bare_amount=_get(data, "stakes.bare_amount", str, source),
        zero=_zero_rules(data, source),
        limits=_limits(data, source),
        payout_order=tuple(_get(data, "payout.order", list, source, str)),
        paid_to_place=frozenset(_get(data, "payout.paid_to_place", list, source, str)),
        pour_le_tout=frozenset(_get(data, "payout.pour_le_tout", list, source, str)),
        pour_le_tout_remainder=_get(data, "payout.pour_le_tout_remainder", str, source),
        require_croupier=_optional(data, "table.require_croupier", bool, False, source),
        either_stake=_optional(data, "stakes.either", str, "ask", source),
    )
    checks = [
        (house.orphelins_default in get_args(OrphelinsDefault), "calls.orphelins_default"),
        (1 <= house.neighbours_default <= house.neighbours_max <= 9, "neighbours"),
        (house.complete_style in get_args(CompleteStyle), "complete.style"),
        (house.bare_amount in get_args(BareAmount), "stakes.bare_amount"),
        (house.either_stake in get_args(EitherStake), "stakes.either"),
        (0 < house.piece_value <= MAX_AMOUNT, "piece_value"),
        (house.zero.prison_max_levels >= 0, "zero.prison_max_levels"),
        (house.limits.min_outside_pieces >= 0, "limits.min_outside_pieces"),
        (house.limits.min_inside_pieces >= 0, "limits.min_inside_pieces"),
        (house.zero.simple_chances in ZERO_RULES, "zero.simple_chances"),
        (house.zero.choices <= ZERO_CHOICES, "zero.choices"),
        (house.zero.default_choice in house.zero.choices, "zero.default_choice"),
        (house.zero.past_max in get_args(PastMax), "zero.past_max"),
        (house.zero.odd_chip in get_args(OddChip), "zero.odd_chip"),
        (house.zero.prison_at_close in get_args(PrisonAtClose), "zero.prison_at_close"),
        (house.limits.over_max in get_args(OverMax), "limits.over_max"),
        (house.pour_le_tout_remainder in get_args(Remainder), "payout.pour_le_tout_remainder"),
    ]
    for ok, key in checks:
        if not ok:
            raise HouseError(f"house file {source}: bad value for '{key}'")
    return house


def _zero_rules(data: dict[str, Any], source: str) -> ZeroRules:
    return ZeroRules(
        simple_chances=_get(data, "zero.simple_chances", str, source),
        prison_max_levels=_get(data, "zero.prison_max_levels", int, source),
        past_max=_get(data, "zero.past_max", str, source),
        default_choice=_get(data, "zero.default_choice", str, source),
        choices=frozenset(_get(data, "zero.choices", list, source, str)),
        last_spin_forced_refund=_get(data, "zero.last_spin_forced_refund", bool, source),
        odd_chip=_optional(data, "zero.odd_chip", str, "fraction", source),
        prison_at_close=_optional(data, "zero.prison_at_close", str, "half", source),
    )


def _limits(data: dict[str, Any], source: str) -> Limits:
    table = _get(data, "limits", dict, source)
    by_kind: dict[str, tuple[int, int]] = {}
    for kind in LIMIT_KINDS:
        if kind in table:
            pair = table[kind]
            whole = isinstance(pair, list) and all(
                isinstance(x, int) and not isinstance(x, bool) for x in pair
            )
            if not (whole and len(pair) == 2 and 0 < pair[0] <= pair[1] <= MAX_AMOUNT):
                raise HouseError(
                    f"house file {source}: 'limits.{kind}' must be [min, max], whole numbers "
                    f"with 0 < min <= max <= {MAX_AMOUNT}"
                )
            by_kind[kind] = (int(pair[0]), int(pair[1]))
    return Limits(
        by_kind=by_kind,
        over_max=_get(data, "limits.over_max", str, source),
        min_outside_pieces=_get(data, "limits.min_outside_pieces", int, source),
        min_inside_pieces=_get(data, "limits.min_inside_pieces", int, source),
        prison_counts=_optional(data, "limits.prison_counts_to_max", bool, False, source),
    )


def _optional(data: dict[str, Any], path: str, kind: type, default: Any, source: str) -> Any:
    """The value at ``path`` if the file has it (checked as :func:`_get`), else the default."""
    node: Any = data
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            return default
        node = node[key]
    return _get(data, path, kind, source)


def house_names() -> list[str]:
    """Names of the house profiles shipped with callbets."""
    folder = resources.files("callbets") / "houses"
    return sorted(
        p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml")
    )


def house_file_text(name_or_path: str) -> str:
    """The TOML text of a shipped house (by name) or of a profile file (by path).

    :raises HouseError: no such house or file.
    """
    if name_or_path.endswith(".toml") or "/" in name_or_path:
        path = Path(name_or_path)
        try:
            with open_regular(path, HouseError) as f:  # never a pipe or a device
                raw = f.read(MAX_HOUSE_BYTES + 1)
        except OSError as err:
            raise HouseError(f"cannot read house file {path}: {err.strerror}") from None
        if len(raw) > MAX_HOUSE_BYTES:
            raise HouseError(f"house file {path} is larger than {MAX_HOUSE_BYTES} bytes")
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as err:
            raise HouseError(
                f"house file {path} is not UTF-8 text (byte {err.start + 1}); save it as UTF-8"
            ) from None
    resource = resources.files("callbets") / "houses" / f"{name_or_path}.toml"
    if not resource.is_file():
        known = ", ".join(house_names())
        raise HouseError(f"unknown house '{name_or_path}' (known: {known})")
    return resource.read_text(encoding="utf-8")


@cache
def find_house(name_or_path: str = DEFAULT_HOUSE) -> House:
    """Load a shipped house by name (``venice-french``) or a profile file by path.

    :raises HouseError: no such house, or the file is unreadable or invalid.
    """
    return house_from_text(house_file_text(name_or_path), name_or_path)


def house_from_text(text: str, source: str = "<text>") -> House:
    """A house from the TOML text of a profile.

    :raises HouseError: not TOML, nested too deeply, or not a valid profile.
    """
    return house_from_dict(_inherited(_toml(text, source), source, (source,)), source)


def house_profile(name_or_path: str) -> dict[str, Any]:
    """The whole profile of a shipped house or a profile file, with what it ``extends``
    written in: what a table keeps, so that it reads the same whatever becomes of the
    files it came from.

    :raises HouseError: no such house, or the file is unreadable or not TOML.
    """
    return _inherited(_toml(house_file_text(name_or_path), name_or_path), name_or_path,
                      (name_or_path,))  # fmt: skip


MAX_EXTENDS = 8
"""The longest chain of houses extending one another."""


def _toml(text: str, source: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise HouseError(f"house file {source} is not valid TOML: {err}") from None
    except RecursionError:
        raise HouseError(f"house file {source} is nested too deeply") from None


def _inherited(data: dict[str, Any], source: str, chain: tuple[str, ...]) -> dict[str, Any]:
    """A profile with what it ``extends``: the other house's settings, with this one's
    over them key by key (a table merged, a list or a value replaced).  The other house
    is a shipped name (``extends = "france"``) or a file, found beside this one."""
    parent = data.get("extends")
    if parent is None:
        return data
    if not isinstance(parent, str):
        raise HouseError(f"house file {source}: 'extends' must be text (a house's name)")
    if "name" not in data:
        raise HouseError(f"house file {source}: a house that extends another needs its own name")
    where = parent
    if (parent.endswith(".toml") or "/" in parent) and not Path(parent).is_absolute():
        where = str(Path(source).parent / parent)  # beside the file that names it
    if where in chain or len(chain) > MAX_EXTENDS:
        raise HouseError(f"house file {source}: 'extends' goes round ({' -> '.join(chain)})")
    base = _inherited(_toml(house_file_text(where), where), where, (*chain, where))
    merged = _merge(base, data)
    del merged["extends"]
    return merged


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        below = out.get(key)
        both = isinstance(below, dict) and isinstance(value, dict)
        out[key] = _merge(below, value) if both else value  # type: ignore[arg-type]
    return out
