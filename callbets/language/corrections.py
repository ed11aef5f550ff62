"""A croupier's or a player's correction, applied before the shape is read.

"tiers à 4, non pardon, à 6", "orfanelli da 3, anzi no, da 5", "cheval 14/17 à 5, je
corrige, 17/20", "rouge cinquante, pardon, noir cinquante": what comes after a
``CORRECTION`` word (each language's list, in ``grammar/<lang>.lark``) replaces what it
corrects.  The rules are the same in every language and never guess:

* a **stake** replaces the stake said last, when nothing came after that stake;
* **numbers** alone replace the numbers of the position said last when no stake could
  be meant instead (a pair, an article before them: "…, non pardon, le 18", or no stake
  said yet), or the stake's amount when no position was named by numbers; a number that
  could be either is asked;
* **numbers and a stake** ("le 17 à 5, non pardon, le 18 à 10") replace the position
  said last and its stake, when they were a call of their own (nothing joined to the
  numbers, the stake not shared with a call before);
* a **bet** (a bet word, with its numbers and stake) replaces what was said before, when
  that was one call with nothing joined to it, and carries its own stake or none was
  said;
* an "of" or "on" said again before the numbers ("finales del 3, perdón, del 8",
  "pleno al ocho, no, al once") is the one said before them;
* a correction at the start corrects nothing and is dropped ("Pardon, les voisins à 5");
  one with nothing after it, or that none of the rules places, is asked: "say the whole
  bet again";
* after a correction at the start, the announcement itself corrects what was heard
  before, and a "no" inside it may say what it is not ("Perdón, huérfanos a 10 no a 5":
  at 10, not at 5): a second correction is asked.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import AmbiguousError
from ..messages import said
from .kinds import LINKS, POSITION_WORDS, STAKE_PREFIXES
from .lexicon import Tok
from .tokens import CORRECTION_POSITION

CORRECTION = "CORRECTION"
MARKERS = frozenset({CORRECTION, CORRECTION_POSITION})
SEPARATORS = frozenset({"COMMA", "AND"})
AMOUNTS = frozenset({"NUMBER", "AMOUNT", "MONEY"})
STAKE_ENDS = frozenset({"EACH", "IN_ALL", "CURRENCY"})
"""Words that end a stake said as an amount first ("5 la pièce", "60 en tout")."""
NUMBERS = frozenset({"NUMBER", "SLASH"})


def corrected(toks: Sequence[Tok]) -> tuple[Tok, ...]:
    """The tokens with every correction applied (see the module docstring).

    :raises AmbiguousError: a correction that cannot be placed unambiguously.
    """
    out = tuple(toks)
    leading = False
    while any(t.type in MARKERS for t in out):
        at = next(i for i, t in enumerate(out) if t.type in MARKERS)
        if leading and at:
            raise _unclear(out[at])  # "Perdón, huérfanos a 10 no a 5": 10, not 5?
        leading = not _strip(out[:at], trailing=True)
        out = _apply(out[:at], out[at], out[at + 1 :])
    return out


def _apply(before: Sequence[Tok], marker: Tok, after: Sequence[Tok]) -> tuple[Tok, ...]:
    before = _strip(before, trailing=True)
    after = _strip(after, trailing=False)
    while after and after[0].type in MARKERS:  # "non, je corrige, à 10"
        after = _strip(after[1:], trailing=False)
    if not before:  # "Pardon, les voisins à 5": nothing to correct
        return tuple(after)
    if not after:
        raise AmbiguousError(said("correction_nothing", word=marker.text), [], column=marker.start)
    stake = _stake_at_end(before)
    bet = before[:stake] if stake is not None else before
    if _number_group(after[1:]) and _link_before_numbers(bet, after[0].type):
        # "finales del 3, perdón, del 8": the same "of" said again; as an article, it says
        # the numbers after it are a position, not a stake
        after, marker = after[1:], marker._replace(type=CORRECTION_POSITION)
    if _stake_length(after):
        if stake is None or _same_stake_before(before, stake):
            raise _unclear(marker)  # "serie da 5 e vicini da 5, no, da 10": both, or one?
        return (*before[:stake], *after)
    group = _number_group(after)
    if group:
        return _numbers(before, stake, after, group, marker)
    ordinal = _ordinal_replaced(bet, after)
    if ordinal is not None:  # "primera docena, no, segunda, a 20"
        return (*ordinal, *before[len(bet) :], *after[1:])
    if _several_calls(before):
        raise _unclear(marker)  # which call of several does it replace?
    if all(t.type in AMOUNTS | NUMBERS | SEPARATORS | STAKE_PREFIXES | STAKE_ENDS | MARKERS
           for t in after):  # fmt: skip
        raise _unclear(marker)  # no bet word: it cannot stand for the whole call
    if stake is not None and not any(_stake_length(after[i:]) for i in range(len(after))):
        raise _unclear(marker)  # the new bet: at the old stake, or at one piece?
    return tuple(after)


def _numbers(
    before: Sequence[Tok], stake: int | None, after: Sequence[Tok], group: int, marker: Tok
) -> tuple[Tok, ...]:
    """Numbers said after the correction ("… pardon, 17/20")."""
    new = list(after[:group])
    end = stake if stake is not None else len(before)
    position = _last_group(before[:end])
    pair = any(t.type == "SLASH" for t in new)
    restaked = stake is not None and bool(_strip(after[group:], trailing=False))
    if position is not None and restaked:  # "le 17 à 5, non, le 18 à 10": a bet again
        first, last = position
        if last != end or not _alone(before, first):
            raise _unclear(marker)  # "le 17 et les voisins à 5, pardon, le 18 à 5"
        return (*before[:first], *new, *after[group:])
    said_as_position = marker.type == CORRECTION_POSITION  # "…, non pardon, le 18"
    if said_as_position and stake is not None and _several_calls(before[:end]):
        raise _unclear(marker)  # "le 17 et le 20 à 5, pardon, le 18": which of the two?
    if position is not None and (stake is None or pair or said_as_position):
        first, last = position
        if _count(before[first:last]) != _count(new):
            raise _unclear(marker)  # "14/17, pardon, 20": which of the two?
        return (*before[:first], *new, *before[last:], *after[group:])
    if position is None and stake is not None and len(new) == 1 and not said_as_position:
        if _same_stake_before(before, stake):
            raise _unclear(marker)  # "tiers by 5 and orphans by 5, no, make it 10"
        amount = next(i for i in range(stake, len(before)) if before[i].type in AMOUNTS)
        return (*before[:amount], new[0]._replace(type=before[amount].type),
                *before[amount + 1 :], *after[group:])  # fmt: skip
    raise _unclear(marker)


ORDINAL_WORDS = frozenset({"FIRST", "SECOND", "THIRD", "LAST", "MIDDLE"})


def _same_stake_before(before: Sequence[Tok], stake: int) -> bool:
    """Whether a call before the last said the same stake as the one corrected: the
    correction may be of both ("tiers by 5 and orphans by 5, no, make it 10")."""
    amount = next((t.value for t in before[stake:] if t.type in AMOUNTS), None)
    return any(
        t.type in STAKE_PREFIXES and i + 1 < stake and before[i + 1].value == amount
        for i, t in enumerate(before[:stake])
    )


def _ordinal_replaced(bet: Sequence[Tok], after: Sequence[Tok]) -> tuple[Tok, ...] | None:
    """An ordinal said alone after the correction replaces the one ordinal of the call
    before ("première douzaine, non, deuxième"); with its own noun it is a bet of its own."""
    said = [i for i, t in enumerate(bet) if t.type in ORDINAL_WORDS]
    if not after or after[0].type not in ORDINAL_WORDS or len(said) != 1 or _several_calls(bet):
        return None
    if len(after) > 1 and after[1].type not in SEPARATORS | STAKE_PREFIXES:
        return None
    (i,) = said
    return (*bet[:i], after[0], *bet[i + 1 :])


def _link_before_numbers(before: Sequence[Tok], link: str) -> bool:
    """Whether the last numbers said were said after the same "of" or "on" as ``link``
    ("finales del 3", "pleno al 8": "…, perdón, del 8", "…, no, al 11")."""
    if link not in LINKS:
        return False
    position = _last_group(before)
    return position is not None and position[0] > 0 and before[position[0] - 1].type == link


def _count(toks: Sequence[Tok]) -> int:
    return sum(t.type == "NUMBER" for t in toks)


def _alone(before: Sequence[Tok], first: int) -> bool:
    """Whether the numbers at ``first`` (after their position word, if any) begin a call
    of their own: at the start, or after a separator that follows a whole staked call
    ("voisins à 5 et le 17 à 5", not "voisins et le 17 à 5", whose stake is shared).  The
    position word and the "on" before the numbers are theirs ("pleno al 14 a 10")."""
    while first > 0 and before[first - 1].type in POSITION_WORDS | LINKS:
        first -= 1
    if first == 0:
        return True
    return before[first - 1].type in SEPARATORS and _stake_at_end(before[: first - 1]) is not None


NEIGHBOURS = frozenset({"NEIGHBOURS", "COUNT", "SIDES"})
"""What an "and" joins to a number within one call ("le 17 et les voisins")."""


def _several_calls(toks: Sequence[Tok]) -> bool:
    """Whether a separator joins calls ("voisins et tiers"), not a number and its
    neighbours within one call ("le 17 et les voisins")."""
    return any(
        t.type in SEPARATORS and not (i + 1 < len(toks) and toks[i + 1].type in NEIGHBOURS)
        for i, t in enumerate(toks)
    )


def _unclear(marker: Tok) -> AmbiguousError:
    return AmbiguousError(said("correction_unclear", word=marker.text), [], column=marker.start)


def _strip(toks: Sequence[Tok], trailing: bool) -> list[Tok]:
    """Without the separators at one end ("tiers à 4, | non | , à 6")."""
    out = list(toks)
    while out and out[-1 if trailing else 0].type in SEPARATORS:
        out.pop(-1 if trailing else 0)
    return out


def _stake_length(toks: Sequence[Tok]) -> int:
    """How many tokens of a stake begin ``toks`` (0: none)."""
    if len(toks) >= 2 and toks[0].type in STAKE_PREFIXES and toks[1].type in AMOUNTS:
        return 2 + (len(toks) > 2 and toks[2].type in STAKE_ENDS)
    if toks and toks[0].type in AMOUNTS and (toks[0].type == "MONEY" or (
            len(toks) > 1 and toks[1].type in STAKE_ENDS)):  # fmt: skip
        return 1 + (len(toks) > 1 and toks[1].type in STAKE_ENDS)
    return 0


def _stake_at_end(toks: Sequence[Tok]) -> int | None:
    """Where the stake that ends ``toks`` begins (None: they do not end with a stake)."""
    for start in range(len(toks) - 1, -1, -1):
        if _stake_length(toks[start:]) == len(toks) - start:
            return start
    return None


def _number_group(toks: Sequence[Tok]) -> int:
    """How many tokens of numbers said together ("17", "17/20") begin ``toks``, when
    nothing but a stake follows them (0 otherwise: "23 et les voisins" is a bet)."""
    n = 0
    while n < len(toks) and toks[n].type in NUMBERS:
        n += 1
    if n and toks[n - 1].type == "SLASH":
        return 0
    rest = _strip(toks[n:], trailing=False)  # "8/12, à 5"
    return n if not rest or _stake_length(rest) == len(rest) else 0


def _last_group(toks: Sequence[Tok]) -> tuple[int, int] | None:
    """The span of the last numbers said together that are not a stake's amount."""
    end = len(toks)
    while end > 0 and toks[end - 1].type not in NUMBERS:
        end -= 1
    if end == 0:
        return None
    start = end
    while start > 0 and toks[start - 1].type in NUMBERS:
        start -= 1
    if start > 0 and toks[start - 1].type in STAKE_PREFIXES:
        return None
    return start, end
