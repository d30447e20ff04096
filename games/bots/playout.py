"""Playing cards out on a light copy of a hand: the greedy policy as the rollouts use it.

:func:`shed` and :func:`lay_best_contract` play a contract-holder's melds the way the
greedy bot picks them among engine actions, and :class:`World` is a whole hand with
every card placed (a determinization) that the greedy policy plays to its end for the
search bot. Cards and melds are the ints and lists of ``evaluate``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import Final

from games.engine.melds import MeldSpec, build_meld
from games.engine.state import MAX_TURNS

from .evaluate import (
    ACE_BITS,
    AT,
    JOKER_I,
    RANK,
    RUN,
    SET,
    SUIT,
    VALUE,
    WILD,
    Meld,
    Stats,
    analyse,
    discard_choice,
    end_is_good,
    fast_meld,
    fits,
    set_slots,
    stats,
    want_take,
)

_OPTIONS: Final = 16  # contract options a rollout compares


def leftover_key(rest: Sequence[int]) -> tuple[int, int, tuple[int, ...]]:
    """How good it is to be left with ``rest``: fewer cards, then a lower penalty; the
    cards themselves break ties, so that equal choices are made alike everywhere."""
    return len(rest), sum(VALUE[c] for c in rest), tuple(sorted(rest))


def rank_contracts(hand: Sequence[int], options: Sequence[Sequence[MeldSpec]],
                   table: Sequence[Meld], seat: int) -> list[tuple[int, list[int], list[Meld]]]:
    """Contract options (R7.1), best first by :func:`leftover_key` once everything else
    that can be is played out: (index, what is left in hand, the melds on the table)."""
    scored = []
    for i, option in enumerate(options):
        rest = list(hand)
        melds = [list(m) for m in table]
        for spec in option:
            for p in spec.cards:
                rest.remove(p.card.index)
            melds.append(fast_meld(build_meld(spec, meld_id=len(melds), owner=seat)))
        shed(rest, melds)
        scored.append((leftover_key(rest), i, rest, melds))
    scored.sort(key=lambda t: t[:2])
    return [(i, rest, melds) for _k, i, rest, melds in scored]


def lay_best_contract(hand: list[int], hand_no: int, melds: list[Meld]) -> bool:
    """Lay the contract (R7.1) as the greedy bot does (see :func:`rank_contracts`);
    False if the hand can't."""
    best: tuple[tuple[int, int, tuple[int, ...]], list[int], list[Meld]] | None = None
    for sets, runs in contract_options(hand_no, stats(hand)):
        rest = list(hand)
        new = [list(m) for m in melds]
        if _lay(rest, hand_no, sets, runs, new):
            shed(rest, new)
            key = leftover_key(rest)
            if best is None or key < best[0]:
                best = (key, rest, new)
    if best is None:
        return False
    hand[:] = best[1]
    melds[:] = best[2]
    return True


def contract_options(hand_no: int, st: Stats) -> list[tuple[list[int], list[tuple[int, int]]]]:
    """The ways to the contract the hand holds: (set ranks, run (suit, low)), each meld of
    the minimum length; sets take every natural of their rank (runs extend later)."""
    rc, once, twice, wilds = st
    options: list[tuple[int, list[int], list[tuple[int, int]]]] = []
    if hand_no in (1, 4):
        slots = [slot for slot in set_slots(tuple(rc)) if slot[0] <= wilds]
        for combo in combinations(slots, 2 if hand_no == 1 else 3):
            holes = sum(d for d, _v, _r in combo)
            if holes <= wilds:
                options.append((holes, [r for _d, _v, r in combo], []))
        return [(sets, runs) for _h, sets, runs in sorted(options)[:_OPTIONS]]
    length = 5 if hand_no == 5 else 4
    windows = [(h, s, lo) for s in range(4) if once[s]
               for h, lo in _useful_windows(once[s], length) if h <= wilds]
    if hand_no == 2:
        for hw, s, lo in windows:
            for d, _v, r in set_slots(tuple(rc)):
                pos = 14 if r == 1 and lo == 11 else r
                if lo <= pos < lo + 4 and once[s] >> pos & 1:
                    if rc[r] == 1:
                        continue
                    d = max(0, 4 - rc[r])
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


