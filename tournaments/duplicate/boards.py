"""Boards as data: the deals every table of a duplicate round plays, and the results on them.

A **board** is one hand's deal: its pack (top card first, R4.1) and its dealer (R3.3). A
duplicate round is one game of five hands, so it has five boards, all fixed by one seed as a
match's deals are (`games.engine.deal_from_seed`): every table dealt from the same seed
plays the same five boards. A team's **direction** is the pair of seats it holds: 0 for
seats 0 and 2, 1 for seats 1 and 3 (R1.1, the engine's team numbers), and results are
compared only among the teams that held the same direction of the same board.

Nothing here reads or writes the database; the services build these values from stored
rows and hand them to `scoring`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from games.engine import HANDS_PER_GAME, Card, deal_from_seed, dealer_of

Direction = Literal[0, 1]
DIRECTIONS: tuple[Direction, Direction] = (0, 1)


@dataclass(frozen=True)
class Board:
    """One board: its `number` in the event, the `hand` of the game it is (1..5, which
    fixes the cards dealt and the contract, R3.1, R3.2), its `dealer` seat (R3.3) and its
    `pack`, top card first (R4.1), dealt as R4.2 and R4.3 say."""

    number: int
    hand: int
    dealer: int
    pack: tuple[Card, ...]


def boards_from_seed(seed: int, first_number: int = 1) -> tuple[Board, ...]:
    """The five boards of a duplicate round dealt from `seed`, numbered from
    `first_number`: the same first dealer and packs as a match with that seed, so a table
    plays them as any game (board `first_number + h - 1` is its hand `h`)."""
    if first_number < 1:
        raise ValueError(f"board numbers start at 1 or more, got {first_number}")
    first_dealer, packs = deal_from_seed(seed)
    return tuple(Board(number=first_number + hand - 1, hand=hand,
                       dealer=dealer_of(first_dealer, hand), pack=tuple(pack))
                 for hand, pack in enumerate(packs, start=1))


@dataclass(frozen=True)
class BoardResult:
    """A team's result on one board: `result` is its score difference there, the
    opponents' penalty points minus its own (R9.1: a team that went out scores 0, so a
    positive result is good), with the team in `direction` (0: seats 0 and 2, 1: seats 1
    and 3). A team plays a board once; `scoring` refuses a second result."""

    board: int
    direction: Direction
    team: int
    result: int

    def __post_init__(self) -> None:
        if self.direction not in DIRECTIONS:
            raise ValueError(f"board {self.board}, team {self.team}: direction must be 0 "
                             f"(seats 0 and 2) or 1 (seats 1 and 3), got {self.direction!r}")


def table_results(boards: Sequence[int], teams: tuple[int, int],
                  hand_scores: Sequence[tuple[int, int]]) -> list[BoardResult]:
    """One table's results on the boards it played: `boards` are the round's board numbers
    in hand order, `teams` the team in direction 0 (seats 0 and 2) and the team in
    direction 1, and `hand_scores` each finished hand's two team scores (R9.1, team 0's
    first, as `HandOutcome.scores`). A table that did not finish gives fewer hand scores
    than boards: the boards it did not finish have no result from it (scoring then treats
    them as a missing table). ValueError for a team against itself, more hand scores than
    boards or a negative hand score (R9.1 adds up card values, R2.4)."""
    if teams[0] == teams[1]:
        raise ValueError(f"team {teams[0]} cannot play a board against itself")
    if len(boards) > HANDS_PER_GAME or len(hand_scores) > len(boards):
        raise ValueError(f"{len(hand_scores)} hand scores for {len(boards)} boards: a round "
                         f"is at most {HANDS_PER_GAME} boards, one hand each (R3.1)")
    results: list[BoardResult] = []
    for board, (own_0, own_1) in zip(boards, hand_scores, strict=False):
        if own_0 < 0 or own_1 < 0:
            raise ValueError(f"board {board}: hand scores are penalty points, never "
                             f"negative (R9.1), got {(own_0, own_1)}")
        results.append(BoardResult(board, 0, teams[0], own_1 - own_0))
        results.append(BoardResult(board, 1, teams[1], own_0 - own_1))
    return results
