"""The ``expert`` bot: a race of candidate moves over deals its seat finds plausible.

Like the ``search`` bot it plays candidate moves out to the hand's end on determinized
deals of the cards it cannot see, every candidate on the same deals (common random
numbers), with the greedy policy for all four seats afterwards (``playout.py``). It
differs in three ways:

* its deals follow what the history says of the other hands (``inference.py``): a seat
  that has not laid its contract does not hold one, a seat that pushed a discard had no
  use for it, a seat with its contract down kept nothing it could play;
* it weighs more moves: the four best discards, and at the contract both the options and
  holding it back for a turn (a discard instead, R7.1 lets a player wait);
* it spends its rollouts where the choice is close: it plays the candidates on a few deals
  at a time and drops each alternative that the leader beats clearly (a race, as
  successive halving does, but by the paired differences' standard errors), so the
  close ones get most of the deals.

It leaves the greedy choice, which stays in the race, only for a candidate that beats it
on the same deals by ``confidence`` standard errors: rollouts are noisy, the more so as
more candidates are weighed, and a hunch is not worth leaving a sound default for. Draws
with a wild on the pile, meld actions and lay-offs are the greedy bot's.
"""

from __future__ import annotations

import gc
import math
import random
import statistics
import time
from collections.abc import Sequence
from typing import ClassVar, Final

from games.engine import Action, Discard, LayContract, Observation, Push, Take, team_of

from .greedy import GreedyBot, contract_order, discard_ranking_of
from .inference import InferringSampler
from .playout import Clock
from .search import DEFAULT_BUDGET, paired_gain, rollout

#: deals between looks at which candidates are still in the race (fewer deals would give
#: too rough a standard error)
CHECK_EVERY: Final = 8


class ExpertBot:
    name: ClassVar[str] = "expert"

    def __init__(self, seed: int | None = None, budget: float = DEFAULT_BUDGET,
                 rollouts: int | None = None, width: int = 4, confidence: float = 2.0,
                 prune: float = 2.0, clock: Clock = time.perf_counter) -> None:
        """``budget``: seconds by ``clock`` per searched decision; ``rollouts``: at most
        this many deals per decision (with an infinite budget, a deterministic search);
        ``width``: candidates per decision; ``confidence``: standard errors by which a
        candidate must beat the greedy choice; ``prune``: standard errors by which the
        leader must beat a candidate to drop it from the race."""
        self.rng = random.Random(seed)
        self.budget = budget
        self.clock = clock
        self.rollouts = rollouts
        self.width = width
        self.confidence = confidence
        self.prune = prune
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

    def candidates(self, obs: Observation, legal: Sequence[Action]) -> list[Action]:
        """The greedy choice first, then the alternatives worth searching."""
        greedy = self.greedy.choose(obs, legal)
        seat = obs.seat
        if isinstance(greedy, Take | Push):
            if obs.discard[-1].is_wild:
                return [greedy]  # pushing would hand the opponent a wild
            return [greedy, Push(seat) if isinstance(greedy, Take) else Take(seat)]
        by_index = {c.index: c for c in obs.hand}
        if isinstance(greedy, LayContract):
            options = [a for a in legal if isinstance(a, LayContract)]
            found: list[Action] = list(contract_order(obs, options)[:self.width - 1])
            wait = Discard(seat, by_index[discard_ranking_of(obs)[0]])
            return found + [wait] if wait in legal else found
        if isinstance(greedy, Discard) and len(obs.hand) > 1:
            return [Discard(seat, by_index[i]) for i in discard_ranking_of(obs)[:self.width]]
        return [greedy]

    def evaluate(self, obs: Observation, candidates: Sequence[Action],
                 deadline: float | None = None) -> list[list[float]]:
        """Each candidate's hand score differences (opponents minus us: higher is better),
        one per plausible deal, the same deals for all candidates still in the race, until
        ``deadline`` (by default the budget from now) or ``rollouts`` deals."""
        if deadline is None:
            deadline = self.clock() + self.budget
        sampler = InferringSampler(obs)
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
            if n % CHECK_EVERY == 0:
                active = self.race(outcomes, active)
                if len(active) == 1:
                    break
        return outcomes

    def race(self, outcomes: Sequence[Sequence[float]], active: list[int]) -> list[int]:
        """The candidates still in the race: the greedy one (index 0), the leader (best mean
        on the deals all saw) and those the leader does not beat by ``prune`` standard
        errors."""
        leader = max(active, key=lambda i: statistics.fmean(outcomes[i]))
        kept = []
        for i in active:
            gain, error = paired_gain(outcomes[i], outcomes[leader])
            if i in (0, leader) or gain + self.prune * error >= 0:
                kept.append(i)
        return kept

    def pick(self, outcomes: Sequence[Sequence[float]]) -> int:
        """The candidate to play: the greedy one (index 0) unless another that finished the
        race with it beats it on the same deals by ``confidence`` standard errors (then the
        one that beats it by most)."""
        best, best_gain = 0, 0.0
        for j in range(1, len(outcomes)):
            if len(outcomes[j]) < len(outcomes[0]):
                continue  # dropped from the race
            gain, error = paired_gain(outcomes[j], outcomes[0])
            if gain > best_gain and gain > self.confidence * error:
                best, best_gain = j, gain
        return best