def _lay(hand: list[int], hand_no: int, sets: list[int], runs: list[tuple[int, int]],
         melds: list[Meld]) -> bool:
    """Move a contract's cards from ``hand`` to ``melds``; False if the hand falls short."""
    pool = [c for c in hand if WILD[c]]
    length = 5 if hand_no == 5 else 4
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
        melds.append([RUN, s, lo, lo + length - 1, mask])
    for i, r in enumerate(sets):
        naturals = [c for c in hand if RANK[c] == r and not WILD[c]]
        if sets.count(r) == 2 and i == sets.index(r):
            naturals = naturals[:max(1, len(naturals) - 3)]
        if not naturals or 3 - len(naturals) > len(pool):
            return False
        for c in naturals:
            hand.remove(c)
        for _ in range(3 - len(naturals)):
            hand.remove(pool.pop())
        melds.append([SET, r, 0, 0, 0])
    return True


def lay_off(c: int, melds: Sequence[Meld], skip: int = -1) -> bool:
    """Lay ``c`` off onto the first meld it fits (but meld ``skip``), extending a run;
    False if none."""
    for i, m in enumerate(melds):
        if i != skip and fits(c, m):
            if m[0] == RUN:
                if WILD[c]:
                    if m[2] > 1:
                        m[2] -= 1
                        m[4] |= 1 << m[2]
                    else:
                        m[3] += 1
                        m[4] |= 1 << m[3]
                elif RANK[c] == 1:
                    if m[2] == 2:
                        m[2] = 1
                    else:
                        m[3] = 14
                elif RANK[c] == m[2] - 1:
                    m[2] -= 1
                else:
                    m[3] += 1
            return True
    return False


def shed(hand: list[int], melds: list[Meld]) -> None:
    """Play out all a contract-holder can (R7.3, R7.4), in the greedy bot's order: melds
    of naturals, lay-offs of naturals, melds that need wilds, wild swaps, then the
    remaining wilds as lay-offs."""
    _natural_melds(hand, melds)
    _lay_off_naturals(hand, melds)
    if any(WILD[c] for c in hand):
        _wild_melds(hand, melds)
        _lay_off_naturals(hand, melds)
    if _swaps(hand, melds):
        _lay_off_naturals(hand, melds)
    for c in [c for c in hand if WILD[c]]:
        if lay_off(c, melds):
            hand.remove(c)


def _natural_melds(hand: list[int], melds: list[Meld]) -> None:
    if len(hand) < 3:
        return
    rc = [0] * 14
    once = [0, 0, 0, 0]
    for c in hand:
        if not WILD[c]:
            r = RANK[c]
            rc[r] += 1
            once[SUIT[c]] |= ACE_BITS if r == 1 else 1 << r
    if max(rc) < 3 and not any(m & m >> 1 & m >> 2 for m in once):
        return  # no three of a rank, no three in a row
    for r in range(1, 14):
        if rc[r] >= 3:
            hand[:] = [c for c in hand if WILD[c] or RANK[c] != r]
            melds.append([SET, r, 0, 0, 0])
    while True:
        once = [0, 0, 0, 0]
        for c in hand:
            if not WILD[c]:
                once[SUIT[c]] |= ACE_BITS if RANK[c] == 1 else 1 << RANK[c]
        best_len, best_lo, best_s = 0, 0, 0
        for s in range(4):
            mask = once[s]
            while mask:
                low = (mask & -mask).bit_length() - 1  # the lowest held position ...
                length = (~mask >> low & (mask >> low) + 1).bit_length() - 1  # ... its run
                if length > best_len:
                    best_len, best_lo, best_s = length, low, s
                mask &= ~(((1 << length) - 1) << low)
        if best_len < 3:
            return
        for pos in range(best_lo, best_lo + best_len):
            hand.remove(AT[best_s][pos])
        melds.append([RUN, best_s, best_lo, best_lo + best_len - 1, 0])


