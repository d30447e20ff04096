"""The ``search`` bot: determinized Monte Carlo over what its seat knows.

At the decisions that matter (take or push, which contract, which discard) it takes
the greedy bot's few best candidates and scores each by rollouts: it deals the cards
it cannot see at random into the other hands (each of its known size, keeping the
cards the public history shows a seat holds) and the stock, plays the candidate,
then plays the rest of the hand with the greedy policy for all four seats on a light
copy of the state, and scores the team score difference of the hand (R9.1). Every
candidate is scored on the same deals (common random numbers). Other actions, and
decisions with one sensible option, are the greedy bot's and cost no search.
"""

from __future__ import annotations

import gc
import math
import random
import statistics
import time
from collections.abc import Sequence
from typing import ClassVar, Protocol

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
    team_of,
)

from .greedy import GreedyBot, contract_order, discard_ranking_of
from .model import PACK_COUNT, fast_meld, taken_ranks
from .playout import Clock, World

#: default wall time per searched decision, in seconds
DEFAULT_BUDGET = 0.2
#: deals between looks at whether an alternative is still worth playing out
_CHECK_EVERY = 8


# -- what the seat knows ---------------------------------------------------------------


def known_holdings(obs: Observation) -> list[list[int]]:
    """Cards the public history shows each other seat still holds: those it took from
    the pile or was pushed from it (R6.3), less copies it has since played."""
    known: list[list[int]] = [[], [], [], []]
    for e in obs.history:
        a = e.action
        seat = a.seat
        if isinstance(a, Take) and e.card is not None:
            known[seat].append(e.card.index)
        elif isinstance(a, Push) and e.card is not None:
            known[(seat + 1) % 4].append(e.card.index)
        elif isinstance(a, Discard):
            _drop(known[seat], a.card.index)
        elif isinstance(a, LayContract | LayMelds):
            for spec in a.melds:
                for p in spec.cards:
                    _drop(known[seat], p.card.index)
        elif isinstance(a, LayOff):
            for p in a.cards:
                _drop(known[seat], p.card.index)
        elif isinstance(a, Swap):
            _drop(known[seat], a.card.index)
    known[obs.seat] = []
    return known


def _drop(cards: list[int], c: int) -> None:
    if c in cards:
        cards.remove(c)


def unseen_cards(obs: Observation, known: list[list[int]]) -> list[int]:
    """The cards ``obs.seat`` cannot place, in a fixed order: the pack less its hand,
    the table, the discard pile, its swapped wilds and the others' known cards."""
    count = list(PACK_COUNT)
    for c in obs.hand:
        count[c.index] -= 1
    for m in obs.melds:
        for p in m.cards:
            count[p.card.index] -= 1
    for c in obs.discard:
        count[c.index] -= 1
    for c, _source in obs.pending:
        count[c.index] -= 1
    for seat in range(4):
        for i in list(known[seat]):
            if count[i] > 0:
                count[i] -= 1
            else:  # cannot happen with a consistent history; stay safe
                known[seat].remove(i)
    return [i for i in range(53) for _ in range(max(0, count[i]))]


class Deals(Protocol):
    """Draws worlds: a deal of the cards a seat cannot see, with everything it sees."""

    def sample(self, rng: random.Random) -> World: ...


class Sampler:
    """Deals the cards ``obs.seat`` cannot see at random into worlds consistent with what
    it sees: each other hand gets its known cards and its size, the rest is the stock."""

    def __init__(self, obs: Observation) -> None:
        self.seat = obs.seat
        self.known = known_holdings(obs)
        self.unseen = unseen_cards(obs, self.known)
        # R4.3: wilds buried at the deal lie at the stock's bottom while it holds them
        self.bottom = [c.index for c in obs.buried[max(0, len(obs.buried) - obs.stock_size):]]
        for c in self.bottom:
            self.unseen.remove(c)
        self.base = World(
            obs.hand_no, [[], [], [], []], [], [c.index for c in obs.discard],
            [fast_meld(m) for m in obs.melds], list(obs.contract_down), obs.turns,
            [taken_ranks(obs.history, seat) for seat in range(4)])
        self.base.hands[obs.seat] = [c.index for c in obs.hand]
        self.need = [0 if s == obs.seat else max(0, obs.hand_sizes[s] - len(self.known[s]))
                     for s in range(4)]

    def sample(self, rng: random.Random) -> World:
        cards = list(self.unseen)
        rng.shuffle(cards)
        return self.fill(cards)

    def fill(self, cards: list[int]) -> World:
        """The world that deals ``cards`` (the unseen cards in some order) into the other
        hands, in seat order, then the stock."""
        world = self.base.copy()
        at = 0
        for s in range(4):
            if s != self.seat:
                world.hands[s] = self.known[s] + cards[at:at + self.need[s]]
                at += self.need[s]
        world.piles = [self.bottom[s::4] + cards[at + s::4] for s in range(4)]
        world.stock_n = len(cards) - at + len(self.bottom)
        return world


# -- the bot ---------------------------------------------------------------------------


