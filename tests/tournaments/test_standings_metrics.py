"""Each tie-break's two forms (tournaments/standings/metrics.py): the from-scratch `compute`
and the `running` form that tournaments/standings/rounds.py ranks every round with. They must give
the same table for every registered metric, and a new metric must need nothing but its own
class."""

from __future__ import annotations

import inspect
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tournaments.duplicate import TeamTotals
from tournaments.standings import (
    TIEBREAKS,
    GameSum,
    MatchResult,
    Metric,
    Outcome,
    RunningTotals,
    Scaled,
    ScoringRule,
    StandingsRules,
    TeamSummary,
    compute_standings,
    exact_sum,
    get_metric,
    register,
    standings_after_round,
    standings_by_round,
)
from tournaments.standings import rounds as rounds_module


@st.composite
def board_totals(draw: st.DrawFn, team: int) -> TeamTotals | None:
    """A team's duplicate totals on one round's boards, or None (not a duplicate round, or
    no board result): few values, so that ties are common, and Neuberg's odd fractions."""
    if draw(st.booleans()):
        return None
    boards = draw(st.integers(1, 5))
    percentage = Fraction(draw(st.integers(0, 12)), draw(st.sampled_from([1, 3, 7])))
    return TeamTotals(team=team, boards=boards, matchpoints=Fraction(0), tops=0,
                      percentage=percentage,
                      butler=Fraction(draw(st.integers(-3, 3)), draw(st.sampled_from([1, 2]))),
                      cross=Fraction(draw(st.integers(-3, 3)), draw(st.sampled_from([1, 4]))))


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[list[int], list[MatchResult]]:
    """Random teams and up to five rounds: games (lower total wins, some awarded without
    being played, some with duplicate totals on the round's boards), and a bye for the
    team left over in an odd round."""
    teams = draw(st.lists(st.integers(1, 40), min_size=1, max_size=9, unique=True))
    results: list[MatchResult] = []
    for rnd in range(1, draw(st.integers(1, 5)) + 1):
        seating = draw(st.permutations(teams))
        for a, b in zip(seating[::2], seating[1::2], strict=False):
            # small totals, so that draws and ties on every metric are common
            total_a, total_b = draw(st.integers(0, 6)), draw(st.integers(0, 6))
            winner = 0 if total_a < total_b else 1 if total_b < total_a else None
            if draw(st.integers(0, 9)) == 0:  # a forfeit: points and opponent, no game
                results.append(MatchResult(rnd, a, b, None, (0, 0), winner))
            else:
                out_a = draw(st.integers(0, 5))
                results.append(MatchResult(rnd, a, b, (total_a, total_b),
                                           (out_a, draw(st.integers(0, 5 - out_a))), winner,
                                           (draw(board_totals(a)), draw(board_totals(b)))))
        if len(seating) % 2:
            results.append(MatchResult(rnd, seating[-1], None, None, (0, 0), None))
    return teams, results


point_systems = st.sampled_from([(2, 1, 0, 2), (3, 1, 0, 3), (1, 0.5, 0, 1), (3, 1, 0, 0),
                                 (Decimal("0.1"), 0, 0, Decimal("0.5"))])


def assert_both_forms_agree(teams: list[int], results: list[MatchResult],
                            rules: StandingsRules) -> None:
    rounds = {0, *range(1, max((r.round for r in results), default=0) + 2)}
    tables = standings_by_round(teams, results, rules, rounds)
    for number in sorted(rounds):
        expected = (compute_standings(teams, results, rules) if number == 0
                    else standings_after_round(teams, results, rules, number))
        assert tables[number] == expected, f"after round {number}"


@pytest.mark.parametrize("key", sorted(TIEBREAKS))
@settings(max_examples=examples(100), deadline=None)
@given(tournaments(), point_systems, st.data())
def test_every_registered_metric_ranks_round_by_round_as_it_computes_from_scratch(
    key: str, tournament: tuple[list[int], list[MatchResult]],
    points: tuple[float, float, float, float], data: st.DataObject,
) -> None:
    teams, results = tournament
    # alone (every points group) and after up to two others (the smaller groups they leave)
    before = data.draw(st.lists(st.sampled_from(sorted(set(TIEBREAKS) - {key})),
                                unique=True, max_size=2))
    for tiebreaks in ((key,), (*before, key)):
        assert_both_forms_agree(teams, results, StandingsRules(ScoringRule(*points), tiebreaks))


