"""Standings and tie-breaks: a pure function of match results.

No database here. The services layer loads results from the database, turns
them into `MatchResult` values and stores the rows this module returns; the
table can be rebuilt from results at any time and gives the same answer.

Ranking works like Tabbycat's `standings/metrics.py`: each tie-break is a
small registered class (`TIEBREAKS`) that carries its key, its name and
abbreviation for people (marked with Django's `gettext_lazy`, the only
Django this module uses: nothing is translated until a page shows it), its
direction, and its running form, which `standings_rounds` uses to rank every
round in one pass; the pages, the API and the admin read them from here. The
order of tie-breaks is tournament configuration (`StandingsRules.tiebreaks`),
not code.

Teams are ordered by points, then each tie-break in turn splits the groups of
teams still level. Teams level on points and on every tie-break share a rank
(competition ranking: 1, 2, 2, 4) and are listed by team id.

All arithmetic is exact (`fractions.Fraction`), so sums do not depend on the
order in which results arrive and "level" means exactly equal. Values are
handed back as `int` when whole and `float` otherwise.
"""

from __future__ import annotations

import functools
import inspect
import itertools
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, ClassVar, Literal

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

if TYPE_CHECKING:  # only a type here: the running totals use this module
    from .standings_rounds import RunningTotals

Number = int | float | Decimal  # points given as Decimal (as stored) stay exact
Outcome = Literal["win", "draw", "loss"]
_SortKey = Callable[[int], Fraction]


# --------------------------------------------------------------------------
# Input values
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchResult:
    """The result of one match (one game of five hands) between two teams.

    `team_b is None` is a bye: `totals` must be None, `out_hands` (0, 0) and
    `winner` None; the bye team gets `StandingsRules.points_bye` and no game
    score. Otherwise `totals` are the two teams' game totals (penalty points,
    lower is better) and `winner` is 0 (team_a), 1 (team_b) or None (draw);
    it must agree with the totals. `totals` may be None for a played match
    only when the result was awarded without a game (a forfeit): it then
    counts for points and opponents but adds nothing to game-score metrics,
    and `out_hands` must be (0, 0).
    """

    round: int
    team_a: int
    team_b: int | None
    totals: tuple[int, int] | None
    out_hands: tuple[int, int]
    winner: int | None

    def __post_init__(self) -> None:
        if self.out_hands[0] < 0 or self.out_hands[1] < 0:
            raise ValueError(
                f"{self._where()}: out_hands must not be negative, got {self.out_hands}")
        if self.team_b is None:
            if self.totals is not None or self.winner is not None or self.out_hands != (0, 0):
                raise ValueError(
                    f"{self._where()}: a bye has no totals, no winner and out_hands (0, 0)")
            return
        if self.team_b == self.team_a:
            raise ValueError(f"{self._where()}: a team cannot play itself")
        if self.winner not in (0, 1, None):
            raise ValueError(f"{self._where()}: winner must be 0, 1 or None, got {self.winner!r}")
        if self.totals is None:
            if self.out_hands != (0, 0):
                raise ValueError(f"{self._where()}: a result without totals has out_hands (0, 0)")
            return
        a, b = self.totals
        expected = 0 if a < b else 1 if b < a else None
        if self.winner != expected:
            raise ValueError(
                f"{self._where()}: totals {self.totals} mean winner {expected!r} "
                f"(lower total wins, equal is a draw), got {self.winner!r}"
            )

    def _where(self) -> str:
        # A method, not formatted up front: a rebuild builds 10,000 results, all valid.
        return f"round {self.round}, team {self.team_a} v {self.team_b}"

    @property
    def is_bye(self) -> bool:
        return self.team_b is None


