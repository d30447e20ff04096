"""Every round's standings in one pass: the fast path beside `compute_standings` (`ranking`).

A full rebuild needs the table after each completed round. Calling `standings_after_round`
for each of 40 rounds builds 40 sets of summaries and sums every team's opponents' points
as fractions 40 times. Here the results are applied round by round to running totals, kept
as whole numbers in a unit that makes every point value whole (sums of fractions with one
denominator are sums of their numerators), and each requested table is ranked from those
totals by each tie-break's own running form (`Metric.running`, `metrics`): this module names
no tie-break, so a new one needs nothing here. The answer is exactly `standings_after_round`'s
for every round (a test compares the two on random tournaments for every registered
tie-break); this module only changes how fast it is found.

No database here, like the rest of `tournaments.standings`, whose input and output values it
shares.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence

from tournaments.duplicate import TeamTotals

from .metrics import GameSum, get_metric
from .ranking import StandingRow, StandingsRules
from .results import OUTCOMES, MatchResult, Number, Outcome, check_results


class RunningTotals:
    """Every team's totals after the rounds applied so far, which each metric's `running`
    form reads (see `Metric`): points as whole numbers in units of 1/`unit`
    (`worth` is each outcome's), `byes`, the opponents of every played match (`opponents`)
    and by outcome (`met`), for each configured `GameSum` its `tally`, and each team's
    duplicate totals round by round (`boards`)."""

    def __init__(self, teams: Sequence[int], rules: StandingsRules) -> None:
        scoring = rules.scoring
        self.unit = math.lcm(*(p.denominator for p in (
            scoring.win, scoring.draw, scoring.loss, scoring.bye)))
        self.worth: dict[Outcome, int] = {o: int(scoring.points_for(o) * self.unit)
                                          for o in OUTCOMES}
        self.bye_worth = int(scoring.bye * self.unit)
        self.teams = list(teams)
        self.metrics = [get_metric(key) for key in rules.metric_keys]
        self.ahead = 1 if rules.main is not None else 0  # metrics ranked before points
        self.points = dict.fromkeys(teams, 0)
        self.results = {o: dict.fromkeys(teams, 0) for o in OUTCOMES}
        self.byes = dict.fromkeys(teams, 0)
        self.met: dict[Outcome, dict[int, list[int]]] = {
            o: {t: [] for t in teams} for o in OUTCOMES}
        self.opponents: dict[int, list[int]] = {t: [] for t in teams}
        self.boards: dict[int, list[TeamTotals]] = {t: [] for t in teams}
        self.tally: dict[str, dict[int, int]] = {}
        self._sums: list[tuple[GameSum, dict[int, int]]] = []
        for metric in self.metrics:
            if isinstance(metric, GameSum):
                self.tally[metric.key] = dict.fromkeys(teams, 0)
                self._sums.append((metric, self.tally[metric.key]))

    def bye(self, team: int) -> None:
        self.byes[team] += 1
        self.points[team] += self.bye_worth

    def play(self, team: int, opponent: int, outcome: Outcome,
             totals: tuple[int, int] | None, outs: int,
             boards: TeamTotals | None = None) -> None:
        self.results[outcome][team] += 1
        if boards is not None:
            self.boards[team].append(boards)
        self.points[team] += self.worth[outcome]
        self.met[outcome][team].append(opponent)
        self.opponents[team].append(opponent)
        own, other = (None, None) if totals is None else totals
        for metric, tally in self._sums:
            tally[team] += metric.of_game(outcome, own, other, outs)

    def table(self) -> list[StandingRow]:
        """The table from the totals so far, ranked as `compute_standings` ranks: by
        points, then each tie-break splits the groups still level, best first."""
        points = self.points
        groups = [sorted(self.teams)]
        columns: list[tuple[str, dict[int, Number]]] = []
        for index, metric in enumerate(self.metrics):
            if index == self.ahead:
                groups = _by_points(groups, points)
            scaled, denominator = metric.running(self)
            sign = -1 if metric.higher_is_better else 1
            per_group = metric.group_relative
            # the same in any group: one call for every team
            numerators = {} if per_group else dict(zip(self.teams, scaled(self.teams),
                                                       strict=True))
            refined: list[list[int]] = []
            for group in groups:
                if per_group:
                    numerators.update(zip(group, scaled(group), strict=True))
                if len(group) == 1:
                    refined.append(group)
                else:
                    refined.extend(_levels(group, {t: sign * numerators[t] for t in group}))
            groups = refined
            columns.append((metric.key, _plain_all(numerators, denominator)))
        if len(self.metrics) == self.ahead:
            groups = _by_points(groups, points)
        plain_points = _plain_all(points, self.unit)
        wins, draws, losses = (self.results[o] for o in OUTCOMES)
        rows: list[StandingRow] = []
        for group in groups:
            rank = len(rows) + 1
            rows.extend(StandingRow(
                team=t, rank=rank, points=plain_points[t],
                played=wins[t] + draws[t] + losses[t], wins=wins[t], draws=draws[t],
                losses=losses[t], byes=self.byes[t],
                values={key: column[t] for key, column in columns}) for t in group)
        return rows


def _by_points(groups: list[list[int]], points: dict[int, int]) -> list[list[int]]:
    order = {t: -p for t, p in points.items()}
    return [level for group in groups for level in _levels(group, order)]


def _levels(group: list[int], order: dict[int, int]) -> list[list[int]]:
    """`group` (in team order) sorted by `order`, cut where it changes. A stable sort
    keeps level teams in team order, as `compute_standings` lists them."""
    ordered = sorted(group, key=order.__getitem__)
    return [list(level) for _, level in itertools.groupby(ordered, key=order.__getitem__)]


def _plain_all(numerators: dict[int, int], denominator: int) -> dict[int, Number]:
    if denominator == 1:
        return dict(numerators)
    return {t: _plain(n, denominator) for t, n in numerators.items()}


def _plain(numerator: int, denominator: int) -> Number:
    """As `table._plain(Fraction(numerator, denominator))`: int division and true
    division of ints are exact and correctly rounded, so no Fraction is needed."""
    whole, rest = divmod(numerator, denominator)
    return whole if rest == 0 else numerator / denominator


def standings_by_round(
    teams: Sequence[int], results: Iterable[MatchResult], rules: StandingsRules,
    rounds: Iterable[int],
) -> dict[int, list[StandingRow]]:
    """The table after each round in `rounds` (0: the current table, every result), as
    `standings_after_round` (and `compute_standings` for 0) would give it, in one pass over
    the results in round order. Raises the same ValueErrors for bad input."""
    teams = list(teams)
    results = list(results)
    check_results(teams, results)
    running = RunningTotals(teams, rules)
    wanted = sorted(set(rounds), key=lambda n: math.inf if n == 0 else n)
    by_round = sorted(results, key=lambda r: r.round)
    tables: dict[int, list[StandingRow]] = {}
    applied = 0
    for number in wanted:
        while applied < len(by_round) and (number == 0 or by_round[applied].round <= number):
            _apply(running, by_round[applied])
            applied += 1
        tables[number] = running.table()
    return tables


_OTHER_SIDE: dict[Outcome, Outcome] = {"win": "loss", "loss": "win", "draw": "draw"}


def _apply(running: RunningTotals, result: MatchResult) -> None:
    a, b = result.team_a, result.team_b
    if b is None:
        running.bye(a)
        return
    outcome_a: Outcome = ("draw" if result.winner is None
                          else "win" if result.winner == 0 else "loss")
    outcome_b = _OTHER_SIDE[outcome_a]
    totals = result.totals
    running.play(a, b, outcome_a, totals, result.out_hands[0], result.boards[0])
    running.play(b, a, outcome_b, None if totals is None else (totals[1], totals[0]),
                 result.out_hands[1], result.boards[1])