def _lay_off_naturals(hand: list[int], melds: list[Meld]) -> None:
    set_ranks = {m[1] for m in melds if m[0] == SET}
    if set_ranks:
        hand[:] = [c for c in hand if WILD[c] or RANK[c] not in set_ranks]
    for m in melds:
        if m[0] != RUN:
            continue
        s = m[1]
        while m[2] > 1 and m[2] != 3:  # a natural 2 counts as a wild here
            c = AT[s][m[2] - 1]
            if c not in hand:
                break
            hand.remove(c)
            m[2] -= 1
        while m[3] < 14 and m[3] != 1:
            c = AT[s][m[3] + 1]
            if c not in hand:
                break
            hand.remove(c)
            m[3] += 1


def _wild_melds(hand: list[int], melds: list[Meld]) -> None:
    """Melds a wild completes: two naturals (a pair, or two of a suit one or two apart)
    with one wild, the most expensive pair first; then the most expensive single with
    two wilds."""
    wilds = [c for c in hand if WILD[c]]
    while wilds:
        naturals = [c for c in hand if not WILD[c]]
        best: tuple[int, int, int, Meld] | None = None
        for i, c in enumerate(naturals):
            for x in naturals[i + 1:]:
                if RANK[x] == RANK[c]:
                    meld: Meld | None = [SET, RANK[c], 0, 0, 0]
                elif SUIT[x] == SUIT[c]:
                    meld = _run_with_wild(c, x)
                else:
                    continue
                if meld is not None and (best is None or VALUE[c] + VALUE[x] > best[0]):
                    best = (VALUE[c] + VALUE[x], c, x, meld)
        if best is None:
            break
        _v, c, x, meld = best
        hand.remove(c)
        hand.remove(x)
        hand.remove(wilds.pop())
        melds.append(meld)
    while len(wilds) >= 2:
        naturals = [c for c in hand if not WILD[c]]
        if not naturals:
            break
        c = max(naturals, key=lambda c: VALUE[c])
        hand.remove(c)
        hand.remove(wilds.pop())
        hand.remove(wilds.pop())
        melds.append([SET, RANK[c], 0, 0, 0])


def _run_with_wild(c: int, x: int) -> Meld | None:
    """The run two cards of one suit make with one wild, if they are one or two apart."""
    for p in (1, 14) if RANK[c] == 1 else (RANK[c],):
        for q in (1, 14) if RANK[x] == 1 else (RANK[x],):
            lo, hi = min(p, q), max(p, q)
            if hi - lo == 2:
                return [RUN, SUIT[c], lo, hi, 1 << (lo + 1)]
            if hi - lo == 1:
                if hi < 14:
                    return [RUN, SUIT[c], lo, hi + 1, 1 << (hi + 1)]
                return [RUN, SUIT[c], lo - 1, hi, 1 << (lo - 1)]
    return None


def _swaps(hand: list[int], melds: list[Meld]) -> bool:
    """Put naturals in place of the wilds runs hold, moving each wild to another meld."""
    spots = {}  # natural card -> (meld, position) of a wild standing for it
    for i, m in enumerate(melds):
        if m[4]:
            for p in range(m[2], m[3] + 1):
                if m[4] >> p & 1:
                    spots[AT[m[1]][p]] = (i, p)
    swapped = False
    for c in list(hand) if spots else ():
        spot = spots.pop(c, None)
        if spot is not None and not WILD[c] and lay_off(JOKER_I, melds, skip=spot[0]):
            melds[spot[0]][4] &= ~(1 << spot[1])
            hand.remove(c)
            swapped = True
    return swapped


