"""Standings and tie-breaks: a function of match results, database-free.

No database here. The services layer loads results from the database, turns them into
`MatchResult` values and stores the rows this package returns; the standings can be rebuilt
from results at any time and gives the same answer.

- `results`: the input values (`MatchResult`), the tournament's `ScoringRule` (its points
  for a win, a draw, a loss and a bye) and each team's summary of its results;
- `metrics`: the tie-breaks, a registry of small classes (`TIEBREAKS`), like Tabbycat's
  `standings/metrics.py`, each with its key, name, abbreviation, direction and both forms;
- `duplicate_metrics`: matchpoints, Butler and cross-difference, from each team's totals on
  the boards of duplicate rounds;
- `ranking`: `StandingsRules` (the scoring rule and the tie-breaks in order, which are
  tournament configuration, not code) and the ranking, `compute_standings`;
- `rounds`: every round's standings in one pass (`standings_by_round`), from each tie-break's
  running form, with the same answer as `standings_after_round` for each round.

All arithmetic is exact (`fractions.Fraction`), so sums do not depend on the order in which
results arrive and "level" means exactly equal.
"""

from . import duplicate_metrics  # noqa: F401  (registers the duplicate rankings)
from .metrics import TIEBREAKS, GameSum, Metric, Scaled, get_metric, register
from .ranking import StandingRow, StandingsRules, compute_standings, standings_after_round
from .results import (
    MatchResult,
    Meeting,
    Number,
    Outcome,
    ScoringRule,
    TeamSummary,
    check_results,
    exact_sum,
    summarise,
)
from .rounds import RunningTotals, standings_by_round

__all__ = [
    "TIEBREAKS",
    "GameSum",
    "MatchResult",
    "Meeting",
    "Metric",
    "Number",
    "Outcome",
    "RunningTotals",
    "Scaled",
    "ScoringRule",
    "StandingRow",
    "StandingsRules",
    "TeamSummary",
    "check_results",
    "compute_standings",
    "exact_sum",
    "get_metric",
    "register",
    "standings_after_round",
    "standings_by_round",
    "summarise",
]