@dataclass(frozen=True)
class StandingsRules:
    """A tournament's standings settings.

    `tiebreaks` are metric keys (see `TIEBREAKS`), applied in order after
    points. Unknown or repeated keys raise ValueError.
    """

    points_win: Number
    points_draw: Number
    points_loss: Number
    points_bye: Number
    tiebreaks: tuple[str, ...]

    def __post_init__(self) -> None:
        # Accept any sequence from configuration but store a hashable tuple.
        object.__setattr__(self, "tiebreaks", tuple(self.tiebreaks))
        for key in self.tiebreaks:
            get_metric(key)
        repeated = sorted({k for k in self.tiebreaks if self.tiebreaks.count(k) > 1})
        if repeated:
            raise ValueError(f"tie-breaks repeated: {', '.join(repeated)}")

    def points_for(self, outcome: Outcome) -> Fraction:
        return _points_table(self.points_win, self.points_draw, self.points_loss)[outcome]


@functools.lru_cache(maxsize=64)
def _points_table(win: Number, draw: Number, loss: Number) -> dict[Outcome, Fraction]:
    return {"win": Fraction(win), "draw": Fraction(draw), "loss": Fraction(loss)}


def exact_sum(values: Iterable[Fraction]) -> Fraction:
    """The exact sum, adding numerators per denominator (there are few: point values are
    whole or halves), which is much faster than adding ``Fraction`` objects one by one."""
    numerators: dict[int, int] = {}
    for value in values:
        numerators[value.denominator] = numerators.get(value.denominator, 0) + value.numerator
    return sum((Fraction(n, d) for d, n in numerators.items()), Fraction(0))


# --------------------------------------------------------------------------
# Per-team summary: everything the metrics need, in canonical order
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Meeting:
    """One played (non-bye) match from one team's side."""

    round: int
    opponent: int
    outcome: Outcome
    points: Fraction
    own_total: int | None
    opponent_total: int | None
    out_hands: int


@dataclass(frozen=True)
class TeamSummary:
    """A team's results, precomputed once; metrics read only this.

    `meetings` are sorted by (round, opponent), so a summary does not depend
    on the order of the results it was built from.
    """

    team: int
    points: Fraction
    wins: int
    draws: int
    losses: int
    byes: int
    meetings: tuple[Meeting, ...]

    @property
    def played(self) -> int:
        """Matches played against an opponent; byes are counted separately."""
        return self.wins + self.draws + self.losses


def check_results(teams: Sequence[int], results: Sequence[MatchResult]) -> None:
    """Reject repeated teams, results that name unknown teams and a team in two matches
    of the same round (ValueError, saying which)."""
    if len(set(teams)) != len(teams):
        raise ValueError(f"teams repeated: {sorted(t for t in set(teams) if teams.count(t) > 1)}")
    known = set(teams)
    seen: set[tuple[int, int]] = set()
    for result in results:
        sides = [result.team_a] if result.team_b is None else [result.team_a, result.team_b]
        for team in sides:
            if team not in known:
                raise ValueError(f"round {result.round}: team {team} is not in this tournament")
            if (result.round, team) in seen:
                raise ValueError(f"round {result.round}: team {team} has more than one result")
            seen.add((result.round, team))


def summarise(
    teams: Sequence[int], results: Iterable[MatchResult], rules: StandingsRules
) -> dict[int, TeamSummary]:
    """Build every team's summary; reject results that name unknown teams or
    put a team in two matches of the same round."""
    results = list(results)
    check_results(teams, results)
    meetings: dict[int, list[Meeting]] = {t: [] for t in teams}
    byes: dict[int, int] = {t: 0 for t in teams}
    for result in results:
        if result.team_b is None:
            byes[result.team_a] += 1
            continue
        for side, (team, opponent) in enumerate(
            ((result.team_a, result.team_b), (result.team_b, result.team_a))
        ):
            outcome: Outcome = (
                "draw" if result.winner is None else "win" if result.winner == side else "loss"
            )
            totals = result.totals
            meetings[team].append(
                Meeting(
                    round=result.round,
                    opponent=opponent,
                    outcome=outcome,
                    points=rules.points_for(outcome),
                    own_total=None if totals is None else totals[side],
                    opponent_total=None if totals is None else totals[1 - side],
                    out_hands=result.out_hands[side],
                )
            )
    summaries = {}
    for team in teams:
        played = tuple(sorted(meetings[team], key=lambda m: (m.round, m.opponent)))
        outcomes = [m.outcome for m in played]
        wins, draws, losses = (outcomes.count(o) for o in ("win", "draw", "loss"))
        summaries[team] = TeamSummary(
            team=team,
            points=wins * rules.points_for("win") + draws * rules.points_for("draw")
            + losses * rules.points_for("loss") + byes[team] * Fraction(rules.points_bye),
            wins=wins,
            draws=draws,
            losses=losses,
            byes=byes[team],
            meetings=played,
        )
    return summaries


