"""The bots' contract analyser (R3.2, R7.1) on the card model of ``model.py``.

:func:`analyse` says how far a hand is from its contract and which melds to build
towards it (the judgement of take and discard leans on it); :func:`contract_options`
and :func:`lay_contract` find and lay the contracts a hand holds in the rollouts.
The contract of each hand is its :data:`~games.bots.model.SHAPES` entry; every 2
counts as a wild, and a set of 2s is three wild cards of which one is a 2 (R5.4).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from itertools import combinations
from typing import Final, NamedTuple

from .model import AT, RANK, RANK_VALUE, SHAPES, TWO, WILD, Meld, Shape, Stats, stats

_BIG: Final = 99
_OPTIONS: Final = 16  # contract options a rollout compares


class Plan(NamedTuple):
    """The cheapest way to the contract: how many cards are still ``missing`` (what
    wilds in hand cannot fill), the ranks of the ``sets`` and the (suit, low) of the
    ``runs`` to build."""

    missing: int
    sets: tuple[int, ...]
    runs: tuple[tuple[int, int], ...]


_ANALYSES: dict[tuple[int, tuple[int, ...]], tuple[Stats, Plan]] = {}


def analyse(hand_no: int, hand: Iterable[int]) -> tuple[Stats, Plan]:
    """``stats`` and ``plan`` of a hand, remembered: rollouts ask about the same hands
    again and again (callers must not change what they get)."""
    key = (hand_no, tuple(sorted(hand)))
    found = _ANALYSES.get(key)
    if found is None:
        if len(_ANALYSES) > 50_000:
            _ANALYSES.clear()
        st = stats(key[1])
        found = _ANALYSES[key] = (st, plan(hand_no, st))
    return found


def missing(hand_no: int, hand: Iterable[int]) -> int:
    """Cards the hand still lacks for its contract (0: it holds one)."""
    return analyse(hand_no, hand)[1].missing


def plan(hand_no: int, st: Stats) -> Plan:
    """The :class:`Plan` of a hand of hand number ``hand_no``."""
    shape = SHAPES[hand_no]
    return _PLANNERS[hand_no](st, shape)


@lru_cache(maxsize=1 << 14)
def set_slots(rc: tuple[int, ...], twos: int, length: int) -> tuple[tuple[int, int, int], ...]:
    """(wilds a set of this rank and ``length`` needs, rank value, rank), cheapest first;
    a rank with enough naturals offers a second set (R7.1 allows two of one rank). A
    set of 2s takes ``length`` wild cards, one of them a 2 (R5.4, R5.5)."""
    slots = []
    for r in range(1, 14):
        n = rc[r]
        if n:
            slots.append((max(0, length - n), RANK_VALUE[r], r))
            if n > length:
                slots.append((max(0, 2 * length - n), RANK_VALUE[r], r))
    slots += [(length, RANK_VALUE[TWO], TWO)] * min(twos, 2)
    slots.sort()
    return tuple(slots)


def _plan_sets(st: Stats, shape: Shape) -> Plan:
    k = shape.sets
    chosen = set_slots(st.ranks, st.twos, shape.set_length)[:k]
    short = k - len(chosen)  # sets with no natural yet: one must be found (R5.5)
    holes = sum(d for d, _v, _r in chosen) + shape.set_length * short
    return Plan(max(short, holes - st.wilds), tuple(r for _d, _v, r in chosen), ())


@lru_cache(maxsize=1 << 14)
def window_holes(mask: int, length: int) -> tuple[int, ...]:
    """Cards each run window (low = index + 1) lacks; ``length`` when it has no natural."""
    full = (1 << length) - 1
    return tuple(length - (mask >> lo & full).bit_count() for lo in range(1, 16 - length))


@lru_cache(maxsize=1 << 14)
def _best_window(mask: int, length: int) -> tuple[int, int]:
    """The window lacking the fewest cards: (cards lacking, low)."""
    h = window_holes(mask, length)
    m = min(h)
    return m, h.index(m) + 1


@lru_cache(maxsize=1 << 14)
def _best_pair(once: int, twice: int, length: int) -> tuple[int, int, int]:
    """Two runs in one suit lacking the fewest cards: (cards lacking, low, low); where
    the windows overlap each card is needed twice (R2.1: two of each)."""
    h = window_holes(once, length)
    single = once & ~twice
    best = (_BIG, 0, 0)
    n = len(h)
    for i in range(n):
        hi = h[i]
        if hi >= length:
            continue
        lo1 = i + 1
        for j in range(i, n):
            hj = h[j]
            if hj >= length or hi + hj >= best[0]:
                continue
            lo2 = j + 1
            if lo2 < lo1 + length:
                overlap = ((1 << (lo1 + length - lo2)) - 1) << lo2
                extra = (single & overlap).bit_count()
            else:  # both ends use the one ace
                extra = int(lo1 == 1 and lo2 + length - 1 == 14 and single >> 1 & 1)
            if hi + hj + extra < best[0]:
                best = (hi + hj + extra, lo1, lo2)
    return best


def _plan_runs(st: Stats, shape: Shape) -> Plan:
    once, length, wilds = st.once, shape.run_length, st.wilds
    singles = []
    for s in range(4):
        if once[s]:
            m, lo = _best_window(once[s], length)
            if m < length:
                singles.append((m, s, lo))
    if not singles:
        return Plan(max(shape.runs, shape.runs * length - wilds), (), ())
    singles.sort()
    best = _BIG
    runs: tuple[tuple[int, int], ...] = ()
    if len(singles) >= 2:
        (m0, s0, lo0), (m1, s1, lo1) = singles[0], singles[1]
        best = m0 + m1
        runs = ((s0, lo0), (s1, lo1))
    for m, s, _lo in singles:
        if 2 * m >= best:
            break
        t, lo1, lo2 = _best_pair(once[s], st.twice[s], length)
        if t < best:
            best = t
            runs = ((s, lo1), (s, lo2))
    return Plan(max(0, best - wilds), (), runs)


@lru_cache(maxsize=1 << 14)
def _windows_by_holes(mask: int, length: int) -> tuple[tuple[int, int], ...]:
    """(cards lacking, low) of the run windows holding a natural, fewest lacking first."""
    return tuple(sorted((h, i + 1) for i, h in enumerate(window_holes(mask, length)) if h < length))


def _in_window(r: int, lo: int, length: int) -> int:
    """The position rank ``r`` takes in the run window from ``lo``, or 0 if none."""
    if lo <= r < lo + length:
        return r
    return 14 if r == 1 and lo + length > 14 else 0


def _plan_set_run(st: Stats, shape: Shape) -> Plan:
    rc, once, wilds = st.ranks, st.once, st.wilds
    length = shape.run_length
    slots = set_slots(rc, st.twos, shape.set_length)
    suits = [(s, w) for s in range(4) if once[s] and (w := _windows_by_holes(once[s], length))]
    if not suits or not slots:
        return Plan(max(1, shape.set_length + length - wilds), (), ())
    cutoff = min(w[0][0] for _s, w in suits) + 1
    best = _BIG
    found = Plan(_BIG, (), ())
    for s, windows in suits:
        mask = once[s]
        for hw, lo in windows:
            if hw > cutoff or hw >= best:
                break
            for d, _v, r in slots:
                if d + hw >= best:
                    break
                pos = _in_window(r, lo, length)
                if pos and mask >> pos & 1:
                    avail = rc[r] - 1  # the run takes one natural of this rank
                    if avail == 0:
                        continue
                    d = max(0, shape.set_length - avail)
                if d + hw < best:
                    best = d + hw
                    found = Plan(0, (r,), ((s, lo),))
    if best == _BIG:
        return Plan(max(1, shape.set_length + length - wilds), (), ())
    return Plan(max(0, best - wilds), found.sets, found.runs)


def _planner(shape: Shape) -> Callable[[Stats, Shape], Plan]:
    """The planner for a contract of ``shape``; the engine's contracts all have one."""
    if not shape.runs:
        return _plan_sets
    if not shape.sets and shape.runs == 2:
        return _plan_runs
    if shape.sets == shape.runs == 1:
        return _plan_set_run
    raise ValueError(f"the bots cannot plan a contract of {shape}")


