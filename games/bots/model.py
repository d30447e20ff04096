"""The bots' card model: the engine's cards and melds as plain ints, for speed.

Every figure here is read from the engine (``games.engine``), never written down again:
a card is its ``Card.index`` (``13 * suit + rank - 1`` for the 52 naturals, suits in
``SHDC`` order, then the joker) and its rank, suit, penalty value and wildness are the
engine's; the contract of each hand is :data:`SHAPES`, counted from ``CONTRACTS`` (R3.2).

A :class:`Meld` is a meld on the table as the bots track it: a set of a rank, or a run
of a suit between two positions (1 = ace low .. 14 = ace high, R5.3) with a bit mask of
the positions wilds stand in. Every 2 counts as a wild here, even where the rules would
let it stand for itself (R5.4): a wild fills that place just as well, so nothing is lost
by it; a set of 2s is three wild cards of which one at least is a 2.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from games.engine import (
    ALL_CARDS,
    CONTRACTS,
    JOKER,
    Card,
    TableMeld,
    Take,
    full_pack,
    penalty,
)
from games.engine.cards import SUITS
from games.engine.melds import Kind
from games.engine.state import Event

JOKER_I: Final = JOKER.index
RANK: Final = tuple(c.rank for c in ALL_CARDS)
SUIT: Final = tuple(-1 if c.is_joker else SUITS.index(c.suit) for c in ALL_CARDS)
VALUE: Final = tuple(c.value for c in ALL_CARDS)
WILD: Final = tuple(c.is_wild for c in ALL_CARDS)
#: run positions a natural card can take, as bits (an ace both 1 and 14, R5.3)
RUN_BITS: Final = tuple(c.run_bits for c in ALL_CARDS)
#: the penalty value of each rank (index 0: the joker), for weighing sets (R2.4)
RANK_VALUE: Final = (JOKER.value, *(ALL_CARDS[rank - 1].value for rank in range(1, 14)))
#: how many copies of each card the pack holds (R2.1)
PACK_COUNT: Final = tuple(sum(c is card for c in full_pack()) for card in ALL_CARDS)
#: the penalty a card nobody has seen is worth on average (R2.1, R2.4)
MEAN_VALUE: Final = penalty(full_pack()) / len(full_pack())
#: R5.1: a meld's fewest cards (the engine checks it where it builds a meld)
MIN_MELD: Final = 3
#: the rank whose cards are all wild (the 2s); a set of it is natural (R2.3, R5.4)
TWO: Final = next(c.rank for c in ALL_CARDS if c.is_wild and not c.is_joker)


class Shape(NamedTuple):
    """A contract as counts (R3.2): how many sets and runs, and their least lengths."""

    sets: int
    runs: int
    set_length: int
    run_length: int


def _shape(melds: Sequence[tuple[Kind, int]]) -> Shape:
    sets = [n for kind, n in melds if kind == "set"]
    runs = [n for kind, n in melds if kind == "run"]
    return Shape(len(sets), len(runs), max(sets, default=0), max(runs, default=0))


#: the contract of each hand number, from the engine's ``CONTRACTS``
SHAPES: Final = {hand_no: _shape(melds) for hand_no, melds in CONTRACTS.items()}


def penalty_of(cards: Iterable[int]) -> int:
    """The penalty values of ``cards`` (R2.4), as the engine's ``penalty``."""
    return sum(VALUE[c] for c in cards)


#: ``AT[suit][position]`` is the natural card of ``suit`` at run ``position`` (14 is the
#: ace; position 0 unused)
AT: Final = tuple(tuple(Card.of(p, suit).index if p else -1 for p in range(15))
                  for suit in SUITS)


@dataclass(slots=True)
class Meld:
    """A meld on the table: ``kind`` with its ``rank`` (a set) or its ``suit``, its end
    positions ``low``/``high`` and the bit mask ``wilds`` of the positions wilds stand
    in (a run, R7.4). Rollouts change it in place as cards are laid off."""

    kind: Kind
    rank: int = 0
    suit: int = -1
    low: int = 0
    high: int = 0
    wilds: int = 0

    def copy(self) -> Meld:
        return Meld(self.kind, self.rank, self.suit, self.low, self.high, self.wilds)


