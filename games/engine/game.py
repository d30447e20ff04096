"""A game of five hands (R3): the one object a caller plays a whole game through.

:class:`GameState` owns the hand in play. It deals, applies actions, lists the legal ones,
gives each seat its observation and keeps the scores; the hand it shows is a copy, so
nothing can advance the game's hand behind its back and leave the scores unrecorded.
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Action
from .cards import Card
from .errors import IllegalActionError
from .generate import legal_actions
from .state import HANDS_PER_GAME, HandOutcome, HandState, Observation, dealer_of


def winner(totals: tuple[int, int]) -> int | None:
    """R9.2: the team (0 or 1) with the lower game score; ``None`` for a draw."""
    t0, t1 = totals
    return None if t0 == t1 else (0 if t0 < t1 else 1)


class GameState:
    """A game of five hands (R3). :meth:`deal` each hand, then :meth:`apply` its actions
    until :attr:`to_move` is ``None``; the next :meth:`deal` starts the next hand."""

    __slots__ = ("_first_dealer", "_results", "_hand")

    def __init__(self, first_dealer: int) -> None:
        self._first_dealer = first_dealer
        self._results: list[HandOutcome] = []
        self._hand: HandState | None = None

    @property
    def first_dealer(self) -> int:
        return self._first_dealer

    def deal(self, deck: Sequence[Card]) -> None:
        """Deal the next hand from ``deck`` (top first, R4.1) once the last one has ended."""
        if self._hand is not None and self._hand.outcome is None:
            raise IllegalActionError("R8.1", f"hand {self._hand.hand_no} has not ended")
        hand_no = len(self._results) + 1
        if hand_no > HANDS_PER_GAME:
            raise IllegalActionError("R3.1", f"a game is {HANDS_PER_GAME} hands")
        self._hand = HandState.deal(hand_no, dealer_of(self._first_dealer, hand_no), deck)

    def apply(self, action: Action) -> None:
        """Play ``action`` in the current hand; ``IllegalActionError`` (and no change) if
        the rules forbid it. The hand's score is recorded when the action ends it."""
        hand = self._playing()
        hand.apply(action)
        if hand.outcome is not None:
            self._results.append(hand.outcome)

    def legal_actions(self) -> list[Action]:
        """Representative legal actions of the seat to move (none once the hand is over)."""
        return legal_actions(self._playing())

    def observation(self, seat: int) -> Observation:
        """Everything ``seat`` may know of the current hand, nothing more."""
        return self._playing().observation(seat)

    def _playing(self) -> HandState:
        if self._hand is None:
            raise IllegalActionError("R4.2", "no hand has been dealt")
        return self._hand

    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is; ``None`` when no hand is in play (deal the next one,
        unless the game is over)."""
        hand = self._hand
        return None if hand is None or hand.outcome is not None else hand.seat

    @property
    def hand(self) -> HandState:
        """A copy of the current (or last) hand; changing or playing the copy changes
        nothing in the game. ``IllegalActionError`` before the first deal."""
        return self._playing().copy()

    @property
    def results(self) -> tuple[HandOutcome, ...]:
        """How each finished hand ended and its scores (R9.1), hand 1 first."""
        return tuple(self._results)

    @property
    def is_over(self) -> bool:
        return len(self._results) == HANDS_PER_GAME

    @property
    def totals(self) -> tuple[int, int]:
        """R9.2: each team's game score so far."""
        return (sum(r.scores[0] for r in self._results),
                sum(r.scores[1] for r in self._results))

    @property
    def winner(self) -> int | None:
        """R9.2: the team with the lower game score; ``None`` for a draw or an unfinished game."""
        return winner(self.totals) if self.is_over else None
