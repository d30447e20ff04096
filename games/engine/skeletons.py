"""The search under ``games.engine.ways``: the chosen natural cards split into groups,
each with a number of wilds, each group's shapes (a set, or a run window with holes), and
the holes filled with the wilds every way; every step paid for out of a work budget.

A *skeleton* is a shape for each group. Its candidates differ only in which wild fills
which hole, and never put a 2 where it would stand for itself (R5.4): those belong to the
skeleton that counts that 2 as a natural.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations, product
from typing import NamedTuple, TypeVar

from .cards import Card
from .melds import Kind, MeldSpec, Placed, declare, plain

T = TypeVar("T")
KINDS: frozenset[Kind] = frozenset(("set", "run"))


class OutOfWork(Exception):
    """The search's work budget is spent."""


class Work:
    """The units a search has spent; :class:`OutOfWork` instead of spending more than
    allowed."""

    __slots__ = ("budget", "spent")

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.spent = 0

    def spend(self, units: int = 1) -> None:
        if self.spent + units > self.budget:
            raise OutOfWork
        self.spent += units


# -- splitting the naturals into groups, each with some wilds --------------------------------


class Shape(NamedTuple):
    """A meld with holes for wilds: a set of ``rank`` or a run of ``suit`` from its first
    place ``low``; ``row`` holds its natural cards and, for each hole, its run position (0
    in a set)."""

    kind: Kind
    rank: int
    suit: str
    low: int
    row: tuple[Placed | int, ...]


Group = tuple[tuple[Card, ...], int]  # natural cards and a number of wilds


class Splits:
    """Splits of natural cards (in index order) and a number of wilds into groups that each
    make a meld of one of ``kinds``; memoised for one search, each step paid for."""

    def __init__(self, work: Work, kinds: frozenset[Kind], jokers: int) -> None:
        self.work, self.kinds, self.jokers = work, kinds, jokers
        self._shapes: dict[Group, tuple[Shape, ...]] = {}
        self._splittable: dict[tuple[tuple[Card, ...], int, int | None], bool] = {}
        self._groups: dict[tuple[Card, ...], list[tuple[tuple[Card, ...], tuple[Card, ...],
                                                       int]]] = {}

    def partitions(self, cards: tuple[Card, ...], wilds: int,
                   count: int | None) -> Iterator[list[Group]]:
        """Each split once: a group holds the first card left and partners of it (cards of
        its rank, or of its suit at other ranks); every group holds a natural (R5.5)."""
        self.work.spend()
        if not cards:
            if wilds == 0 and count in (None, 0):
                yield []
            return
        if count is not None and (len(cards) + wilds < 3 * count
                                  or not _coverable(cards, count, self.kinds)):
            return
        if count == 1:
            if self.shapes(cards, wilds):
                yield [(cards, wilds)]
            return
        more = None if count is None else count - 1
        for group, left, least in self.groups(cards):
            for extra in range(wilds, least - 1, -1):
                if self.shapes(group, extra) and self.splittable(left, wilds - extra, more):
                    for split in self.partitions(left, wilds - extra, more):
                        yield [(group, extra), *split]

    def groups(self, cards: tuple[Card, ...]) -> list[tuple[tuple[Card, ...], tuple[Card, ...],
                                                           int]]:
        """(group, the cards left, the fewest wilds it needs) for each group that holds the
        first card and could be a meld of one of ``kinds``."""
        if cards not in self._groups:
            found = []
            for partners in _partners(cards[0], cards[1:], self.kinds):
                self.work.spend()
                group = (cards[0], *partners)
                least = _fewest_wilds(group)
                if least is not None:
                    found.append((group, minus(cards[1:], partners), least))
            self._groups[cards] = found
        return self._groups[cards]

    def splittable(self, cards: tuple[Card, ...], wilds: int, count: int | None) -> bool:
        """Whether the cards split at all (each dead end explored once)."""
        key = (cards, wilds, count)
        if key not in self._splittable:
            self._splittable[key] = next(self.partitions(cards, wilds, count), None) is not None
        return self._splittable[key]

    def shapes(self, naturals: tuple[Card, ...], wilds: int) -> tuple[Shape, ...]:
        """Every meld (R5) of ``naturals`` and ``wilds`` wilds: a set, and runs in each
        window and placing of the aces."""
        key = (naturals, wilds)
        if key not in self._shapes:
            found = list(_shapes(naturals, wilds, self.kinds, self.jokers))
            self.work.spend(1 + len(found))
            self._shapes[key] = tuple(found)
        return self._shapes[key]


def _coverable(cards: tuple[Card, ...], count: int, kinds: frozenset[Kind]) -> bool:
    """Whether ``count`` melds could hold ``cards``: each holds one rank (a set) or one
    suit (a run), so some ranks and suits, ``count`` in all, take every card."""
    suits = sorted({c.suit for c in cards})
    for n in range(min(len(suits), count) + 1 if "run" in kinds else 1):
        for runs in combinations(suits, n):
            ranks = {c.rank for c in cards if c.suit not in runs}
            if n + len(ranks) <= count and ("set" in kinds or not ranks):
                return True
    return False


def _partners(first: Card, rest: tuple[Card, ...],
              kinds: frozenset[Kind]) -> Iterator[tuple[Card, ...]]:
    """The cards of ``rest`` that may share a meld with ``first``, most first: other cards
    of its rank (a set); or of its suit, each rank once but an ace at 1 and 14 (a run)."""
    same_rank = tuple(c for c in rest if c.rank == first.rank) if "set" in kinds else ()
    same_suit: list[Card] = []
    for c in rest if "run" in kinds else ():
        copies = (2 if c.rank == 1 else 1) - (c.rank == first.rank)
        if c.suit == first.suit and same_suit.count(c) < copies:
            same_suit.append(c)
    for size in range(max(len(same_rank), len(same_suit)), 0, -1):
        yield from of_size(same_rank, size)
        yield from of_size(tuple(same_suit), size)
    yield ()