def fast_meld(meld: TableMeld) -> Meld:
    """The engine's table meld as a :class:`Meld`."""
    if meld.kind == "set":
        return Meld("set", rank=meld.rank)
    mask = 0
    for i, p in enumerate(meld.cards):
        if p.rank is not None:
            mask |= 1 << (meld.low + i)
    return Meld("run", suit=SUITS.index(meld.suit), low=meld.low, high=meld.high, wilds=mask)


def taken_ranks(history: Iterable[Event], seat: int) -> list[int]:
    """Ranks ``seat`` took from the discard pile this hand (public, R6.3), wilds aside."""
    return [e.card.rank for e in history
            if isinstance(e.action, Take) and e.action.seat == seat
            and e.card is not None and not e.card.is_wild]


class Stats(NamedTuple):
    """What a hand holds, for the contract analyser: ``ranks[r]`` naturals of rank ``r``;
    per suit, bit masks of the run positions held ``once`` or more and ``twice``; how
    many ``wilds``, and how many of them are ``twos`` (a set of 2s needs one, R5.5)."""

    ranks: tuple[int, ...]
    once: tuple[int, ...]
    twice: tuple[int, ...]
    wilds: int
    twos: int


def stats(hand: Iterable[int]) -> Stats:
    """The :class:`Stats` of a hand."""
    rc = [0] * 14
    once = [0, 0, 0, 0]
    twice = [0, 0, 0, 0]
    wilds = twos = 0
    for c in hand:
        if WILD[c]:
            wilds += 1
            if RANK[c] == TWO:
                twos += 1
            continue
        rc[RANK[c]] += 1
        s = SUIT[c]
        bits = RUN_BITS[c]
        if once[s] & bits:
            twice[s] |= bits
        else:
            once[s] |= bits
    # tuples of ints: cached analyses then stay out of the garbage collector's way
    return Stats(tuple(rc), tuple(once), tuple(twice), wilds, twos)


# -- laying off (R7.3) ----------------------------------------------------------------


def fits(c: int, meld: Meld) -> bool:
    """Can ``c`` be laid off alone onto ``meld`` (R7.3)?"""
    if WILD[c]:
        return meld.kind == "set" or meld.low > 1 or meld.high < 14
    if meld.kind == "set":
        return RANK[c] == meld.rank
    if SUIT[c] != meld.suit:
        return False
    r = RANK[c]
    if r == 1:
        return meld.low == 2 or meld.high == 13
    return r == meld.low - 1 or r == meld.high + 1


def fits_any(c: int, melds: Sequence[Meld]) -> bool:
    return any(fits(c, m) for m in melds)


def acceptable(melds: Sequence[Meld]) -> set[int]:
    """The natural cards that could be laid off onto ``melds`` (R7.3)."""
    cards: set[int] = set()
    for m in melds:
        if m.kind == "set":
            cards.update(AT[s][m.rank] for s in range(4))
        else:
            if m.low > 1 and m.low != TWO + 1:
                cards.add(AT[m.suit][m.low - 1])
            if m.high < 14:
                cards.add(AT[m.suit][m.high + 1])
    return cards


def lay_off(c: int, melds: Sequence[Meld], skip: int = -1) -> bool:
    """Lay ``c`` off onto the first meld it fits (but meld ``skip``), extending a run;
    False if none."""
    for i, m in enumerate(melds):
        if i != skip and fits(c, m):
            if m.kind == "run":
                if WILD[c]:
                    if m.low > 1:
                        m.low -= 1
                        m.wilds |= 1 << m.low
                    else:
                        m.high += 1
                        m.wilds |= 1 << m.high
                elif RANK[c] == 1:
                    if m.low == 2:
                        m.low = 1
                    else:
                        m.high = 14
                elif RANK[c] == m.low - 1:
                    m.low -= 1
                else:
                    m.high += 1
            return True
    return False