class SearchBot:
    name: ClassVar[str] = "search"

    def __init__(self, seed: int | None = None, budget: float = DEFAULT_BUDGET,
                 rollouts: int | None = None, width: int = 3,
                 confidence: float = 2.0, clock: Clock = time.perf_counter) -> None:
        """``budget``: seconds by ``clock`` per searched decision; ``rollouts``: at most
        this many deals per decision (with an infinite budget, a deterministic search);
        ``width``: candidates per decision; ``confidence``: standard errors by which
        an alternative must beat the greedy choice."""
        self.rng = random.Random(seed)
        self.budget = budget
        self.clock = clock
        self.rollouts = rollouts
        self.width = width
        self.confidence = confidence
        self.greedy = GreedyBot(seed)

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        deadline = self.clock() + self.budget
        # Rollouts free their (acyclic) garbage as they go; the cyclic collector would only
        # add pauses that break the time budget, so it waits until the decision is made.
        collecting = gc.isenabled()
        gc.disable()
        try:
            candidates = self.candidates(obs, legal)
            if len(candidates) == 1:
                return candidates[0]
            return candidates[self.pick(self.evaluate(obs, candidates, deadline))]
        finally:
            if collecting:
                gc.enable()

    def pick(self, outcomes: Sequence[Sequence[float]]) -> int:
        """The candidate to play: the greedy one (index 0) unless another beats it on the
        same deals by more than ``confidence`` standard errors; rollouts are noisy, and
        a hunch is not worth leaving a sound default for."""
        best, best_gain = 0, 0.0
        for j in range(1, len(outcomes)):
            gain, error = paired_gain(outcomes[j], outcomes[0])
            if gain > best_gain and gain > self.confidence * error:
                best, best_gain = j, gain
        return best

    def candidates(self, obs: Observation, legal: Sequence[Action]) -> list[Action]:
        """The greedy choice first, then the alternatives worth searching."""
        greedy = self.greedy.choose(obs, legal)
        seat = obs.seat
        if isinstance(greedy, Take | Push):
            if obs.discard[-1].is_wild:
                return [greedy]  # pushing would hand the opponent a wild
            return [greedy, Push(seat) if isinstance(greedy, Take) else Take(seat)]
        if isinstance(greedy, LayContract):
            options = [a for a in legal if isinstance(a, LayContract)]
            return list(contract_order(obs, options)[:self.width])
        if isinstance(greedy, Discard) and len(obs.hand) > 1:
            by_index = {c.index: c for c in obs.hand}
            return [Discard(seat, by_index[i]) for i in discard_ranking_of(obs)[:self.width]]
        return [greedy]

    def evaluate(self, obs: Observation, candidates: Sequence[Action],
                 deadline: float | None = None) -> list[list[float]]:
        """Each candidate's hand score differences (opponents minus us: higher is better),
        one per random deal, the same deals for all candidates, until ``deadline`` (by
        default the budget from now) or ``rollouts`` deals, the deals drawn by
        :meth:`sampler`. A candidate :meth:`keep` drops stops being played out; when one
        is left, the search stops early."""
        if deadline is None:
            deadline = self.clock() + self.budget
        sampler = self.sampler(obs)
        team = team_of(obs.seat)
        outcomes: list[list[float]] = [[] for _ in candidates]
        active = list(range(len(candidates)))
        started = self.clock()
        n = 0
        while n < (self.rollouts or 1 << 30):
            now = self.clock()
            if n and now + (now - started) / n > deadline:
                break  # the next deal would overrun the budget
            world = sampler.sample(self.rng)
            for k, i in enumerate(active):
                scores = rollout(world.copy(), obs, candidates[i], deadline if n else math.inf,
                                 self.clock)
                if scores is None:  # a slow deal: drop it
                    for j in active[:k]:
                        outcomes[j].pop()
                    return outcomes
                outcomes[i].append(scores[1 - team] - scores[team])
            n += 1
            if n % _CHECK_EVERY == 0:
                active = self.keep(outcomes, active)
                if len(active) == 1:
                    break
        return outcomes

    def sampler(self, obs: Observation) -> Deals:
        """What deals the cards ``obs.seat`` cannot see: any deal consistent with it."""
        return Sampler(obs)

    def keep(self, outcomes: Sequence[Sequence[float]], active: list[int]) -> list[int]:
        """The candidates still played out: the greedy one (index 0) and those it does not
        beat by ``confidence`` standard errors."""
        return [i for i in active if i == 0 or not self.hopeless(outcomes, i)]

    def hopeless(self, outcomes: Sequence[Sequence[float]], i: int) -> bool:
        gain, error = paired_gain(outcomes[i], outcomes[0])
        return gain + self.confidence * error < 0


def rollout(world: World, obs: Observation, action: Action, deadline: float = math.inf,
            clock: Clock = time.perf_counter) -> tuple[int, int] | None:
    """Play ``action`` (a draw, a contract or a discard) in ``world``, then the rest of the
    hand greedily: the team scores (None once ``clock`` passes ``deadline``)."""
    seat = obs.seat
    if isinstance(action, Take | Push):
        world.turn(seat, isinstance(action, Take))
    elif isinstance(action, LayContract):
        world.lay(seat, action.melds)
        world.down[seat] = True
        world.rest_of_turn(seat, obs.taken.index if obs.taken else None)
    elif isinstance(action, Discard):
        world.discard_card(seat, action.card.index)
    if world.scores is not None:
        return world.scores
    return world.finish((seat + 1) % 4, deadline, clock)


def paired_gain(outcomes: Sequence[float], base: Sequence[float]) -> tuple[float, float]:
    """Mean gain of ``outcomes`` over ``base`` on the deals both saw, and its standard
    error (infinite with fewer than two deals)."""
    gains = [a - b for a, b in zip(outcomes, base, strict=False)]
    if len(gains) < 2:
        return 0.0, math.inf
    return statistics.fmean(gains), statistics.stdev(gains) / math.sqrt(len(gains))
