"""What the expert bot reads from the public history beyond the cards seen going into a hand.

:class:`~games.bots.search.Sampler` deals the unseen cards so that each other hand holds
the cards the history shows it took or was pushed (R6.3) and has its size. The history says
more about a hand, if its player plays soundly (lays its contract as soon as it can, plays
out what it can, takes a discard it could use, as every bot here does):

* a seat whose contract is not down, and that has been handed nothing since its last turn
  ended, does not hold its contract (R7.1): it would have laid it;
* a seat whose contract is down, handed nothing since its turn and the table unchanged
  since, holds no card it could lay off onto the table (R7.3) and no three naturals
  making a meld: it would have played them;
* a seat that pushed the discard at its last draw did not want it (R6.3): it neither
  brought its contract closer nor (contract down) made a meld with its hand.

People may play otherwise, so these are likelihoods, not certainties: :class:`Inference`
scores a sampled deal by them, and :class:`InferringSampler` keeps a deal with that
probability (rejection sampling), trying again a bounded number of times. One clue is
dealt to rather than tested, as random deals seldom meet it: a seat that kept nothing it
could play gets its unknown cards from those that fit no meld on the table.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from games.engine import Discard, LayContract, LayMelds, LayOff, Observation, Push, Swap, Take

from .contract import missing
from .evaluate import forms_meld
from .model import WILD, Meld, fits_any, stats
from .playout import World
from .search import Sampler

#: How much less likely a deal becomes for each clue it breaks: a seat holds a contract it
#: did not lay (``held contract``), a seat with its contract down holds cards it could
#: have played (``unplayed``), a seat pushed a discard that was of use to it (``spurned``:
#: the weakest, as its hand has changed since).
LIKELIHOOD: Final = {"held contract": 0.05, "unplayed": 0.2, "spurned": 0.5}
#: deals tried before the most plausible of them is kept
TRIES: Final = 24


@dataclass(slots=True)
class SeatClues:
    """What the history says of one other seat: whether its hand is the one it ended its
    last turn with (``unchanged``: it has had a turn and nothing was pushed to it since),
    whether the table is as it left it (``table_still``), whether its contract is down
    (``down``), and the discard it pushed at its last draw (``spurned``, -1 for none or a
    wild) and whether its contract was down then (``down_at_push``)."""

    seat: int
    unchanged: bool
    table_still: bool
    down: bool
    spurned: int
    down_at_push: bool


def clues(obs: Observation) -> list[SeatClues]:
    """The clues of each seat but ``obs.seat``."""
    found = []
    history = obs.history
    for seat in range(4):
        if seat == obs.seat:
            continue
        right = (seat + 3) % 4  # the seat that pushes to it
        last_end = last_draw = laid = -1
        for n, e in enumerate(history):
            a = e.action
            if a.seat != seat:
                continue
            if isinstance(a, Discard):
                last_end = n
            elif isinstance(a, Take | Push):
                last_draw = n
            elif isinstance(a, LayContract):
                laid = n
        later = history[last_end + 1:] if last_end >= 0 else ()
        unchanged = last_end >= 0 and not any(
            isinstance(e.action, Push) and e.action.seat == right for e in later)
        table_still = not any(isinstance(e.action, LayContract | LayMelds | LayOff | Swap)
                              for e in later)
        spurned = -1
        if last_draw >= 0:
            e = history[last_draw]
            if isinstance(e.action, Push) and e.card is not None and not WILD[e.card.index]:
                spurned = e.card.index
        found.append(SeatClues(seat, unchanged, table_still, obs.contract_down[seat], spurned,
                               0 <= laid < last_draw))
    return found


class Inference:
    """The likelihood of a sampled deal under the clues of :func:`clues`."""

    def __init__(self, obs: Observation, melds: list[Meld]) -> None:
        self.hand_no = obs.hand_no
        self.melds = melds
        self.clues = clues(obs)

    def plausibility(self, world: World) -> float:
        """1.0 for a deal every clue fits, less for each that it breaks."""
        p = 1.0
        for clue in self.broken(world):
            p *= LIKELIHOOD[clue]
        return p

    def broken(self, world: World) -> list[str]:
        """The clues a deal breaks, a name for each: ``held contract``, ``unplayed``,
        ``spurned`` (see the module's docstring)."""
        found = []
        for clue in self.clues:
            hand = world.hands[clue.seat]
            if clue.unchanged:
                if not clue.down:
                    if missing(self.hand_no, hand) == 0:
                        found.append("held contract")
                elif clue.table_still and self.playable(hand):
                    found.append("unplayed")
            if clue.spurned >= 0:
                if clue.down_at_push:
                    if forms_meld(clue.spurned, hand):
                        found.append("spurned")
                elif not clue.down and (missing(self.hand_no, [*hand, clue.spurned])
                                        < missing(self.hand_no, hand)):
                    found.append("spurned")
        return found

    def playable(self, hand: list[int]) -> bool:
        """Does ``hand`` hold a card to lay off, or three naturals making a meld (R7.3)?"""
        if any(fits_any(c, self.melds) for c in hand):
            return True
        st = stats(hand)
        return max(st.ranks) >= 3 or any(m & m >> 1 & m >> 2 for m in st.once)


class InferringSampler:
    """Deals like :class:`~games.bots.search.Sampler`, but a seat that kept nothing it could
    play gets no card it could lay off onto the table (where the unseen cards allow), and
    each deal is kept with the probability :class:`Inference` gives it; after
    :data:`TRIES` deals, the most plausible of them."""

    def __init__(self, obs: Observation) -> None:
        self.sampler = Sampler(obs)
        self.inference = Inference(obs, self.sampler.base.melds)
        self.strict = {clue.seat for clue in self.inference.clues
                       if clue.unchanged and clue.down and clue.table_still}

    def sample(self, rng: random.Random) -> World:
        best: World | None = None
        best_p = -1.0
        for _ in range(TRIES):
            world = self.deal(rng)
            p = self.inference.plausibility(world)
            if p >= 1.0 or rng.random() < p:
                return world
            if p > best_p:
                best, best_p = world, p
        assert best is not None
        return best

    def deal(self, rng: random.Random) -> World:
        """A deal of the unseen cards at random, the strict seats' from those that fit no
        meld on the table."""
        pool = list(self.sampler.unseen)
        rng.shuffle(pool)
        if not self.strict:
            return self.sampler.fill(pool)
        melds = self.sampler.base.melds
        picked: dict[int, list[int]] = {}
        for seat in sorted(self.strict):
            need = self.sampler.need[seat]
            mine: list[int] = []
            rest: list[int] = []
            for c in pool:
                if len(mine) < need and not fits_any(c, melds):
                    mine.append(c)
                else:
                    rest.append(c)
            picked[seat] = mine + rest[:need - len(mine)]  # too few: the clue gives way
            pool = rest[need - len(mine):]
        arranged: list[int] = []
        for seat in range(4):
            if seat in picked:
                arranged += picked[seat]
            elif seat != self.sampler.seat:
                arranged += pool[:self.sampler.need[seat]]
                pool = pool[self.sampler.need[seat]:]
        return self.sampler.fill(arranged + pool)
