"""The rollout simulator: a whole hand on a light copy of the state, every card placed.

:class:`World` is a determinized hand as the ints of ``model.py``; it carries out the
moves (R6, R8) and scores the end (R9.1) as the engine does, and plays the greedy
policy for every seat (the judgement of ``evaluate.py``, the melding of ``shed.py``)
to the hand's end for the search bot.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence

from games.engine import HandState, team_of
from games.engine.melds import MeldSpec, build_meld
from games.engine.state import MAX_TURNS

from .contract import missing
from .evaluate import discard_choice, end_is_good, want_take
from .model import RANK, WILD, Meld, fast_meld, penalty_of, taken_ranks
from .shed import lay_best_contract, shed

Clock = Callable[[], float]


class World:
    """A determinized hand: every card placed, as ints (see ``model.py``)."""

    __slots__ = ("hand_no", "hands", "piles", "stock_n", "discard", "melds", "down", "turns",
                 "took", "scores")

    def __init__(self, hand_no: int, hands: list[list[int]], piles: list[list[int]],
                 discard: list[int], melds: list[Meld], down: list[bool], turns: int,
                 took: list[list[int]], stock_n: int | None = None) -> None:
        self.hand_no = hand_no
        self.hands = hands
        # The stock, split into one pile per seat that the seat draws from (and pushes
        # from): a seat's draws then don't depend on how often the others drew, which
        # keeps rollouts of different candidates alike (common random numbers).
        self.piles = piles
        self.stock_n = sum(len(p) for p in piles) if stock_n is None else stock_n
        self.discard = discard
        self.melds = melds
        self.down = down
        self.turns = turns
        self.took = took
        self.scores: tuple[int, int] | None = None

    def copy(self) -> World:
        return World(self.hand_no, [list(h) for h in self.hands], [list(p) for p in self.piles],
                     list(self.discard), [m.copy() for m in self.melds], list(self.down),
                     self.turns, [list(t) for t in self.took], self.stock_n)

    # -- the moves (R6, R8) --------------------------------------------------------

    def take(self, seat: int) -> int | None:
        """Seat takes the discard (R6.3); returns the card it may not discard (R6.5)."""
        hand = self.hands[seat]
        d = self.discard.pop()
        taken = None if d in hand else d
        hand.append(d)
        if not WILD[d]:
            self.took[seat].append(RANK[d])
        return taken

    def push(self, seat: int) -> None:
        """Seat pushes (R6.3); on a short stock that ends the hand (R6.4)."""
        if self.stock_n < 2:
            self.end(None)
            return
        self.hands[(seat + 1) % 4] += [self.from_stock(seat), self.discard.pop()]
        self.hands[seat].append(self.from_stock(seat))

    def from_stock(self, seat: int) -> int:
        pile = self.piles[seat] or max(self.piles, key=len)
        self.stock_n -= 1
        return pile.pop()

    def lay(self, seat: int, specs: Sequence[MeldSpec]) -> None:
        """Seat lays the engine melds ``specs`` from its hand (R7.1, R7.3)."""
        hand = self.hands[seat]
        for spec in specs:
            for p in spec.cards:
                hand.remove(p.card.index)
            self.melds.append(fast_meld(build_meld(spec, meld_id=0, owner=seat)))
        if not hand:
            self.end(seat)

    def discard_card(self, seat: int, card: int) -> None:
        """Seat discards ``card``, which ends its turn (R6.6), or the hand (R8.1, R8.3)."""
        hand = self.hands[seat]
        hand.remove(card)
        self.discard.append(card)
        self.turns += 1
        if not hand:
            self.end(seat)
        elif self.turns >= MAX_TURNS:
            self.end(None)

    def end(self, out_seat: int | None) -> None:
        """The hand is over: each team scores its cards, but a team gone out 0 (R9.1)."""
        scores = [penalty_of(self.hands[s] + self.hands[s + 2]) for s in (0, 1)]
        if out_seat is not None:
            scores[team_of(out_seat)] = 0
        self.scores = (scores[0], scores[1])

    # -- the greedy policy on this light state ------------------------------------

    def draw(self, seat: int, take: bool | None = None) -> int | None:
        """Seat's draw, the greedy one unless ``take`` says; returns the card it may not
        discard this turn (R6.5)."""
        if take is None:
            hand = self.hands[seat]
            take = want_take(hand, self.discard[-1], self.hand_no, self.down[seat], self.melds)
            if not take and self.stock_n < 2:
                take = not end_is_good(hand, seat, [len(h) for h in self.hands])
        if take:
            return self.take(seat)
        self.push(seat)
        return None

    def meld(self, seat: int) -> None:
        """Lay the contract when the hand makes it, then play out all it can."""
        hand = self.hands[seat]
        if not self.down[seat]:
            if (missing(self.hand_no, hand) == 0
                    and lay_best_contract(hand, self.hand_no, self.melds)):
                self.down[seat] = True
        else:
            shed(hand, self.melds)
        if not hand:
            self.end(seat)

    def greedy_discard(self, seat: int, taken: int | None) -> None:
        self.discard_card(seat, discard_choice(
            self.hands[seat], taken, self.hand_no, self.melds, self.down, seat,
            self.took[(seat + 1) % 4]))

    def turn(self, seat: int, take: bool | None = None) -> None:
        """Seat's whole turn, by the greedy policy (but the draw ``take`` says)."""
        self.rest_of_turn(seat, self.draw(seat, take))

    def rest_of_turn(self, seat: int, taken: int | None) -> None:
        """Seat's melds and discard after its draw, by the greedy policy; ``taken`` is the
        card it may not discard (R6.5)."""
        if self.scores is None:
            self.meld(seat)
        if self.scores is None:
            self.greedy_discard(seat, taken)

    def finish(self, seat: int, deadline: float = math.inf,
               clock: Clock = time.perf_counter) -> tuple[int, int] | None:
        """Play on from ``seat``'s turn to the end of the hand; the team scores, or None
        if ``clock`` passes ``deadline`` first (read every round of turns, if finite)."""
        timed = deadline < math.inf
        while self.scores is None:
            self.turn(seat)
            seat = (seat + 1) % 4
            if timed and self.turns % 4 == 0 and clock() > deadline:
                return None
        return self.scores


def world_of(state: HandState) -> World:
    """The engine's hand ``state`` as a :class:`World` that knows every card: all seats
    draw from the one real stock, in its order (the first pile; the others are empty)."""
    stock = [c.index for c in state.stock]
    return World(state.hand_no, [[c.index for c in h] for h in state.hands], [stock, [], [], []],
                 [c.index for c in state.discard], [fast_meld(m) for m in state.melds],
                 list(state.contract_down), state.turns,
                 [taken_ranks(state.history, seat) for seat in range(4)])
