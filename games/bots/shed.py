"""How the greedy policy plays a contract-holder's cards out, on the card model.

:func:`rank_contracts` orders the engine's contract options for the greedy bot;
:func:`lay_best_contract` and :func:`shed` play the same choices on a rollout's light
state (``playout.py``): melds of naturals, lay-offs of naturals, melds a wild
completes, wild swaps, then the remaining wilds as lay-offs (R7.3, R7.4).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.melds import MeldSpec, build_meld

from .contract import contract_options, lay_contract
from .evaluate import leftover_key
from .model import (
    AT,
    JOKER_I,
    MIN_MELD,
    RANK,
    RUN_BITS,
    SUIT,
    TWO,
    VALUE,
    WILD,
    Meld,
    fast_meld,
    lay_off,
    stats,
)


def rank_contracts(hand: Sequence[int], options: Sequence[Sequence[MeldSpec]],
                   table: Sequence[Meld], seat: int) -> list[tuple[int, list[int], list[Meld]]]:
    """Contract options (R7.1), best first by :func:`leftover_key` once everything else
    that can be is played out: (index, what is left in hand, the melds on the table)."""
    scored = []
    for i, option in enumerate(options):
        rest = list(hand)
        melds = [m.copy() for m in table]
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
        new = [m.copy() for m in melds]
        if lay_contract(rest, hand_no, sets, runs, new):
            shed(rest, new)
            key = leftover_key(rest)
            if best is None or key < best[0]:
                best = (key, rest, new)
    if best is None:
        return False
    hand[:] = best[1]
    melds[:] = best[2]
    return True


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
    if len(hand) < MIN_MELD:
        return
    rc = [0] * 14
    once = [0, 0, 0, 0]
    for c in hand:
        if not WILD[c]:
            rc[RANK[c]] += 1
            once[SUIT[c]] |= RUN_BITS[c]
    if max(rc) < MIN_MELD and not any(m & m >> 1 & m >> 2 for m in once):
        return  # no three of a rank, no three in a row
    for r in range(1, 14):
        if rc[r] >= MIN_MELD:
            hand[:] = [c for c in hand if WILD[c] or RANK[c] != r]
            melds.append(Meld("set", rank=r))
    while True:
        once = [0, 0, 0, 0]
        for c in hand:
            if not WILD[c]:
                once[SUIT[c]] |= RUN_BITS[c]
        best_len, best_lo, best_s = 0, 0, 0
        for s in range(4):
            mask = once[s]
            while mask:
                low = (mask & -mask).bit_length() - 1  # the lowest held position ...
                length = (~mask >> low & (mask >> low) + 1).bit_length() - 1  # ... its run
                if length > best_len:
                    best_len, best_lo, best_s = length, low, s
                mask &= ~(((1 << length) - 1) << low)
        if best_len < MIN_MELD:
            return
        for pos in range(best_lo, best_lo + best_len):
            hand.remove(AT[best_s][pos])
        melds.append(Meld("run", suit=best_s, low=best_lo, high=best_lo + best_len - 1))


def _lay_off_naturals(hand: list[int], melds: list[Meld]) -> None:
    set_ranks = {m.rank for m in melds if m.kind == "set"}
    if set_ranks:
        hand[:] = [c for c in hand if WILD[c] or RANK[c] not in set_ranks]
    for m in melds:
        if m.kind != "run":
            continue
        s = m.suit
        while m.low > 1 and m.low != TWO + 1:  # a natural 2 counts as a wild here
            c = AT[s][m.low - 1]
            if c not in hand:
                break
            hand.remove(c)
            m.low -= 1
        while m.high < 14 and m.high != TWO - 1:
            c = AT[s][m.high + 1]
            if c not in hand:
                break
            hand.remove(c)
            m.high += 1


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
                    meld: Meld | None = Meld("set", rank=RANK[c])
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
        melds.append(Meld("set", rank=RANK[c]))


def _run_with_wild(c: int, x: int) -> Meld | None:
    """The run two cards of one suit make with one wild, if they are one or two apart."""
    for p in (1, 14) if RANK[c] == 1 else (RANK[c],):
        for q in (1, 14) if RANK[x] == 1 else (RANK[x],):
            lo, hi = min(p, q), max(p, q)
            if hi - lo == 2:
                return Meld("run", suit=SUIT[c], low=lo, high=hi, wilds=1 << (lo + 1))
            if hi - lo == 1:
                if hi < 14:
                    return Meld("run", suit=SUIT[c], low=lo, high=hi + 1, wilds=1 << (hi + 1))
                return Meld("run", suit=SUIT[c], low=lo - 1, high=hi, wilds=1 << (lo - 1))
    return None


def _swaps(hand: list[int], melds: list[Meld]) -> bool:
    """Put naturals in place of the wilds runs hold, moving each wild to another meld."""
    spots = {}  # natural card -> (meld, position) of a wild standing for it
    for i, m in enumerate(melds):
        if m.wilds:
            for p in range(m.low, m.high + 1):
                if m.wilds >> p & 1:
                    spots[AT[m.suit][p]] = (i, p)
    swapped = False
    for c in list(hand) if spots else ():
        spot = spots.pop(c, None)
        if spot is not None and not WILD[c] and lay_off(JOKER_I, melds, skip=spot[0]):
            melds[spot[0]].wilds &= ~(1 << spot[1])
            hand.remove(c)
            swapped = True
    return swapped
