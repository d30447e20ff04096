"""How closely the rollouts follow the greedy bot, for ``manage.py bench_bots``.

A benchmark, not a test: the simulator (``playout.py``) plays the greedy policy on its
light state, so it should end most hands as the greedy bot does through the engine,
but its choices among equal melds may differ. What must agree exactly, the scoring of
an end position, the tests check.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from games.bots.greedy import GreedyBot
from games.bots.playout import world_of
from games.engine import HandState, dealer_of
from games.engine.play import deal_from_seed, play_game


@dataclass(frozen=True, slots=True)
class Agreement:
    """``same`` of ``hands`` hands, played out from the deal by a rollout and by four
    greedy bots through the engine, ended with the same two team scores; the rollouts
    took ``seconds``."""

    hands: int
    same: int
    seconds: float

    def report(self) -> str:
        rate = self.same / self.hands if self.hands else 0.0
        return "\n".join([
            f"rollouts ending a hand as the greedy bot does in the engine: {self.same} of "
            f"{self.hands} hands ({rate:.0%})",
            f"rollout speed: {self.hands / self.seconds:,.0f} hands played out per second"
            if self.seconds else "rollout speed: n/a",
        ])


def rollout_agreement(seeds: Iterable[int]) -> Agreement:
    """Every hand of the games ``deal_from_seed(seed)`` deals, for each seed."""
    hands = same = 0
    seconds = 0.0
    for seed in seeds:
        first_dealer, decks = deal_from_seed(seed)
        played = play_game([GreedyBot() for _ in range(4)], first_dealer, decks).result
        assert played is not None
        for hand_no, (deck, scores) in enumerate(zip(decks, played.hands, strict=True), 1):
            state = HandState.deal(hand_no, dealer_of(first_dealer, hand_no), deck)
            started = time.perf_counter()
            predicted = world_of(state).finish(state.seat)
            seconds += time.perf_counter() - started
            hands += 1
            same += predicted == scores
    return Agreement(hands, same, seconds)
