"""The greedy policy's judgement, on plain ints for speed.

Shared by the greedy bot (which turns these judgements into engine actions) and by
the search bot's rollouts (``playout.py`` plays whole hands with them on a light copy
of the state). A card is its ``Card.index``: ``13 * suit + rank - 1`` for the 52
naturals (suits in ``SHDC`` order) and 52 for the joker. A meld is a list
``[kind, key, low, high, wilds]``: kind ``SET`` with ``key`` its rank, or kind ``RUN``
with ``key`` its suit, ``low``/``high`` its end positions (1 = ace low .. 14 = ace
high) and ``wilds`` a bit mask of the positions wilds stand in.

Every 2 counts as a wild here, even where the rules would let it stand for itself
(R5.4): a wild fills that place just as well, so nothing is lost by it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Final

from games.engine.cards import ALL_CARDS, SUITS
from games.engine.melds import TableMeld

JOKER_I: Final = 52
SET: Final = 0
RUN: Final = 1
RANK: Final = tuple(c.rank for c in ALL_CARDS)
SUIT: Final = tuple(-1 if c.is_joker else SUITS.index(c.suit) for c in ALL_CARDS)
VALUE: Final = tuple(c.value for c in ALL_CARDS)
WILD: Final = tuple(c.is_wild for c in ALL_CARDS)
#: the penalty a card nobody has seen is worth on average (960 points in 108 cards, R2.4)
MEAN_VALUE: Final = 960 / 108
_RANK_VALUE: Final = (20, 15, 20, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10)
_BIG: Final = 99
ACE_BITS: Final = 1 << 1 | 1 << 14

Meld = list[int]  # [kind, key, low, high, wilds] (see fast_meld)
Stats = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]
#: (cards still missing, ranks of the planned sets, (suit, low) of the planned runs)
Plan = tuple[int, tuple[int, ...], tuple[tuple[int, int], ...]]


def card_at(suit: int, position: int) -> int:
    """The natural card of ``suit`` at run ``position`` (14 is the ace)."""
    return suit * 13 + (0 if position == 14 else position - 1)


#: ``AT[suit][position]`` is ``card_at(suit, position)`` (position 0 unused)
AT: Final = tuple(tuple(card_at(s, p) if p else -1 for p in range(15)) for s in range(4))


def fast_meld(meld: TableMeld) -> Meld:
    """A table meld as ``[kind, key, low, high, wilds]``; ``wilds`` is a bit mask of the
    positions of a run that wilds stand in (R7.4)."""
    if meld.kind == "set":
        return [SET, meld.rank, 0, 0, 0]
    mask = 0
    for i, p in enumerate(meld.cards):
        if p.rank is not None:
            mask |= 1 << (meld.low + i)
    return [RUN, SUITS.index(meld.suit), meld.low, meld.high, mask]


def stats(hand: Iterable[int]) -> Stats:
    """Rank counts of the naturals; per suit, bit masks of the run positions held once
    or more and twice (the ace at both 1 and 14); the number of wilds."""
    rc = [0] * 14
    once = [0, 0, 0, 0]
    twice = [0, 0, 0, 0]
    wilds = 0
    for c in hand:
        if WILD[c]:
            wilds += 1
            continue
        r = RANK[c]
        rc[r] += 1
        s = SUIT[c]
        bits = ACE_BITS if r == 1 else 1 << r
        if once[s] & bits:
            twice[s] |= bits
        else:
            once[s] |= bits
    # tuples of ints: cached analyses then stay out of the garbage collector's way
    return tuple(rc), tuple(once), tuple(twice), wilds


# -- distance to the contract (R3.2) ------------------------------------------------

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


def plan(hand_no: int, st: Stats) -> Plan:
    """The cheapest way to the contract: how many cards are still missing, and which
    sets and runs to build. Missing cards count what wilds in hand cannot fill."""
    rc, once, twice, wilds = st
    if hand_no == 1:
        return _plan_sets(rc, wilds, 2)
    if hand_no == 4:
        return _plan_sets(rc, wilds, 3)
    if hand_no == 2:
        return _plan_set_run(rc, once, wilds)
    return _plan_runs(once, twice, wilds, 4 if hand_no == 3 else 5)


@lru_cache(maxsize=1 << 14)
def set_slots(rc: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """(wilds a set of this rank needs, rank value, rank), cheapest first; a rank with
    four or more naturals offers a second set (R7.1 allows two of one rank)."""
    slots = []
    for r in range(1, 14):
        n = rc[r]
        if n:
            slots.append((max(0, 3 - n), _RANK_VALUE[r], r))
            if n >= 4:
                slots.append((max(0, 6 - n), _RANK_VALUE[r], r))
    slots.sort()
    return tuple(slots)


def _plan_sets(rc: Sequence[int], wilds: int, k: int) -> Plan:
    chosen = set_slots(tuple(rc))[:k]
    short = k - len(chosen)  # sets with no natural yet: one must be found (R5.5)
    holes = sum(d for d, _v, _r in chosen) + 3 * short
    return max(short, holes - wilds), tuple(r for _d, _v, r in chosen), ()


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


def _plan_runs(once: Sequence[int], twice: Sequence[int], wilds: int, length: int) -> Plan:
    singles = []
    for s in range(4):
        if once[s]:
            m, lo = _best_window(once[s], length)
            if m < length:
                singles.append((m, s, lo))
    if not singles:
        return max(2, 2 * length - wilds), (), ()
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
        t, lo1, lo2 = _best_pair(once[s], twice[s], length)
        if t < best:
            best = t
            runs = ((s, lo1), (s, lo2))
    return max(0, best - wilds), (), runs


@lru_cache(maxsize=1 << 14)
def _windows_by_holes(mask: int, length: int) -> tuple[tuple[int, int], ...]:
    """(cards lacking, low) of the run windows holding a natural, fewest lacking first."""
    return tuple(sorted((h, i + 1) for i, h in enumerate(window_holes(mask, length)) if h < length))


def _plan_set_run(rc: Sequence[int], once: Sequence[int], wilds: int) -> Plan:
    slots = set_slots(tuple(rc))
    suits = [(s, w) for s in range(4) if once[s] and (w := _windows_by_holes(once[s], 4))]
    if not suits or not slots:
        return max(1, 7 - wilds), (), ()
    cutoff = min(w[0][0] for _s, w in suits) + 1
    best = _BIG
    found: Plan = (_BIG, (), ())
    for s, windows in suits:
        mask = once[s]
        for hw, lo in windows:
            if hw > cutoff or hw >= best:
                break
            inside = mask >> lo & 15
            for d, _v, r in slots:
                if d + hw >= best:
                    break
                if (lo <= r <= lo + 3 and inside >> (r - lo) & 1) or (r == 1 and lo == 11
                                                                      and inside >> 3 & 1):
                    avail = rc[r] - 1  # the run takes one natural of this rank
                    if avail == 0:
                        continue
                    d = max(0, 3 - avail)
                if d + hw < best:
                    best = d + hw
                    found = (0, (r,), ((s, lo),))
    if best == _BIG:
        return max(1, 7 - wilds), (), ()
    return max(0, best - wilds), found[1], found[2]


def plan_cards(hand_no: int, st: Stats, p: Plan) -> dict[int, int]:
    """The naturals in hand that plan ``p`` builds on (card -> how many copies)."""
    _rc, once, twice, _w = st
    used: dict[int, int] = {}
    length = 5 if hand_no == 5 else 4
    for s, lo in p[2]:
        for pos in range(lo, lo + length):
            if once[s] >> pos & 1:
                c = AT[s][pos]
                used[c] = min(used.get(c, 0) + 1, 1 + (twice[s] >> pos & 1))
    for r in p[1]:
        bit = 1 << r
        for s in range(4):
            if once[s] & bit:
                used[s * 13 + r - 1] = 1 + (twice[s] >> r & 1)
    return used


# -- structure and danger -----------------------------------------------------------


def connection(c: int, st: Stats, sets: bool, runs: bool) -> int:
    """How much ``c`` builds with the rest of the hand: copies of its rank for sets,
    cards of its suit one or two places away for runs."""
    r = RANK[c]
    k = 3 * (st[0][r] - 1) if sets else 0
    if runs:
        mask = st[1][SUIT[c]]
        for p in (1, 14) if r == 1 else (r,):
            k += 2 * ((mask >> (p - 1) & 1) + (mask >> (p + 1) & 1))
            k += (mask >> (p + 2) & 1) + (p > 2 and mask >> (p - 2) & 1)
    return k


def fits(c: int, meld: Meld) -> bool:
    """Can ``c`` be laid off alone onto ``meld`` (R7.3)?"""
    if WILD[c]:
        return meld[0] == SET or meld[2] > 1 or meld[3] < 14
    if meld[0] == SET:
        return RANK[c] == meld[1]
    if SUIT[c] != meld[1]:
        return False
    r = RANK[c]
    if r == 1:
        return meld[2] == 2 or meld[3] == 13
    return r == meld[2] - 1 or r == meld[3] + 1


def fits_any(c: int, melds: Sequence[Meld]) -> bool:
    return any(fits(c, m) for m in melds)


def acceptable(melds: Sequence[Meld]) -> set[int]:
    """The natural cards that could be laid off onto ``melds`` (R7.3)."""
    cards: set[int] = set()
    for m in melds:
        if m[0] == SET:
            cards.update(s * 13 + m[1] - 1 for s in range(4))
        else:
            if m[2] > 1 and m[2] != 3:
                cards.add(AT[m[1]][m[2] - 1])
            if m[3] < 14:
                cards.add(AT[m[1]][m[3] + 1])
    return cards


def forms_meld(c: int, hand: Sequence[int]) -> bool:
    """Would ``c`` make a new meld of naturals with two cards of ``hand``?"""
    if WILD[c]:
        return True
    r, s = RANK[c], SUIT[c]
    same_rank = 0
    near = set()
    for x in hand:
        if WILD[x]:
            continue
        if RANK[x] == r:
            same_rank += 1
        elif SUIT[x] == s:
            near.add(RANK[x])
            if RANK[x] == 1:
                near.add(14)
    if same_rank >= 2:
        return True
    for p in (1, 14) if r == 1 else (r,):
        if ((p - 1 in near and p - 2 in near) or (p - 1 in near and p + 1 in near)
                or (p + 1 in near and p + 2 in near)):
            return True
    return False


# -- decisions ------------------------------------------------------------------------


def want_take(hand: Sequence[int], d: int, hand_no: int, down: bool,
              melds: Sequence[Meld]) -> bool:
    """Take the discard ``d`` rather than push? Yes for a wild; before the contract,
    when it brings the contract closer; after it, when ``d`` can be played at once."""
    if WILD[d]:
        return True
    if down:
        return fits_any(d, melds) or forms_meld(d, hand)
    before = analyse(hand_no, hand)[1][0]
    if before == 0:
        return False
    return analyse(hand_no, [*hand, d])[1][0] < before


def discard_choice(hand: Sequence[int], taken: int | None, hand_no: int,
                   table: Sequence[Meld], downs: Sequence[bool], seat: int,
                   left_ranks: Iterable[int] = ()) -> int:
    """The card to discard (see :func:`discard_ranking`); the taken card only when it is
    the last one (which the rules forbid, R6.5, but rollouts may reach)."""
    ranking = discard_ranking(hand, taken, hand_no, table, downs, seat, left_ranks)
    return ranking[0] if ranking else hand[0]


def discard_ranking(hand: Sequence[int], taken: int | None, hand_no: int,
                    table: Sequence[Meld], downs: Sequence[bool], seat: int,
                    left_ranks: Iterable[int] = ()) -> list[int]:
    """The cards worth discarding, best first: not one the contract plan needs, the
    least connected, the most expensive; never the card just taken (R6.5).

    The opponent on the left sees the discard first: avoid what it could lay off onto
    ``table`` (when its contract is down, R7.3) and ranks it took from the pile this hand
    (``left_ranks``). When it pushes, the discard goes on to our partner (R6.3), so
    prefer a card the partner could lay off, if its contract is down. ``downs`` are the
    four contract flags, ``seat`` the discarding seat."""
    st, p = analyse(hand_no, hand)
    down = downs[seat]
    if down:
        used: dict[int, int] = {}
        sets = runs = True
    else:
        used = plan_cards(hand_no, st, p)
        sets = hand_no in (1, 2, 4)
        runs = hand_no in (2, 3, 5)
    wanted = set(left_ranks)
    risky = acceptable(table) if downs[(seat + 1) % 4] else set()
    welcome = acceptable(table) if downs[(seat + 2) % 4] and not risky else set()
    twice = st[2]
    keyed = []
    for c in set(hand):
        if c == taken:
            continue
        if WILD[c]:
            keep = 1000
        else:
            keep = connection(c, st, sets, runs)
            if used and used.get(c, 0) > (twice[SUIT[c]] >> RANK[c] & 1):
                keep += 100
            if RANK[c] in wanted:
                keep += 4
            if c in risky:
                keep += 6
            if c in welcome:
                keep -= 3
        keyed.append((keep, -VALUE[c], c))
    keyed.sort()
    return [c for _k, _v, c in keyed]


def end_is_good(hand: Sequence[int], seat: int, hand_sizes: Sequence[int]) -> bool:
    """With fewer than two cards in the stock a push ends the hand (R6.4) and both teams
    score their cards (R9.1): is that likely to cost us less than the opponents?"""
    ours = sum(VALUE[c] for c in hand) + hand_sizes[(seat + 2) % 4] * MEAN_VALUE
    theirs = (hand_sizes[(seat + 1) % 4] + hand_sizes[(seat + 3) % 4]) * MEAN_VALUE
    return ours < theirs


