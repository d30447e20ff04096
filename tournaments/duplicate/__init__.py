"""Duplicate Push: every table plays the same boards, and teams are compared on them.

Pure, like `formats` and `standings`: no database and no Django (an import-linter contract
in pyproject.toml keeps it so). `boards` holds the values (a round's five boards from a
seed, a team's result on a board, one table's results), `scoring` the comparisons
(matchpoints with Neuberg, Butler, cross-difference) and each team's totals. The docs
(docs/duplicate-scoring.md) explain them with a worked example.

Not yet a standings metric: the tie-breaks of `standings.metrics` are computed from match
results (`standings.MatchResult`: a game's two totals), which say nothing of boards, and the
table always ranks on match points first. To register matchpoints, Butler and
cross-difference in `standings.TIEBREAKS` (and let one be the main ranking) the standings'
input needs each team's `BoardResult`s, which need the boards stored; until then
`score_boards` and `team_totals` are the whole contract those metrics will read.
"""

from .boards import DIRECTIONS, Board, BoardResult, Direction, boards_from_seed, table_results
from .scoring import (
    BoardScore,
    Expected,
    TeamTotals,
    cross_differences,
    datum,
    matchpoints,
    percentage,
    score_boards,
    team_totals,
    top,
)

__all__ = [
    "DIRECTIONS",
    "Board",
    "BoardResult",
    "BoardScore",
    "Direction",
    "Expected",
    "TeamTotals",
    "boards_from_seed",
    "cross_differences",
    "datum",
    "matchpoints",
    "percentage",
    "score_boards",
    "table_results",
    "team_totals",
    "top",
]
