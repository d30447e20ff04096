"""The duplicate rankings as metrics: matchpoints, Butler and cross-difference.

Each reads the team's duplicate totals on every board it has played (`Meeting.boards`, which
the services score per round with `tournaments.duplicate` against every table of the round)
and adds them up over the rounds (`duplicate.combine_totals`). Registered as any tie-break,
so each can break ties or be a tournament's main ranking (`StandingsRules.main`).
"""

from __future__ import annotations

import math
from abc import abstractmethod
from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy

from tournaments.duplicate import TeamTotals, combine_totals

from .metrics import Metric, Scaled, register
from .results import TeamSummary

if TYPE_CHECKING:
    from .rounds import RunningTotals


class BoardMetric(Metric):
    """A value of the team's totals over its boards: only `of_totals` is written."""

    @abstractmethod
    def of_totals(self, totals: TeamTotals) -> Fraction: ...

    def compute(
        self, summary: TeamSummary, table: Mapping[int, TeamSummary], group: frozenset[int]
    ) -> Fraction:
        return self.of_totals(combine_totals(
            summary.team, (m.boards for m in summary.meetings if m.boards is not None)))

    def running(self, totals: RunningTotals) -> tuple[Scaled, int]:
        values = {t: self.of_totals(combine_totals(t, totals.boards[t])) for t in totals.teams}
        # Neuberg's scaling gives any denominator: one common to the table keeps them whole
        unit = math.lcm(1, *(value.denominator for value in values.values()))
        return (lambda group: [int(values[t] * unit) for t in group]), unit


@register
class MatchpointPercentage(BoardMetric):
    """The team's matchpoints as a percentage of the tops, over every board it played,
    each board weighing the same (Neuberg-scaled where a table did not finish)."""

    key = "matchpoints"
    name = gettext_lazy("Matchpoints (%)")
    abbreviation = gettext_lazy("MP%")
    higher_is_better = True

    def of_totals(self, totals: TeamTotals) -> Fraction:
        return totals.percentage


@register
class Butler(BoardMetric):
    """The sum over the team's boards of its result minus the board's datum."""

    key = "butler"
    name = gettext_lazy("Butler (points against the datum)")
    abbreviation = gettext_lazy("Butler")
    higher_is_better = True

    def of_totals(self, totals: TeamTotals) -> Fraction:
        return totals.butler


@register
class CrossDifference(BoardMetric):
    """The sum over the team's boards of its result against each other result, averaged."""

    key = "cross_diff"
    name = gettext_lazy("Cross-difference")
    abbreviation = gettext_lazy("X-diff")
    higher_is_better = True

    def of_totals(self, totals: TeamTotals) -> Fraction:
        return totals.cross
