"""A bot match scored as duplicate: matchpoints on shared boards, as BBO's robot events do.

A **board** is one hand's deal: its pack and dealer, fixed by the game's seed
(``deal_from_seed``). :func:`games.bots.match.match_bots` plays every pack set twice, so
every board is played at two "tables": the pack set's first game, with team A in direction
0 (seats 0 and 2), and its second, with A in direction 1 (seats 1 and 3). A team's
**result** on a board is its score difference there, the opponents' penalty points minus
its own (R9.1; positive is good). A's result holding direction d is compared with B's
holding the same direction d of the same board at the other table: 2 matchpoints for the
better, 1 each for a tie, of a top of 2, so A scores 100%, 50% or 0% on each
board-direction.

That is what ``tournaments.duplicate.score_boards`` gives a group of two results (a test
checks it); ``games`` may not import ``tournaments``, and a group of two needs none of its
Neuberg scaling or Butler datum, so the comparison is written here again, this small.

The interval is a 95% Student's t interval over the **pack sets**, each the mean
percentage of its ten board-directions (five boards, two directions): the board-directions
of one pack set come from the same two games, and both directions of a board from both,
so they are not independent of each other; the pack sets are.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .match import MatchResult, t975

DIRECTIONS = (0, 1)


def board_result(hand_scores: tuple[int, int], direction: int) -> int:
    """The result on a board of the team holding ``direction``: its opponents' penalty
    points minus its own, from the hand's two scores (team 0's, seats 0 and 2, first)."""
    return hand_scores[1 - direction] - hand_scores[direction]


def matchpoint_percentage(result_a: int, result_b: int) -> int:
    """A's matchpoints against B's result in the same direction of the same board, as a
    percentage of the top of 2: 100 for the better result, 50 for a tie, 0 for the worse."""
    return 100 if result_a > result_b else 50 if result_a == result_b else 0


@dataclass(frozen=True, slots=True)
class BoardComparison:
    """Board ``hand`` (1..5) of pack set ``pack_set`` in ``direction``: A's result there
    (from the game where A held it) and B's (from the other game)."""

    pack_set: int
    hand: int
    direction: int
    result_a: int
    result_b: int

    @property
    def percentage(self) -> int:
        """A's matchpoint percentage on it: 100, 50 or 0."""
        return matchpoint_percentage(self.result_a, self.result_b)


def compare_boards(a_first: Sequence[tuple[int, int]], a_second: Sequence[tuple[int, int]],
                   pack_set: int = 0) -> Iterator[BoardComparison]:
    """Each board-direction of one pack set, hand by hand: ``a_first`` is the hand scores
    (team 0's first) of the game where A held direction 0, ``a_second`` of the game where
    A held direction 1. ValueError when the two games played different numbers of hands."""
    if len(a_first) != len(a_second):
        raise ValueError(f"the two tables of pack set {pack_set} played {len(a_first)} and "
                         f"{len(a_second)} hands: a board needs both")
    for hand, (first, second) in enumerate(zip(a_first, a_second, strict=True), start=1):
        for direction in DIRECTIONS:
            a_table, b_table = (first, second) if direction == 0 else (second, first)
            yield BoardComparison(pack_set, hand, direction, board_result(a_table, direction),
                                  board_result(b_table, direction))


@dataclass(frozen=True, slots=True)
class DuplicateResult:
    """Every board-direction of a match, in pack-set, hand and direction order."""

    bot_a: str
    bot_b: str
    comparisons: tuple[BoardComparison, ...]
    seconds: float

    @property
    def boards(self) -> int:
        """Boards played, each at both tables."""
        return len({(c.pack_set, c.hand) for c in self.comparisons})

    @property
    def percentage(self) -> float:
        """A's matchpoint percentage over every board-direction (B's is 100 minus it)."""
        return statistics.fmean(c.percentage for c in self.comparisons)

    @property
    def pack_set_percentages(self) -> list[float]:
        by_set: dict[int, list[int]] = {}
        for c in self.comparisons:
            by_set.setdefault(c.pack_set, []).append(c.percentage)
        return [statistics.fmean(points) for _, points in sorted(by_set.items())]

    @property
    def interval(self) -> tuple[float, float] | None:
        """The 95% t interval of :attr:`percentage` over the pack sets, cut to 0..100 (a
        percentage cannot leave it); None with fewer than two pack sets."""
        sets = self.pack_set_percentages
        if len(sets) < 2:
            return None
        half = t975(len(sets) - 1) * statistics.stdev(sets) / math.sqrt(len(sets))
        return (max(0.0, self.percentage - half), min(100.0, self.percentage + half))

    @property
    def tally(self) -> tuple[int, int, int]:
        """Board-directions where A's result was better, worse, the same."""
        better = sum(c.result_a > c.result_b for c in self.comparisons)
        worse = sum(c.result_a < c.result_b for c in self.comparisons)
        return better, worse, len(self.comparisons) - better - worse


def duplicate_result(match: MatchResult) -> DuplicateResult:
    """The match's games compared board by board (games 2k and 2k + 1 are pack set k)."""
    comparisons = tuple(
        comparison for k in range(len(match.hands) // 2)
        for comparison in compare_boards(match.hands[2 * k], match.hands[2 * k + 1], k))
    return DuplicateResult(match.bot_a, match.bot_b, comparisons, match.seconds)


def duplicate_report(result: DuplicateResult) -> str:
    """The matchpoint score in a few lines of text, with how it is counted."""
    interval = result.interval
    sets = len(result.pack_set_percentages)
    ci = (f"[{interval[0]:.1f}%, {interval[1]:.1f}%] (t, over {sets} pack sets' "
          "percentages)" if interval else "n/a (needs at least two pack sets)")
    better, worse, same = result.tally
    return "\n".join([
        f"A = {result.bot_a}, B = {result.bot_b}, scored as duplicate (each board against "
        "the other table in the same seats)",
        f"boards: {result.boards} (each played at two tables), "
        f"{len(result.comparisons)} board-directions",
        f"A's matchpoints: {result.percentage:.1f}% (top 2 a board-direction; 50% = even)",
        f"95% confidence interval: {ci}",
        f"board-directions: A better {better}, B better {worse}, tied {same}",
        f"wall time: {result.seconds:.1f} s",
    ])