@pytest.mark.parametrize("main", ["matchpoints", "butler", "cross_diff"])
@settings(max_examples=examples(100), deadline=None)
@given(tournaments(), point_systems, st.data())
def test_a_duplicate_main_ranking_ranks_round_by_round_as_it_computes_from_scratch(
    main: str, tournament: tuple[list[int], list[MatchResult]],
    points: tuple[float, float, float, float], data: st.DataObject,
) -> None:
    teams, results = tournament
    after = data.draw(st.lists(st.sampled_from(sorted(set(TIEBREAKS) - {main})),
                               unique=True, max_size=2))
    rules = StandingsRules(ScoringRule(*points), tuple(after), main=main)
    assert_both_forms_agree(teams, results, rules)
    table = compute_standings(teams, results, rules)
    ranked = [row.values[main] for row in table]
    assert ranked == sorted(ranked, reverse=True), "the main ranking comes before points"


# --- a new metric is one class ---------------------------------------------


class Wins(GameSum):
    """Games won: a sum over games, so only the per-game value is written."""

    key = "test_wins"
    name = abbreviation = "W"  # type: ignore[assignment]  # plain text will do in a test
    higher_is_better = True

    def of_game(self, outcome: Outcome, own_total: int | None, opponent_total: int | None,
                out_hands: int) -> int:
        return 1 if outcome == "win" else 0


class LostTo(Metric):
    """Points of the opponents the team lost to (fewer is better): read from the running
    totals' points and opponents by outcome."""

    key = "test_lost_to"
    name = abbreviation = "LT"  # type: ignore[assignment]
    higher_is_better = False

    def compute(self, summary: TeamSummary, table: Mapping[int, TeamSummary],
                group: frozenset[int]) -> Fraction:
        return exact_sum(table[m.opponent].points for m in summary.meetings
                         if m.outcome == "loss")

    def running(self, totals: RunningTotals) -> tuple[Scaled, int]:
        points, lost_to = totals.points, totals.met["loss"]
        return (lambda group: [sum(points[o] for o in lost_to[t]) for t in group]), totals.unit


class GamesInGroup(Metric):
    """Games against the other teams of the tie group: group-relative, like head-to-head,
    which the flag and not the key tells the round-by-round ranking."""

    key = "test_games_in_group"
    name = abbreviation = "GG"  # type: ignore[assignment]
    higher_is_better = True
    group_relative = True

    def compute(self, summary: TeamSummary, table: Mapping[int, TeamSummary],
                group: frozenset[int]) -> Fraction:
        return Fraction(sum(1 for m in summary.meetings if m.opponent in group))

    def running(self, totals: RunningTotals) -> tuple[Scaled, int]:
        opponents = totals.opponents
        return (lambda group: [sum(1 for o in opponents[t] if o in group) for t in group]), 1


@contextmanager
def registered(*metrics: type[Metric]) -> Iterator[None]:
    """The metrics registered for the block only, so other tests see the real registry."""
    try:
        for metric in metrics:
            register(metric)
        yield
    finally:
        for metric in metrics:
            TIEBREAKS.pop(metric.key, None)


@settings(max_examples=examples(150), deadline=None)
@given(tournaments(), point_systems, st.permutations([Wins, LostTo, GamesInGroup,
                                                      TIEBREAKS["buchholz"]]))
def test_a_newly_registered_metric_ranks_every_round_with_nothing_added_to_the_rounds_module(
    tournament: tuple[list[int], list[MatchResult]],
    points: tuple[float, float, float, float], order: list[type[Metric]],
) -> None:
    teams, results = tournament
    with registered(Wins, LostTo, GamesInGroup):
        rules = StandingsRules(ScoringRule(*points), tuple(m.key for m in order))
        assert_both_forms_agree(teams, results, rules)
        table = standings_by_round(teams, results, rules, [0])[0]
        wins = {t: sum(1 for r in results if r.team_b is not None and r.winner is not None
                       and (r.team_a, r.team_b)[r.winner] == t) for t in teams}
        assert {row.team: row.values["test_wins"] for row in table} == wins
    assert not {Wins.key, LostTo.key, GamesInGroup.key} & set(TIEBREAKS)


def test_the_round_by_round_module_names_no_tiebreak() -> None:
    # as a string, that is: `out_hands` is also a field of every result
    source = inspect.getsource(rounds_module)
    assert [key for key in TIEBREAKS if f'"{key}"' in source or f"'{key}'" in source] == []


def test_a_metric_without_a_running_form_is_refused_when_registered() -> None:
    class NoRunning(Metric):
        key = "test_no_running"
        name = abbreviation = "NR"  # type: ignore[assignment]
        higher_is_better = True

        def compute(self, summary: TeamSummary, table: Mapping[int, TeamSummary],
                    group: frozenset[int]) -> Fraction:
            return Fraction(0)

    with pytest.raises(TypeError, match="'test_no_running' does not define running"):
        register(NoRunning)
    assert "test_no_running" not in TIEBREAKS


def test_a_key_registered_twice_is_refused() -> None:
    class AnotherDiff(Wins):
        key = "score_diff"

    with pytest.raises(ValueError, match="'score_diff' registered twice"):
        register(AnotherDiff)
    assert TIEBREAKS["score_diff"] is get_metric("score_diff").__class__ is not AnotherDiff
