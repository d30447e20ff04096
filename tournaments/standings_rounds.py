"""Every round's table in one pass: the fast path beside `standings.compute_standings`.

A full rebuild needs the table after each completed round. Calling `standings_after_round`
for each of 40 rounds builds 40 sets of summaries and sums every team's opponents' points
as fractions 40 times. Here the results are applied round by round to running totals, kept
as whole numbers in a unit that makes every point value whole (sums of fractions with one
denominator are sums of their numerators), and each requested table is ranked from those
totals. The answer is exactly `standings_after_round`'s for every round (a test compares the
two on random tournaments); this module only changes how fast it is found.

No database here, like `tournaments.standings`, whose input and output values it shares.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

from .standings import (
    MatchResult,
    Number,
    Outcome,
    StandingRow,
    StandingsRules,
    check_results,
    get_metric,
)

# A tie-break as whole numbers: a group of level teams -> each one's numerator; the value
# is numerator / denominator, one denominator per metric.
_Scaled = Callable[[list[int]], list[int]]


class _Running:
    """Every team's totals after the rounds applied so far."""

    def __init__(self, teams: Sequence[int], rules: StandingsRules) -> None:
        self.rules = rules
        self.unit = math.lcm(*(Fraction(p).denominator for p in (
            rules.points_win, rules.points_draw, rules.points_loss, rules.points_bye)))
        self.worth: dict[Outcome, int] = {o: int(rules.points_for(o) * self.unit)
                                          for o in ("win", "draw", "loss")}
        self.bye_worth = int(Fraction(rules.points_bye) * self.unit)
        self.teams = list(teams)
        self.points = dict.fromkeys(teams, 0)
        self.results = {o: dict.fromkeys(teams, 0) for o in ("win", "draw", "loss")}
        self.byes = dict.fromkeys(teams, 0)
        self.diff = dict.fromkeys(teams, 0)
        self.penalty = dict.fromkeys(teams, 0)
        self.outs = dict.fromkeys(teams, 0)
        # the opponents of every played match by outcome, for the opponent-based tie-breaks
        self.met: dict[Outcome, dict[int, list[int]]] = {
            o: {t: [] for t in teams} for o in ("win", "draw", "loss")}
        self.opponents: dict[int, list[int]] = {t: [] for t in teams}

    def bye(self, team: int) -> None:
        self.byes[team] += 1
        self.points[team] += self.bye_worth

    def play(self, team: int, opponent: int, outcome: Outcome,
             totals: tuple[int, int] | None, outs: int) -> None:
        self.results[outcome][team] += 1
        self.points[team] += self.worth[outcome]
        self.met[outcome][team].append(opponent)
        self.opponents[team].append(opponent)
        if totals is not None:
            self.diff[team] += totals[1] - totals[0]
            self.penalty[team] += totals[0]
        self.outs[team] += outs

    def metric(self, key: str) -> tuple[_Scaled, int]:
        """The tie-break `key` as (numerators, denominator); the rules in each metric's
        docstring in `tournaments.standings`."""
        points, byes, unit = self.points, self.byes, self.unit
        beaten, drawn = self.met["win"], self.met["draw"]
        opponents = self.opponents
        of = points.__getitem__  # map() runs in C, several times a generator's speed
        if key in ("score_diff", "fewest_penalty", "out_hands"):
            own = {"score_diff": self.diff, "fewest_penalty": self.penalty,
                   "out_hands": self.outs}[key].__getitem__
            return (lambda group: list(map(own, group))), 1
        if key == "buchholz":
            return (lambda group: [sum(map(of, opponents[t])) + byes[t] * points[t]
                                   for t in group]), unit
        if key == "sonneborn_berger":  # twice the value: a draw's half stays whole
            return (lambda group: [2 * sum(map(of, beaten[t])) + sum(map(of, drawn[t]))
                                   for t in group]), 2 * unit
        if key == "head_to_head":
            return self._head_to_head, unit
        raise ValueError(f"tie-break {key!r} has no fast version; add it to _Running.metric")

    def _head_to_head(self, group: list[int]) -> list[int]:
        if len(group) == 1:  # a team alone in its group met no one in it
            return [0]
        members = set(group)
        return [sum(worth * sum(1 for opponent in self.met[outcome][t] if opponent in members)
                    for outcome, worth in self.worth.items()) for t in group]

    def table(self) -> list[StandingRow]:
        """The table from the totals so far, ranked as `compute_standings` ranks: by
        points, then each tie-break splits the groups still level, best first."""
        points = self.points
        groups = _levels(sorted(self.teams), {t: -p for t, p in points.items()})
        columns: list[tuple[str, dict[int, Number]]] = []
        for key in self.rules.tiebreaks:
            scaled, denominator = self.metric(key)
            sign = -1 if get_metric(key).higher_is_better else 1
            numerators: dict[int, int] = {}
            if key != "head_to_head":  # the same in any group: one call for every team
                numerators = dict(zip(self.teams, scaled(self.teams), strict=True))
            refined: list[list[int]] = []
            for group in groups:
                if key == "head_to_head":
                    numerators.update(zip(group, scaled(group), strict=True))
                if len(group) == 1:
                    refined.append(group)
                else:
                    refined.extend(_levels(group, {t: sign * numerators[t] for t in group}))
            groups = refined
            columns.append((key, _plain_all(numerators, denominator)))
        plain_points = _plain_all(points, self.unit)
        wins, draws, losses = (self.results[o] for o in ("win", "draw", "loss"))
        rows: list[StandingRow] = []
        for group in groups:
            rank = len(rows) + 1
            rows.extend(StandingRow(
                team=t, rank=rank, points=plain_points[t],
                played=wins[t] + draws[t] + losses[t], wins=wins[t], draws=draws[t],
                losses=losses[t], byes=self.byes[t],
                values={key: column[t] for key, column in columns}) for t in group)
        return rows


def _levels(group: list[int], order: dict[int, int]) -> list[list[int]]:
    """`group` (in team order) sorted by `order`, cut where it changes. A stable sort
    keeps level teams in team order, as `standings` lists them."""
    ordered = sorted(group, key=order.__getitem__)
    return [list(level) for _, level in itertools.groupby(ordered, key=order.__getitem__)]


def _plain_all(numerators: dict[int, int], denominator: int) -> dict[int, Number]:
    if denominator == 1:
        return dict(numerators)
    return {t: _plain(n, denominator) for t, n in numerators.items()}


def _plain(numerator: int, denominator: int) -> Number:
    """As `standings._plain(Fraction(numerator, denominator))`: int division and true
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
    running = _Running(teams, rules)
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


def _apply(running: _Running, result: MatchResult) -> None:
    a, b = result.team_a, result.team_b
    if b is None:
        running.bye(a)
        return
    outcome_a: Outcome = ("draw" if result.winner is None
                          else "win" if result.winner == 0 else "loss")
    outcome_b = _OTHER_SIDE[outcome_a]
    totals = result.totals
    running.play(a, b, outcome_a, totals, result.out_hands[0])
    running.play(b, a, outcome_b, None if totals is None else (totals[1], totals[0]),
                 result.out_hands[1])
