"""The ``greedy`` bot: a sound heuristic player that looks one move ahead.

Draw: take the discard when it is a wild, when it brings the contract closer, or
(contract down) when it can be played at once; otherwise push, which also hands the
opponent on the left two cards to carry. With fewer than two cards in the stock a
push ends the hand (R6.4), so it pushes only when that likely favours its team.

Play: lays the contract as soon as it can, choosing the option that leaves the
fewest, then cheapest, cards after everything else is played out; then lays melds
of naturals, lays off naturals, lays melds a wild completes, swaps wilds (R7.4),
lays off the remaining wilds. Discard: a card the contract plan does not need, the
least connected (pairs, run neighbours), the most expensive, avoiding cards the
opponent on the left could lay off or has been taking; as that opponent usually
pushes, handing the discard on to our partner, it prefers a card the partner can lay
off once the partner's contract is down.

The judgement itself is in ``evaluate.py`` (and ``shed.py`` for what a contract
leaves in hand), on the card model of ``model.py``, shared with the search bot's
rollouts.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from games.engine import (
    Action,
    Discard,
    LayContract,
    LayMelds,
    LayOff,
    Observation,
    Push,
    Swap,
    Take,
)

from .evaluate import discard_ranking, end_is_good, want_take
from .model import fast_meld, taken_ranks
from .shed import rank_contracts


def take_or_push(obs: Observation) -> Action:
    """The greedy draw (R6.3)."""
    seat = obs.seat
    hand = [c.index for c in obs.hand]
    melds = [fast_meld(m) for m in obs.melds]
    take = want_take(hand, obs.discard[-1].index, obs.hand_no, obs.contract_down[seat], melds)
    if not take and obs.stock_size < 2 and not end_is_good(hand, seat, obs.hand_sizes):
        take = True
    return Take(seat) if take else Push(seat)


def greedy_discard(obs: Observation) -> Discard:
    """The greedy discard (R6.6), never the card just taken (R6.5)."""
    card = discard_ranking_of(obs)[0]
    return Discard(obs.seat, next(c for c in obs.hand if c.index == card))


def discard_ranking_of(obs: Observation) -> list[int]:
    """:func:`~games.bots.evaluate.discard_ranking` for the seat of ``obs``."""
    return discard_ranking([c.index for c in obs.hand],
                           obs.taken.index if obs.taken is not None else None, obs.hand_no,
                           [fast_meld(m) for m in obs.melds], obs.contract_down, obs.seat,
                           taken_ranks(obs.history, (obs.seat + 1) % 4))


def contract_order(obs: Observation, options: Sequence[LayContract]) -> list[LayContract]:
    """Contract options, best first: fewest cards left once everything else that can
    be is played out, then the lowest penalty of those cards."""
    ranked = rank_contracts([c.index for c in obs.hand], [a.melds for a in options],
                            [fast_meld(m) for m in obs.melds], obs.seat)
    return [options[i] for i, _rest, _melds in ranked]


def play_out(legal: Sequence[Action]) -> Action | None:
    """The next meld action of a contract-holder, by priority (R7.3, R7.4), or None to
    go on to the discard."""
    best: Action | None = None
    best_rank: tuple[int, ...] = (99,)
    for a in legal:
        # a 2 is kept as a wild even where it could stand for itself (R5.4)
        if isinstance(a, LayMelds):
            naturals = [p.card for spec in a.melds for p in spec.cards if not p.card.is_wild]
            size = sum(len(spec.cards) for spec in a.melds)
            worth = sum(c.value for c in naturals)
            rank = (0, -size) if len(naturals) == size else (2, -len(naturals), -worth)
        elif isinstance(a, LayOff):
            rank = (1, 0) if not any(p.card.is_wild for p in a.cards) else (4, 0)
        elif isinstance(a, Swap):
            rank = (3, 0)
        else:
            continue
        if rank < best_rank:
            best, best_rank = a, rank
    return best


class GreedyBot:
    name: ClassVar[str] = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)  # unused: the greedy bot is deterministic

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        if obs.phase == "draw":
            return take_or_push(obs)
        if obs.pending:
            return legal[0]  # only lay-offs of the swapped wild are legal (R7.4)
        if not obs.contract_down[obs.seat]:
            options = [a for a in legal if isinstance(a, LayContract)]
            if options:
                return contract_order(obs, options)[0]
            return greedy_discard(obs)
        action = play_out(legal)
        return action if action is not None else greedy_discard(obs)
