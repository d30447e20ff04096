"""Duplicate scoring: each team compared with the teams that held the same cards.

The input is `boards.BoardResult`: a team's score difference on one board in one direction,
the opponents' penalty points minus its own (R9.1; positive is good). Results are compared
only within their **group**, the results of one board in one direction. Three ways to
compare them, as duplicate bridge does:

- **Matchpoints**: 2 for each result in the group this one beats, 1 for each it ties; the
  top is 2(n - 1) for n results, and the percentage is matchpoints / top. When the group
  has fewer results than expected (N, a table that did not finish), **Neuberg** scales
  them: S = (N/n)(s + 1) - 1, against a top of 2(N - 1), so the average stays half the top.
- **Butler**: the result minus the group's **datum**, the mean of its results, leaving out
  one highest and one lowest when there are at least 5.
- **Cross-difference**: the result against each other result of the group, averaged (as
  BBO's cross-IMPs): the sum of (result - other) over the n - 1 others, divided by n - 1.

Push scores are already points, on one scale from the first hand to the last, so bridge's
IMP table (which squashes large bridge score differences) is not used and nothing is
scaled: Butler and cross-difference are in penalty points. Without an IMP table the
cross-difference of a result is n/(n - 1) times its difference from the plain mean.

Edge cases, defined here and tested: a tie shares the points of the places it spans (1 for
each tied result); a missing table makes its board's groups one result short (Neuberg); a
group of one result has no one to compare with: 0 matchpoints, top 0, **50%** by the usual
convention (Neuberg gives exactly 50% too whenever more results were expected), Butler 0,
cross-difference 0; a board with one direction missing (a robot duplicate scores only the
seats people played) is scored in the direction it has, and the missing one gives no one
anything. All arithmetic is exact (`fractions.Fraction`); nothing is rounded.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .boards import BoardResult, Direction

HALF = Fraction(50)  # the percentage of a result with no one to compare it with


def top(expected: int) -> int:
    """The most matchpoints a result can have among `expected` results: 2 for each other.
    ValueError for fewer than one."""
    if expected < 1:
        raise ValueError(f"at least one result must be expected, got {expected}")
    return 2 * (expected - 1)


def matchpoints(results: Sequence[int], expected: int | None = None) -> list[Fraction]:
    """Each result's matchpoints among `results` (one group): 2 for each result it beats
    (a higher score difference beats a lower one), 1 for each it ties. When `expected` (N)
    is more than the n results given, each is scaled by Neuberg's formula,
    S = (N/n)(s + 1) - 1, for a top of 2(N - 1). ValueError when fewer are expected than
    given."""
    n = len(results)
    wanted = n if expected is None else expected
    if wanted < n:
        raise ValueError(f"{n} results where {wanted} were expected")
    ordered = sorted(results)
    raw = []
    for result in results:
        below = bisect.bisect_left(ordered, result)
        level = bisect.bisect_right(ordered, result) - below - 1  # the others equal to it
        raw.append(2 * below + level)
    if wanted == n:
        return [Fraction(s) for s in raw]
    return [Fraction(wanted, n) * (s + 1) - 1 for s in raw]


def percentage(points: Fraction, of_top: int) -> Fraction:
    """`points` as a percentage of `of_top`; 50 when the top is 0 (a result alone)."""
    return HALF if of_top == 0 else 100 * points / of_top


def datum(results: Sequence[int]) -> Fraction:
    """The Butler datum of one group: the mean of its results, leaving out one highest and
    one lowest when there are at least 5 (so one wild table does not move it). ValueError
    for no results."""
    if not results:
        raise ValueError("a datum needs at least one result")
    kept = sorted(results)[1:-1] if len(results) >= 5 else list(results)
    return Fraction(sum(kept), len(kept))


def cross_differences(results: Sequence[int]) -> list[Fraction]:
    """Each result against every other of its group, averaged: sum(result - other) over
    the n - 1 others, / (n - 1); 0 for a result alone."""
    n = len(results)
    if n < 2:
        return [Fraction(0)] * n
    total = sum(results)
    return [Fraction(n * result - total, n - 1) for result in results]


@dataclass(frozen=True)
class BoardScore:
    """One `BoardResult` scored against its group: `played` results of `expected`,
    `matchpoints` (Neuberg-scaled when fewer were played than expected) of `top`,
    `percentage` (0..100), the group's `datum` and `butler` (result - datum) and `cross`
    (the cross-difference)."""

    board: int
    direction: Direction
    team: int
    result: int
    played: int
    expected: int
    matchpoints: Fraction
    top: int
    percentage: Fraction
    datum: Fraction
    butler: Fraction
    cross: Fraction


Expected = int | Mapping[int, int] | None


def score_boards(results: Iterable[BoardResult], expected: Expected = None) -> list[BoardScore]:
    """Every result scored in its group (its board and direction), ordered by board,
    direction and team, whatever the order of `results`.

    `expected` is how many results each group should have: one number for every board, a
    number per board number, or None for the most any group has (so a board that a table
    did not finish is scaled against the complete ones). A group short of it is scaled by
    Neuberg. ValueError for a team with two results on one board (in either direction), a
    board missing from an `expected` mapping, or a group with more results than expected
    or an expectation below 1."""
    groups: dict[tuple[int, Direction], list[BoardResult]] = defaultdict(list)
    seen: set[tuple[int, int]] = set()
    for result in results:
        if (result.board, result.team) in seen:
            raise ValueError(f"board {result.board}: team {result.team} has more than one "
                             f"result (a team plays a board once)")
        seen.add((result.board, result.team))
        groups[(result.board, result.direction)].append(result)
    most = max((len(group) for group in groups.values()), default=0)
    scores: list[BoardScore] = []
    for (board, direction), group in sorted(groups.items()):
        group.sort(key=lambda r: r.team)
        wanted = _expected(expected, board, most)
        if wanted < len(group):
            raise ValueError(f"board {board}, direction {direction}: {len(group)} results "
                             f"where {wanted} were expected")
        values = [r.result for r in group]
        points = matchpoints(values, wanted)
        middle = datum(values)
        crosses = cross_differences(values)
        of_top = top(wanted)
        scores.extend(BoardScore(
            board=board, direction=direction, team=r.team, result=r.result,
            played=len(group), expected=wanted, matchpoints=mp, top=of_top,
            percentage=percentage(mp, of_top), datum=middle, butler=r.result - middle,
            cross=cross) for r, mp, cross in zip(group, points, crosses, strict=True))
    return scores


def _expected(expected: Expected, board: int, most: int) -> int:
    if expected is None:
        wanted = most
    elif isinstance(expected, int):
        wanted = expected
    else:
        try:
            wanted = expected[board]
        except KeyError:
            raise ValueError(f"board {board}: no expected number of results") from None
    if wanted < 1:
        raise ValueError(f"board {board}: at least one result must be expected, got {wanted}")
    return wanted


@dataclass(frozen=True)
class TeamTotals:
    """A team's duplicate totals over the boards it has results on: `boards`, the sums of
    its `matchpoints` and `tops`, its `percentage` (the mean of its boards' percentages,
    so every board weighs the same and a board played once counts 50%), and its `butler`
    and `cross` sums (penalty points)."""

    team: int
    boards: int
    matchpoints: Fraction
    tops: int
    percentage: Fraction
    butler: Fraction
    cross: Fraction


def team_totals(scores: Iterable[BoardScore]) -> dict[int, TeamTotals]:
    """Each team's totals from its board scores (`score_boards`), keyed by team in team
    order. A team with no board scores has no entry: the caller decides how to rank it."""
    by_team: dict[int, list[BoardScore]] = defaultdict(list)
    for score in scores:
        by_team[score.team].append(score)
    return {team: TeamTotals(
        team=team, boards=len(own),
        matchpoints=sum((s.matchpoints for s in own), Fraction(0)),
        tops=sum(s.top for s in own),
        percentage=sum((s.percentage for s in own), Fraction(0)) / len(own),
        butler=sum((s.butler for s in own), Fraction(0)),
        cross=sum((s.cross for s in own), Fraction(0)),
    ) for team, own in sorted(by_team.items())}


def combine_totals(team: int, parts: Iterable[TeamTotals]) -> TeamTotals:
    """One team's totals over several rounds' boards (each round's `team_totals` entry):
    the sums, and the percentage over every board, each board weighing the same (so a round
    of five boards weighs five times a round of one). No parts: no boards, 0% (a team that
    has played no board is ranked below every team that has)."""
    own = list(parts)
    boards = sum(p.boards for p in own)
    weighted = sum((p.percentage * p.boards for p in own), Fraction(0))
    return TeamTotals(
        team=team, boards=boards,
        matchpoints=sum((p.matchpoints for p in own), Fraction(0)),
        tops=sum(p.tops for p in own),
        percentage=weighted / boards if boards else Fraction(0),
        butler=sum((p.butler for p in own), Fraction(0)),
        cross=sum((p.cross for p in own), Fraction(0)))
