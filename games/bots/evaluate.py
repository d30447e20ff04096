"""The greedy policy's judgement: take or push, what to discard, whether to end the hand.

Shared by the greedy bot (which turns these judgements into engine actions) and by
the search bot's rollouts (``playout.py``). Cards and melds are those of ``model.py``;
how far a hand is from its contract is ``contract.py``'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .contract import analyse, missing, plan_cards
from .model import (
    MEAN_VALUE,
    RANK,
    SHAPES,
    SUIT,
    VALUE,
    WILD,
    Meld,
    Stats,
    acceptable,
    fits_any,
    penalty_of,
)


def connection(c: int, st: Stats, sets: bool, runs: bool) -> int:
    """How much ``c`` builds with the rest of the hand: copies of its rank for sets,
    cards of its suit one or two places away for runs."""
    r = RANK[c]
    k = 3 * (st.ranks[r] - 1) if sets else 0
    if runs:
        mask = st.once[SUIT[c]]
        for p in (1, 14) if r == 1 else (r,):
            k += 2 * ((mask >> (p - 1) & 1) + (mask >> (p + 1) & 1))
            k += (mask >> (p + 2) & 1) + (p > 2 and mask >> (p - 2) & 1)
    return k


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


def want_take(hand: Sequence[int], d: int, hand_no: int, down: bool,
              melds: Sequence[Meld]) -> bool:
    """Take the discard ``d`` rather than push? Yes for a wild; before the contract,
    when it brings the contract closer; after it, when ``d`` can be played at once."""
    if WILD[d]:
        return True
    if down:
        return fits_any(d, melds) or forms_meld(d, hand)
    before = missing(hand_no, hand)
    if before == 0:
        return False
    return missing(hand_no, [*hand, d]) < before


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
        shape = SHAPES[hand_no]
        sets, runs = shape.sets > 0, shape.runs > 0
    wanted = set(left_ranks)
    risky = acceptable(table) if downs[(seat + 1) % 4] else set()
    welcome = acceptable(table) if downs[(seat + 2) % 4] and not risky else set()
    twice = st.twice
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
    ours = penalty_of(hand) + hand_sizes[(seat + 2) % 4] * MEAN_VALUE
    theirs = (hand_sizes[(seat + 1) % 4] + hand_sizes[(seat + 3) % 4]) * MEAN_VALUE
    return ours < theirs


def leftover_key(rest: Sequence[int]) -> tuple[int, int, tuple[int, ...]]:
    """How good it is to be left with ``rest``: fewer cards, then a lower penalty; the
    cards themselves break ties, so that equal choices are made alike everywhere."""
    return len(rest), penalty_of(rest), tuple(sorted(rest))
