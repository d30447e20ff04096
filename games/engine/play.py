"""Playing a whole game with one policy per seat, and writing its record."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from .actions import Action
from .cards import Card, shuffled_pack
from .game import GameState
from .record import ClaimedResult, HandRecord, Record
from .state import HANDS_PER_GAME, Observation


class Policy(Protocol):
    """A player: picks one of ``legal`` from what its seat may see (``obs``)."""

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action: ...


def deal_from_seed(seed: int) -> tuple[int, list[list[Card]]]:
    """A random first dealer (R3.3) and five shuffled packs, reproducible from ``seed``."""
    rng = random.Random(seed)
    return rng.randrange(4), [shuffled_pack(rng) for _ in range(HANDS_PER_GAME)]


def play_game(policies: Sequence[Policy], first_dealer: int, decks: Sequence[Sequence[Card]],
              players: Sequence[str] | None = None) -> Record:
    """Play five hands on ``decks`` with ``policies[seat]`` in each seat.

    Every chosen action is applied through the rules, so a policy that picks an
    illegal action raises ``IllegalActionError`` (a bug in the policy)."""
    game = GameState(first_dealer)
    hands = []
    for deck in decks:
        game.deal(deck)
        actions: list[Action] = []
        while (seat := game.to_move) is not None:
            action = policies[seat].choose(game.observation(seat), game.legal_actions())
            game.apply(action)
            actions.append(action)
        hands.append(HandRecord(tuple(deck), tuple(actions)))
    claim = ClaimedResult(tuple(r.scores for r in game.results), game.totals)
    return Record(first_dealer, tuple(hands), tuple(players) if players else None, claim)
