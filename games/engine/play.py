"""Playing a whole game with one policy per seat, and writing its record."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Protocol

from .actions import Action
from .cards import Card, shuffled_pack
from .game import Deal, GameState, Step
from .record import Record
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
    """Play a hand on each of ``decks`` with ``policies[seat]`` in each seat; the game's
    record, claiming its result.

    Every chosen action is applied through the rules, so a policy that picks an
    illegal action raises ``IllegalActionError`` (a bug in the policy)."""
    game = GameState(first_dealer)
    game.play(_turns(game, policies, decks))
    return game.record(players)


def _turns(game: GameState, policies: Sequence[Policy],
           decks: Sequence[Sequence[Card]]) -> Iterator[Step]:
    """Each of ``decks`` dealt, then the choice of each seat to move until its hand ends,
    each drawn by :meth:`GameState.play` once the step before it is taken."""
    for deck in decks:
        yield Deal(deck)
        while (seat := game.to_move) is not None:
            yield policies[seat].choose(game.observation(seat), game.legal_actions())
