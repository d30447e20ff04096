"""Duplicate Push: every table plays the same boards, and teams are compared on them.

Pure, like `formats` and `standings`: no database and no Django (an import-linter contract
in pyproject.toml keeps it so). `boards` holds the values (a round's five boards from a
seed, a team's result on a board, one table's results), `scoring` the comparisons
(matchpoints with Neuberg, Butler, cross-difference) and each team's totals. The docs
(docs/duplicate-scoring.md) explain them with a worked example.

The standings read it (`standings.duplicate_metrics`): the services score each duplicate
round's boards here and hand every match result its two teams' `TeamTotals`, which the
matchpoint, Butler and cross-difference metrics add up over the rounds (`combine_totals`).
"""

from .boards import DIRECTIONS, Board, BoardResult, Direction, boards_from_seed, table_results
from .scoring import (
    BoardScore,
    Expected,
    TeamTotals,
    combine_totals,
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
    "combine_totals",
    "cross_differences",
    "datum",
    "matchpoints",
    "percentage",
    "score_boards",
    "table_results",
    "team_totals",
    "top",
]