_PLANNERS: Final = {hand_no: _planner(shape) for hand_no, shape in SHAPES.items()}


def plan_cards(hand_no: int, st: Stats, p: Plan) -> dict[int, int]:
    """The naturals in hand that plan ``p`` builds on (card -> how many copies)."""
    once, twice = st.once, st.twice
    used: dict[int, int] = {}
    length = SHAPES[hand_no].run_length
    for s, lo in p.runs:
        for pos in range(lo, lo + length):
            if once[s] >> pos & 1:
                c = AT[s][pos]
                used[c] = min(used.get(c, 0) + 1, 1 + (twice[s] >> pos & 1))
    for r in p.sets:
        bit = 1 << r
        for s in range(4):
            if once[s] & bit:
                used[AT[s][r]] = 1 + (twice[s] >> r & 1)
    return used


# -- laying the contract in a rollout ---------------------------------------------------


def contract_options(hand_no: int, st: Stats) -> list[tuple[list[int], list[tuple[int, int]]]]:
    """The ways to the contract the hand holds: (set ranks, run (suit, low)), each meld of
    the minimum length; sets take every natural of their rank (runs extend later)."""
    rc, once, twice, wilds = st.ranks, st.once, st.twice, st.wilds
    shape = SHAPES[hand_no]
    slots = set_slots(rc, st.twos, shape.set_length)
    options: list[tuple[int, list[int], list[tuple[int, int]]]] = []
    if not shape.runs:
        for combo in combinations([slot for slot in slots if slot[0] <= wilds], shape.sets):
            holes = sum(d for d, _v, _r in combo)
            if holes <= wilds:
                options.append((holes, [r for _d, _v, r in combo], []))
        return [(sets, runs) for _h, sets, runs in sorted(options)[:_OPTIONS]]
    length = shape.run_length
    windows = [(h, s, lo) for s in range(4) if once[s]
               for h, lo in _useful_windows(once[s], length) if h <= wilds]
    if shape.sets:
        for hw, s, lo in windows:
            for d, _v, r in slots:
                pos = _in_window(r, lo, length)
                if pos and once[s] >> pos & 1:
                    if rc[r] == 1:
                        continue
                    d = max(0, shape.set_length + 1 - rc[r])
                if hw + d <= wilds:
                    options.append((hw + d, [r], [(s, lo)]))
    else:
        for i, (h1, s1, lo1) in enumerate(windows):
            for h2, s2, lo2 in windows[i:]:
                holes = h1 + h2
                low, high = min(lo1, lo2), max(lo1, lo2)
                if s1 == s2 and high < low + length:
                    overlap = ((1 << (low + length - high)) - 1) << high
                    holes += (once[s1] & ~twice[s1] & overlap).bit_count()
                if holes <= wilds:
                    options.append((holes, [], [(s1, lo1), (s2, lo2)]))
    return [(sets, runs) for _h, sets, runs in sorted(options)[:_OPTIONS]]


