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

import statistics
import time
from collections.abc import Sequence
from typing import ClassVar

from games.engine import Action, Discard, LayContract, Observation, Push, Take

from .greedy import contract_order, discard_ranking_of
from .inference import InferringSampler
from .playout import Clock
from .search import DEFAULT_BUDGET, Deals, SearchBot, paired_gain


class ExpertBot(SearchBot):
    """The search bot with its own candidates, deals and race (the module's docstring)."""

    name: ClassVar[str] = "expert"

    def __init__(self, seed: int | None = None, budget: float = DEFAULT_BUDGET,
                 rollouts: int | None = None, width: int = 4, confidence: float = 2.0,
                 prune: float = 2.0, clock: Clock = time.perf_counter) -> None:
        """As :class:`SearchBot`'s, and ``prune``: standard errors by which the leader must
        beat a candidate to drop it from the race."""
        super().__init__(seed, budget, rollouts, width, confidence, clock)
        self.prune = prune

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

    def sampler(self, obs: Observation) -> Deals:
        """Deals the history makes plausible (``inference.py``)."""
        return InferringSampler(obs)

    def keep(self, outcomes: Sequence[Sequence[float]], active: list[int]) -> list[int]:
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