def _fewest_wilds(group: tuple[Card, ...]) -> int | None:
    """The fewest wilds that make ``group`` a meld (R5.1-R5.3), or None: none will."""
    if len({c.rank for c in group}) == 1:
        return max(0, 3 - len(group))
    if len({c.suit for c in group}) != 1:
        return None
    spans = [max(p) - min(p) + 1 for p in placings(group) if len(set(p)) == len(p)]
    return max(3, min(spans)) - len(group) if spans else None


def _shapes(naturals: tuple[Card, ...], wilds: int, kinds: frozenset[Kind],
            jokers: int) -> Iterator[Shape]:
    length = len(naturals) + wilds
    ranks = {c.rank for c in naturals}
    if length < 3:
        return
    if "set" in kinds and len(ranks) == 1:
        rank = next(iter(ranks))
        if rank != 2 or wilds <= jokers:  # in a set of 2s every 2 is natural (R5.4)
            yield Shape("set", rank, "", 0, tuple(plain(c) for c in naturals) + (0,) * wilds)
    suits = {c.suit for c in naturals}
    if "run" not in kinds or len(suits) != 1 or length > 14:
        return
    suit = suits.pop()
    for placing in placings(naturals):
        if len(set(placing)) != len(placing):
            continue
        at = dict(zip(placing, naturals, strict=True))
        for low in range(max(1, max(placing) - length + 1), min(min(placing), 15 - length) + 1):
            yield Shape("run", 0, suit, low, tuple(plain(at[p]) if p in at else p
                                                   for p in range(low, low + length)))


def placings(naturals: Sequence[Card]) -> Iterator[tuple[int, ...]]:
    """The run positions of ``naturals``, each ace at 1 or at 14 (R5.3)."""
    return product(*((1, 14) if c.rank == 1 else (c.rank,) for c in naturals))


# -- filling the holes with the wilds ----------------------------------------------------


def fill(skeleton: Sequence[Shape], pool: tuple[Card, ...],
         work: Work) -> Iterator[tuple[MeldSpec, ...]]:
    """The melds of ``skeleton`` with the wilds of ``pool`` in its holes, every way: a set
    takes them in order, a run in every order; never a 2 where it would stand for itself."""
    if not skeleton:
        yield ()
        return
    shape, rest = skeleton[0], skeleton[1:]
    holes = sum(type(p) is int for p in shape.row)
    for chosen in of_size(pool, holes):
        work.spend()
        left = minus(pool, chosen)
        for spec in melds_of(shape, chosen, work):
            for more in fill(rest, left, work):
                yield (spec, *more)


def melds_of(shape: Shape, wilds: tuple[Card, ...], work: Work) -> Iterator[MeldSpec]:
    """The melds of ``shape`` with ``wilds`` in its holes: in a set in their order, in a run
    in every order, never a 2 where it would stand for itself (R5.4)."""
    if shape.kind == "set":
        work.spend()
        if shape.rank != 2 or all(w.is_joker for w in wilds):
            declared = (declare(w, "set", shape.rank, "") for w in wilds)
            yield MeldSpec("set", tuple(p for p in shape.row if type(p) is Placed)
                           + tuple(declared))
        return
    for arrangement in permutations(wilds):
        work.spend()
        cards: list[Placed] = []
        order = iter(arrangement)
        for p in shape.row:
            if isinstance(p, Placed):
                cards.append(p)
                continue
            wild = next(order)
            if p == 2 and wild.rank == 2 and wild.suit == shape.suit:
                break  # that 2 stands for itself: another skeleton's (R5.4)
            cards.append(declare(wild, "run", p, shape.suit))
        else:
            yield MeldSpec("run", tuple(cards))


# -- multisets ---------------------------------------------------------------------------


def minus(cards: tuple[T, ...], taken: tuple[T, ...]) -> tuple[T, ...]:
    """``cards`` without ``taken`` (a sub-multiset), in their order."""
    left = list(cards)
    for item in taken:
        left.remove(item)
    return tuple(left)


@lru_cache(maxsize=1024)
def submultisets(cards: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    """Every sub-multiset of ``cards``, largest first, each once."""
    return tuple(sub for size in range(len(cards), -1, -1) for sub in of_size(cards, size))


def of_size(items: tuple[T, ...], size: int) -> Iterator[tuple[T, ...]]:
    """The sub-multisets of ``items`` with ``size`` items, each once, in their order: most
    of the first distinct item first."""
    counts = list(Counter(items).items())
    after = [sum(n for _item, n in counts[i:]) for i in range(len(counts) + 1)]

    def pick(i: int, need: int) -> Iterator[tuple[T, ...]]:
        if need == 0:
            yield ()
            return
        if need > after[i]:
            return
        item, n = counts[i]
        for k in range(min(n, need), -1, -1):
            for more in pick(i + 1, need - k):
                yield (item,) * k + more

    return pick(0, size)


def permutations(items: tuple[T, ...]) -> Iterator[tuple[T, ...]]:
    """Distinct orderings of ``items`` (a multiset), in lexicographic order of first
    appearance."""
    counts = Counter(items)
    keys = list(dict.fromkeys(items))

    def place(chosen: list[T]) -> Iterator[tuple[T, ...]]:
        if len(chosen) == len(items):
            yield tuple(chosen)
            return
        for key in keys:
            if counts[key]:
                counts[key] -= 1
                chosen.append(key)
                yield from place(chosen)
                chosen.pop()
                counts[key] += 1

    return place([])