class World:
    """A determinized hand: every card placed, as ints (see ``evaluate``)."""

    __slots__ = ("hand_no", "hands", "piles", "stock_n", "discard", "melds", "down", "turns",
                 "took", "scores")

    def __init__(self, hand_no: int, hands: list[list[int]], piles: list[list[int]],
                 discard: list[int], melds: list[Meld], down: list[bool], turns: int,
                 took: list[list[int]], stock_n: int | None = None) -> None:
        self.hand_no = hand_no
        self.hands = hands
        # The stock, split into one pile per seat that the seat draws from (and pushes
        # from): a seat's draws then don't depend on how often the others drew, which
        # keeps rollouts of different candidates alike (common random numbers).
        self.piles = piles
        self.stock_n = sum(len(p) for p in piles) if stock_n is None else stock_n
        self.discard = discard
        self.melds = melds
        self.down = down
        self.turns = turns
        self.took = took
        self.scores: tuple[int, int] | None = None

    def copy(self) -> World:
        return World(self.hand_no, [list(h) for h in self.hands], [list(p) for p in self.piles],
                     list(self.discard), [list(m) for m in self.melds], list(self.down),
                     self.turns, [list(t) for t in self.took], self.stock_n)

    # -- the greedy policy on this light state ------------------------------------

    def draw(self, seat: int, take: bool | None = None) -> int | None:
        """Seat's draw; returns the card it may not discard this turn (R6.5). A push on
        a short stock ends the hand (R6.4)."""
        hand = self.hands[seat]
        d = self.discard[-1]
        if take is None:
            take = want_take(hand, d, self.hand_no, self.down[seat], self.melds)
            if not take and self.stock_n < 2:
                take = not end_is_good(hand, seat, [len(h) for h in self.hands])
        if take:
            self.discard.pop()
            taken = None if d in hand else d
            hand.append(d)
            if not WILD[d]:
                self.took[seat].append(RANK[d])
            return taken
        if self.stock_n < 2:
            self.end(None)
            return None
        self.hands[(seat + 1) % 4] += [self.from_stock(seat), self.discard.pop()]
        hand.append(self.from_stock(seat))
        return None

    def from_stock(self, seat: int) -> int:
        pile = self.piles[seat] or max(self.piles, key=len)
        self.stock_n -= 1
        return pile.pop()

    def meld(self, seat: int) -> None:
        """Lay the contract when the hand makes it, then play out all it can."""
        hand = self.hands[seat]
        if not self.down[seat]:
            if (analyse(self.hand_no, hand)[1][0] == 0
                    and lay_best_contract(hand, self.hand_no, self.melds)):
                self.down[seat] = True
        else:
            shed(hand, self.melds)
        if not hand:
            self.end(seat)

    def discard_card(self, seat: int, taken: int | None, card: int | None = None) -> None:
        hand = self.hands[seat]
        if card is None:
            card = discard_choice(hand, taken, self.hand_no, self.melds, self.down, seat,
                                  self.took[(seat + 1) % 4])
        hand.remove(card)
        self.discard.append(card)
        self.turns += 1
        if not hand:
            self.end(seat)
        elif self.turns >= MAX_TURNS:
            self.end(None)

    def turn(self, seat: int) -> None:
        taken = self.draw(seat)
        if self.scores is None:
            self.meld(seat)
        if self.scores is None:
            self.discard_card(seat, taken)

    def finish(self, seat: int, deadline: float = math.inf) -> tuple[int, int] | None:
        """Play on from ``seat``'s turn to the end of the hand; the team scores, or None
        if the clock passes ``deadline`` first."""
        while self.scores is None:
            self.turn(seat)
            seat = (seat + 1) % 4
            if self.turns % 4 == 0 and time.perf_counter() > deadline:
                return None
        return self.scores

    def end(self, out_seat: int | None) -> None:
        scores = [sum(VALUE[c] for c in self.hands[s] + self.hands[s + 2]) for s in (0, 1)]
        if out_seat is not None:
            scores[out_seat % 2] = 0
        self.scores = (scores[0], scores[1])