# --------------------------------------------------------------------------
# Tie-break metrics
# --------------------------------------------------------------------------

# A metric's running form: a group of level teams -> each one's numerator, whole numbers; the
# value is numerator / denominator, one denominator per metric and table.
Scaled = Callable[[list[int]], list[int]]


class Metric(ABC):
    """A tie-break, in both its forms, so that a new one is this one class.

    `compute` is the reference: it sees the team's summary, every team's summary and the
    group of teams still level with it when this tie-break is applied (only group-relative
    metrics such as head-to-head use it). `running` gives the same values from the totals
    `standings_rounds` keeps while it applies results round by round, as (numerators of a
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


# --------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingRow:
    """One line of the table. `values` holds each configured tie-break's
    value, keyed and ordered as `StandingsRules.tiebreaks`."""

    team: int
    rank: int
    points: Number
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    values: dict[str, Number]


def _plain(value: Fraction) -> Number:
    return int(value) if value.denominator == 1 else float(value)


def compute_standings(
    teams: Sequence[int], results: Iterable[MatchResult], rules: StandingsRules
) -> list[StandingRow]:
    """The table for `teams` from `results`, best first.

    A pure function of its inputs, independent of the order of `results`.
    Every team in `teams` gets a row, including teams with no results yet.
    Raises ValueError for results naming a team not in `teams` or a team
    with two results in one round.
    """
    teams = list(teams)
    table = summarise(teams, results, rules)
    metrics = [get_metric(key) for key in rules.tiebreaks]
    values: dict[int, dict[str, Fraction]] = {t: {} for t in teams}

    # Groups of level teams, best first; each tie-break splits every group.
    groups: list[list[int]] = _split(sorted(teams), lambda t: -table[t].points)
    for metric in metrics:
        refined: list[list[int]] = []
        for group in groups:
            members = frozenset(group)
            for team in group:
                values[team][metric.key] = metric.compute(table[team], table, members)
            refined.extend(_split(group, _metric_order(metric, values)))
        groups = refined

    rows: list[StandingRow] = []
    for group in groups:
        rank = len(rows) + 1
        for team in sorted(group):
            s = table[team]
            rows.append(
                StandingRow(
                    team=team,
                    rank=rank,
                    points=_plain(s.points),
                    played=s.played,
                    wins=s.wins,
                    draws=s.draws,
                    losses=s.losses,
                    byes=s.byes,
                    values={m.key: _plain(values[team][m.key]) for m in metrics},
                )
            )
    return rows


def _metric_order(metric: Metric, values: Mapping[int, Mapping[str, Fraction]]) -> _SortKey:
    """Sort key putting the better value of `metric` first."""
    sign = -1 if metric.higher_is_better else 1
    return lambda team: sign * values[team][metric.key]


def _split(group: list[int], sort_key: _SortKey) -> list[list[int]]:
    """Sort `group` by `sort_key` (ascending) and cut it where the key changes."""
    ordered = sorted(group, key=lambda t: (sort_key(t), t))
    return [list(level) for _, level in itertools.groupby(ordered, key=sort_key)]


def standings_after_round(
    teams: Sequence[int],
    results: Iterable[MatchResult],
    rules: StandingsRules,
    round: int,
) -> list[StandingRow]:
    """The table as of the end of `round`: results of later rounds are
    ignored. Whether `round` is complete is the caller's business."""
    return compute_standings(teams, (r for r in results if r.round <= round), rules)
