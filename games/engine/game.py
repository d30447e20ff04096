"""A game of five hands (R3): the one object a caller plays a whole game through.

:class:`GameState` owns the hand in play. It deals, applies actions, lists the legal ones,
gives each seat its observation and keeps the scores; the hand it shows is a copy, so
nothing can advance the game's hand behind its back and leave the scores unrecorded.

It keeps its history too, as python-chess's ``Board.move_stack`` does: the first dealer,
each pack as dealt and every action applied, hand by hand. :meth:`GameState.record` writes
it as a ``push-record/1`` record and :meth:`GameState.from_record` plays one back, both
through :meth:`GameState.play`, the one loop that deals hands and applies their actions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from .actions import Action
from .cards import Card
from .errors import IllegalActionError
from .generate import legal_actions
from .record import ClaimedResult, HandRecord, Record
from .state import HANDS_PER_GAME, HandOutcome, HandState, Observation, dealer_of


def winner(totals: tuple[int, int]) -> int | None:
    """R9.2: the team (0 or 1) with the lower game score; ``None`` for a draw."""
    t0, t1 = totals
    return None if t0 == t1 else (0 if t0 < t1 else 1)


@dataclass(frozen=True, slots=True)
class Deal:
    """A step of :meth:`GameState.play`: deal the next hand from ``deck`` (top first, R4.1)."""

    deck: Sequence[Card]


#: What :meth:`GameState.play` takes, in order: a pack to deal or an action to apply.
Step = Deal | Action

#: Called by :meth:`GameState.play` after each step it takes, as ``on_step(game, hand,
#: index, action)``: ``hand`` is the hand's number (1..5) and ``index`` the action's place
#: among that hand's actions (0-based, as push-record.md counts); after a deal ``index`` is
#: -1 and ``action`` is ``None``.
OnStep = Callable[["GameState", int, int, Action | None], None]


class GameState:
    """A game of five hands (R3). :meth:`deal` each hand, then :meth:`apply` its actions
    until :attr:`to_move` is ``None``; the next :meth:`deal` starts the next hand. Or hand
    the whole sequence to :meth:`play`."""

    __slots__ = ("_first_dealer", "_results", "_hand", "_packs", "_actions")

    def __init__(self, first_dealer: int) -> None:
        self._first_dealer = first_dealer
        self._results: list[HandOutcome] = []
        self._hand: HandState | None = None
        self._packs: list[tuple[Card, ...]] = []
        self._actions: list[list[Action]] = []  # one list per hand dealt

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
        pack = tuple(deck)
        self._hand = HandState.deal(hand_no, dealer_of(self._first_dealer, hand_no), pack)
        self._packs.append(pack)
        self._actions.append([])

    def apply(self, action: Action) -> None:
        """Play ``action`` in the current hand; ``IllegalActionError`` (and no change) if
        the rules forbid it. The hand's score is recorded when the action ends it."""
        hand = self._playing()
        hand.apply(action)
        self._actions[-1].append(action)
        if hand.outcome is not None:
            self._results.append(hand.outcome)

    def play(self, steps: Iterable[Step], on_step: OnStep | None = None) -> None:
        """Take ``steps`` in order: deal each :class:`Deal`, apply each action, calling
        ``on_step`` (when given) after each. The steps are drawn one at a time, so each may
        be decided on the game as the steps before it left it (see :meth:`with_deals`).

        A step the rules forbid raises ``IllegalActionError`` placed at its hand and its
        index in that hand (a refused deal: one past the hand's last action), leaving the
        game as the steps before it left it; no later step is drawn."""
        for step in steps:
            if isinstance(step, Deal):
                try:
                    self.deal(step.deck)
                except IllegalActionError as exc:
                    raise exc.at(len(self._packs), len(self._actions[-1])) from None
                if on_step is not None:
                    on_step(self, len(self._packs), -1, None)
                continue
            try:
                self.apply(step)
            except IllegalActionError as exc:
                hand = len(self._packs)
                raise exc.at(hand, len(self._actions[-1]) if hand else 0) from None
            if on_step is not None:
                on_step(self, len(self._packs), len(self._actions[-1]) - 1, step)

    def with_deals(self, packs: Sequence[Sequence[Card]],
                   actions: Iterable[Action]) -> Iterator[Step]:
        """``actions`` as steps for :meth:`play`, with a :class:`Deal` of the next of
        ``packs`` (``packs[0]`` is hand 1's) wherever a hand is due (R3.1): first when no
        hand is in play, and after each action that ends a hand while packs are left (an
        action after the last one's hand is passed on, for the rules to refuse). The next
        action is drawn only once the deal before it is done, so ``actions`` may choose it
        from the game as it then is."""
        todo = iter(actions)
        while True:
            if len(self._results) == len(self._packs) < len(packs):  # no hand in play
                yield Deal(packs[len(self._packs)])
            for action in todo:
                yield action
                if len(self._results) == len(self._packs):  # the action ended its hand
                    break
            else:
                return

    @classmethod
    def from_record(cls, record: Record, on_step: OnStep | None = None) -> GameState:
        """The game ``record`` leads to: :meth:`replaying` it through :meth:`play`
        (``on_step`` as there), so that every action is checked against the rules and the
        first illegal one raises ``IllegalActionError`` naming its hand and index.

        The record is replayed as it is: its claimed result is not compared (``verify``
        does that) and the shape of a document is ``load_record``'s to check."""
        game = cls(record.first_dealer)
        game.play(game.replaying(record), on_step)
        return game

    def replaying(self, record: Record) -> Iterator[Step]:
        """The steps of ``record`` for :meth:`play` on this game, new and of the record's
        first dealer: each hand's deal, then its actions. A record that goes on to a hand
        while the one before has not ended is illegal at that unfinished hand, one past its
        last action (push-record.md, R8.1)."""
        if self._packs or self._first_dealer != record.first_dealer:
            raise ValueError("a record is replayed on a new game of its own first dealer")
        for number, hand in enumerate(record.hands, start=1):
            if self.to_move is not None:
                raise IllegalActionError(
                    "R8.1", f"hand {number - 1} has not ended, but the record goes on to "
                            f"hand {number}", hand=number - 1, action=len(self._actions[-1]))
            yield Deal(hand.deck)
            yield from hand.actions

    def record(self, players: Sequence[str] | None = None, *, result: bool = True) -> Record:
        """This game so far as a ``push-record/1`` record: the first dealer, each pack as
        dealt and each hand's actions, and the seats' display names ``players`` when given
        (seat 0 first). With ``result`` it claims the scores of the hands finished and their
        totals (R9.1, R9.2), as a record of a finished game does."""
        hands = tuple(HandRecord(pack, tuple(actions))
                      for pack, actions in zip(self._packs, self._actions, strict=True))
        claim = (ClaimedResult(tuple(r.scores for r in self._results), self.totals)
                 if result else None)
        return Record(self._first_dealer, hands, tuple(players) if players else None, claim)

    @property
    def packs(self) -> tuple[tuple[Card, ...], ...]:
        """Each hand's pack as it was dealt (top first, R4.1), hand 1's first."""
        return tuple(self._packs)

    @property
    def actions(self) -> tuple[tuple[Action, ...], ...]:
        """The actions applied in each hand dealt, in order, hand 1's first."""
        return tuple(tuple(actions) for actions in self._actions)

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