@lru_cache(maxsize=1 << 14)
def _useful_windows(mask: int, length: int) -> tuple[tuple[int, int], ...]:
    """(cards lacking, low) of the run windows worth laying: one per set of naturals
    covered, and none whose naturals another window covers with more (R5.3)."""
    full = (1 << length) - 1
    covered: dict[int, int] = {}
    for lo in range(1, 16 - length):
        held = mask >> lo & full
        if held:
            covered.setdefault(held << lo, lo)
    sets = list(covered)
    return tuple(sorted((length - held.bit_count(), lo) for held, lo in covered.items()
                        if not any(other != held and other & held == held for other in sets)))


def lay_contract(hand: list[int], hand_no: int, sets: list[int], runs: list[tuple[int, int]],
                 melds: list[Meld]) -> bool:
    """Move a contract's cards from ``hand`` to ``melds``; False if the hand falls short."""
    pool = [c for c in hand if WILD[c]]
    shape = SHAPES[hand_no]
    # each set of 2s keeps a 2 of its own before the runs draw on the wilds (R5.5)
    twos = []
    for _ in range(sets.count(TWO)):
        two = next((c for c in reversed(pool) if RANK[c] == TWO), None)
        if two is None:
            return False
        pool.remove(two)
        twos.append(two)
    length = shape.run_length
    for s, lo in runs:
        mask = 0
        for pos in range(lo, lo + length):
            c = AT[s][pos]
            if not WILD[c] and c in hand:
                hand.remove(c)
            elif pool:
                hand.remove(pool.pop())
                mask |= 1 << pos
            else:
                return False
        melds.append(Meld("run", suit=s, low=lo, high=lo + length - 1, wilds=mask))
    for i, r in enumerate(sets):
        if r == TWO:
            naturals = [twos.pop()]
        else:
            naturals = [c for c in hand if RANK[c] == r and not WILD[c]]
            if sets.count(r) == 2 and i == sets.index(r):
                naturals = naturals[:max(1, len(naturals) - shape.set_length)]
        if not naturals or shape.set_length - len(naturals) > len(pool):
            return False
        for c in naturals:
            hand.remove(c)
        for _ in range(shape.set_length - len(naturals)):
            hand.remove(pool.pop())
        melds.append(Meld("set", rank=r))
    return True
