"""The tie-break metrics: a registry of small classes, like Tabbycat's `standings/metrics.py`.

Each tie-break is a registered class (`TIEBREAKS`) that carries its key, its name and
abbreviation for people (marked with Django's `gettext_lazy`, the only Django this package
uses: nothing is translated until a page shows it), its direction, and its two forms: the
reference `compute` from a team's summary and the `running` form, which
`standings.rounds` uses to rank every round in one pass. The pages, the API and the admin
read them from here; the order of tie-breaks is tournament configuration
(`StandingsRules.tiebreaks`), not code.

Duplicate scoring's matchpoints, Butler and cross-difference are registered beside these, in
`duplicate_metrics`.
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, ClassVar

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from .results import Outcome, TeamSummary, exact_sum

if TYPE_CHECKING:  # only a type here: the running totals use this module
    from .rounds import RunningTotals

# A metric's running form: a group of level teams -> each one's numerator, whole numbers; the
# value is numerator / denominator, one denominator per metric and table.
Scaled = Callable[[list[int]], list[int]]


class Metric(ABC):
    """A tie-break, in both its forms, so that a new one is this one class.

    `compute` is the reference: it sees the team's summary, every team's summary and the
    group of teams still level with it when this tie-break is applied (only group-relative
    metrics such as head-to-head use it). `running` gives the same values from the totals
    `standings.rounds` keeps while it applies results round by round, as (numerators of a
    group, denominator); a test holds every registered metric's two forms equal.

    `key` names it in configuration and in exports (the API's columns); `name` is its column
    heading and `abbreviation` the short heading of a narrow table; `higher_is_better` is its
    direction; `group_relative` (its value depends on the group) has `running` asked once per
    group rather than once for all teams."""

    key: ClassVar[str]
    name: ClassVar[Promise]
    abbreviation: ClassVar[Promise]
    higher_is_better: ClassVar[bool]
    group_relative: ClassVar[bool] = False

    @abstractmethod
    def compute(
        self, summary: TeamSummary, table: Mapping[int, TeamSummary], group: frozenset[int]
    ) -> Fraction: ...

    @abstractmethod
    def running(self, totals: RunningTotals) -> tuple[Scaled, int]: ...


class GameSum(Metric):
    """A tie-break summing a whole number over the team's played games (byes add nothing):
    only `of_game` is written, and it serves both forms (the running totals add it up)."""

    @abstractmethod
    def of_game(self, outcome: Outcome, own_total: int | None, opponent_total: int | None,
                out_hands: int) -> int:
        """What one game adds (totals None: awarded without being played). Not a `Meeting`:
        building one per game would cost the round-by-round path more than the call."""

    def compute(
        self, summary: TeamSummary, table: Mapping[int, TeamSummary], group: frozenset[int]
    ) -> Fraction:
        of_game = self.of_game
        return Fraction(sum(of_game(m.outcome, m.own_total, m.opponent_total, m.out_hands)
                            for m in summary.meetings))

    def running(self, totals: RunningTotals) -> tuple[Scaled, int]:
        own = totals.tally[self.key].__getitem__  # map() runs in C, faster than a generator
        return (lambda group: list(map(own, group))), 1


TIEBREAKS: dict[str, type[Metric]] = {}


def register(cls: type[Metric]) -> type[Metric]:
    if inspect.isabstract(cls):  # refused here, not on a standings page
        missing = ", ".join(sorted(cls.__abstractmethods__))
        raise TypeError(f"tie-break {cls.key!r} does not define {missing}")
    if cls.key in TIEBREAKS:
        raise ValueError(f"tie-break key {cls.key!r} registered twice")
    TIEBREAKS[cls.key] = cls
    return cls


def get_metric(key: str) -> Metric:
    """The metric for `key`; ValueError naming the known keys otherwise."""
    try:
        return TIEBREAKS[key]()
    except KeyError:
        known = ", ".join(sorted(TIEBREAKS))
        raise ValueError(f"unknown tie-break {key!r}; known tie-breaks: {known}") from None


@register
class ScoreDifference(GameSum):
    """Sum over games of (opponent's total - own total). Penalties are bad,
    so a positive difference is good. Byes and forfeits add nothing."""

    key = "score_diff"
    name = gettext_lazy("Game score difference")
    abbreviation = gettext_lazy("Diff")
    higher_is_better = True

    def of_game(self, outcome: Outcome, own_total: int | None, opponent_total: int | None,
                out_hands: int) -> int:
        return 0 if own_total is None or opponent_total is None else opponent_total - own_total


@register
class FewestPenalty(GameSum):
    """Sum of the team's own game totals; lower is better. Byes and
    forfeits add nothing (so a bye never costs penalty points)."""

    key = "fewest_penalty"
    name = gettext_lazy("Fewest penalty points")
    abbreviation = gettext_lazy("Pen")
    higher_is_better = False

    def of_game(self, outcome: Outcome, own_total: int | None, opponent_total: int | None,
                out_hands: int) -> int:
        return 0 if own_total is None else own_total


@register
class HeadToHead(Metric):
    """Points the team earned in matches against the other teams of its tie
    group (level on points and on every earlier tie-break). Every such match
    counts, even when not all tied teams met. A team alone in its group
    scores 0. Applied once: it is not re-applied to a smaller group it
    leaves behind."""

    key = "head_to_head"
    name = gettext_lazy("Head to head")
    abbreviation = gettext_lazy("H2H")
    higher_is_better = True
    group_relative = True

    def compute(
        self, summary: TeamSummary, table: Mapping[int, TeamSummary], group: frozenset[int]
    ) -> Fraction:
        return exact_sum(m.points for m in summary.meetings if m.opponent in group)

    def running(self, totals: RunningTotals) -> tuple[Scaled, int]:
        met, worth = totals.met, totals.worth

        def scaled(group: list[int]) -> list[int]:
            if len(group) == 1:  # a team alone in its group met no one in it
                return [0]
            members = set(group)
            return [sum(points * sum(1 for opponent in met[outcome][t] if opponent in members)
                        for outcome, points in worth.items()) for t in group]

        return scaled, totals.unit


@register
class Buchholz(Metric):
    """Sum of the opponents' points. A bye counts as a virtual opponent with
    the team's own points, so a bye neither helps nor hurts the score."""

    key = "buchholz"
    name = gettext_lazy("Buchholz (opponents' points)")
    abbreviation = gettext_lazy("Buch")
    higher_is_better = True

    def compute(
        self, summary: TeamSummary, table: Mapping[int, TeamSummary], group: frozenset[int]
    ) -> Fraction:
        opponents = exact_sum(table[m.opponent].points for m in summary.meetings)
        return opponents + summary.byes * summary.points

    def running(self, totals: RunningTotals) -> tuple[Scaled, int]:
        points, byes, opponents = totals.points, totals.byes, totals.opponents
        of = points.__getitem__
        return (lambda group: [sum(map(of, opponents[t])) + byes[t] * points[t]
                               for t in group]), totals.unit


@register
class SonnebornBerger(Metric):
    """Points of the opponents the team beat, plus half the points of the
    opponents it drew with; opponents' points are their standings points in
    this tournament's point values. Losses and byes add nothing."""

    key = "sonneborn_berger"
    name = gettext_lazy("Sonneborn-Berger")
    abbreviation = gettext_lazy("SB")
    higher_is_better = True

    def compute(
        self, summary: TeamSummary, table: Mapping[int, TeamSummary], group: frozenset[int]
    ) -> Fraction:
        beaten = exact_sum(table[m.opponent].points for m in summary.meetings
                           if m.outcome == "win")
        drawn = exact_sum(table[m.opponent].points for m in summary.meetings
                          if m.outcome == "draw")
        return beaten + drawn / 2

    def running(self, totals: RunningTotals) -> tuple[Scaled, int]:
        of = totals.points.__getitem__
        beaten, drawn = totals.met["win"], totals.met["draw"]
        # twice the value, so that a draw's half stays whole
        return (lambda group: [2 * sum(map(of, beaten[t])) + sum(map(of, drawn[t]))
                               for t in group]), 2 * totals.unit


@register
class OutHands(GameSum):
    """Hands the team won by going out, over all its games."""

    key = "out_hands"
    name = gettext_lazy("Hands won going out")
    abbreviation = gettext_lazy("Outs")
    higher_is_better = True

    def of_game(self, outcome: Outcome, own_total: int | None, opponent_total: int | None,
                out_hands: int) -> int:
        return out_hands
