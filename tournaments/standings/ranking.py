"""The ranking: teams ordered by points, then by each configured tie-break in turn.

A duplicate tournament may rank on a metric before points (`StandingsRules.main`: its
matchpoints, say), and points then come first among the tie-breaks. Otherwise teams are
ordered by points (counted by the tournament's `ScoringRule`), then each
tie-break splits the groups of teams still level. Teams level on points and on every
tie-break share a rank (competition ranking: 1, 2, 2, 4) and are listed by team id. Values
are handed back as `int` when whole and `float` otherwise.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .metrics import Metric, get_metric
from .results import MatchResult, Number, ScoringRule, summarise

_SortKey = Callable[[int], Fraction]


@dataclass(frozen=True)
class StandingsRules:
    """A tournament's standings settings: its scoring rule and its tie-breaks.

    `tiebreaks` are metric keys (see `TIEBREAKS`), applied in order after
    points; `main`, a metric key too, ranks before points (None: points rank first).
    Unknown or repeated keys raise ValueError.
    """

    scoring: ScoringRule
    tiebreaks: tuple[str, ...]
    main: str | None = None

    @property
    def metric_keys(self) -> tuple[str, ...]:
        """Every metric the standings show, in the order it ranks on them."""
        return self.tiebreaks if self.main is None else (self.main, *self.tiebreaks)

    def __post_init__(self) -> None:
        # Accept any sequence from configuration but store a hashable tuple.
        object.__setattr__(self, "tiebreaks", tuple(self.tiebreaks))
        keys = self.metric_keys
        for key in keys:
            get_metric(key)
        repeated = sorted({k for k in keys if keys.count(k) > 1})
        if repeated:
            raise ValueError(f"tie-breaks repeated: {', '.join(repeated)}")


@dataclass(frozen=True)
class StandingRow:
    """One team's row of the standings. `values` holds each configured tie-break's
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
    table = summarise(teams, results, rules.scoring)
    metrics = [get_metric(key) for key in rules.metric_keys]
    values: dict[int, dict[str, Fraction]] = {t: {} for t in teams}

    def by_metric(groups: list[list[int]], metric: Metric) -> list[list[int]]:
        refined: list[list[int]] = []
        for group in groups:
            members = frozenset(group)
            for team in group:
                values[team][metric.key] = metric.compute(table[team], table, members)
            refined.extend(_split(group, _metric_order(metric, values)))
        return refined

    # Groups of level teams, best first; points and each tie-break split every group.
    groups: list[list[int]] = [sorted(teams)]
    ahead = metrics[:1] if rules.main is not None else []
    for metric in ahead:
        groups = by_metric(groups, metric)
    groups = [level for group in groups
              for level in _split(group, lambda t: -table[t].points)]
    for metric in metrics[len(ahead):]:
        groups = by_metric(groups, metric)

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
