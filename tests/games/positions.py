"""Positions and a clock for the bots' tests: hand states met in seeded games, and a clock
that moves a fixed step each time it is read."""

from __future__ import annotations

from collections.abc import Iterator

from games.bots.greedy import GreedyBot
from games.engine import GameState, HandState
from games.engine.play import deal_from_seed


class Ticker:
    """A clock for the searching bots that moves ``step`` seconds each time it is read, so
    that its time budget is spent the same way on any machine, however loaded."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 0.0
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


def decision_points(seed: int, every: int = 5) -> Iterator[HandState]:
    """Copies of hand states met in a greedy game, every ``every``-th action, through all
    five hands: draws, contracts, lay-offs and discards."""
    first_dealer, decks = deal_from_seed(seed)
    game = GameState(first_dealer)
    bots = [GreedyBot() for _ in range(4)]
    count = 0
    for deck in decks:
        game.deal(deck)
        while (seat := game.to_move) is not None:
            count += 1
            if count % every == 0:
                yield game.hand  # a copy of the game's hand
            game.apply(bots[seat].choose(game.observation(seat), game.legal_actions()))
