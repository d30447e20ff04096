"""Points as a scoring rule (tournaments/standings/results.py): the tournament names its rule
(`Tournament.scoring`) and the standings count exactly that rule's points."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tournaments import services
from tournaments.models import Match, Result, Round, Standing
from tournaments.services.derived import tournament_rules
from tournaments.standings import (
    TIEBREAKS,
    MatchResult,
    ScoringRule,
    StandingsRules,
    compute_standings,
    standings_by_round,
)

from .factories import tournament_with_teams
from .test_standings_metrics import tournaments


def test_a_scoring_rule_gives_each_outcome_its_points_as_exact_fractions() -> None:
    rule = ScoringRule(win=Decimal("0.1"), draw=Fraction(1, 3), loss=0, bye=1.5)

    assert (rule.points_for("win"), rule.points_for("draw"), rule.points_for("loss"),
            rule.bye) == (Fraction(1, 10), Fraction(1, 3), 0, Fraction(3, 2))
    assert all(isinstance(p, Fraction) for p in (rule.win, rule.draw, rule.loss, rule.bye))
    assert sum([rule.points_for("win")] * 3) == Fraction(3, 10)  # not 0.30000000000000004


def test_rules_with_the_same_points_are_equal_whatever_the_numbers_were_given_as() -> None:
    assert ScoringRule(2, 1, 0, 2) == ScoringRule(Decimal("2.0"), 1.0, Fraction(0), Decimal(2))
    assert hash(ScoringRule(2, 1, 0, 2)) == hash(ScoringRule(Decimal("2.0"), 1, 0, 2))
    assert ScoringRule(2, 1, 0, 2) != ScoringRule(2, 1, 0, 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        ScoringRule(2, 1, 0, 2).win = Fraction(3)  # type: ignore[misc]


tenths = st.integers(0, 99).map(lambda n: Decimal(n) / 10)  # as a tournament stores them


@settings(max_examples=examples(100), deadline=None)
@given(tournaments(), st.tuples(tenths, tenths, tenths, tenths),
       st.lists(st.sampled_from(sorted(TIEBREAKS)), unique=True, max_size=3))
def test_every_teams_points_are_its_results_counted_by_the_scoring_rule(
    tournament: tuple[list[int], list[MatchResult]],
    points: tuple[Decimal, Decimal, Decimal, Decimal],
    tiebreaks: list[str],
) -> None:
    teams, results = tournament
    win, draw, loss, bye = (Fraction(p) for p in points)
    rules = StandingsRules(ScoringRule(*points), tuple(tiebreaks))

    for table in (compute_standings(teams, results, rules),
                  standings_by_round(teams, results, rules, [0])[0]):
        for row in table:
            expected = row.wins * win + row.draws * draw + row.losses * loss + row.byes * bye
            assert row.points == float(expected), f"team {row.team}"


# (win, draw, loss, bye): the usual 3-1-0 with 3 for a bye, and every value different
@pytest.mark.django_db
@pytest.mark.parametrize("points", [("3", "1", "0", "3"), ("5", "2", "0.5", "1.5")])
def test_the_stored_table_counts_the_tournaments_scoring_rule(
    points: tuple[str, str, str, str],
) -> None:
    win, draw, loss, bye = (Decimal(p) for p in points)
    tournament = tournament_with_teams(3, points_win=win, points_draw=draw, points_loss=loss,
                                       points_bye=bye, tiebreaks=[])
    tournament.refresh_from_db()
    first, second, third = (e.team for e in tournament.entries.order_by("seed"))
    # (round, team a, team b or None for a bye, outcome)
    schedule = [(1, first, second, "a"), (1, third, None, "bye"),
                (2, first, third, "d"), (2, second, None, "bye"),
                (3, third, second, "a"), (3, first, None, "bye")]
    earned = {team.pk: Decimal(0) for team in (first, second, third)}
    for number, team_a, team_b, outcome in schedule:
        round, _ = Round.objects.get_or_create(tournament=tournament, number=number,
                                               defaults={"status": Round.Status.COMPLETE})
        match = Match.objects.create(round=round, team_a=team_a, team_b=team_b,
                                     is_bye=team_b is None, status=Match.Status.DONE)
        if team_b is None:
            earned[team_a.pk] += bye
            continue
        totals = {"a": (100, 200), "d": (150, 150)}[outcome]
        Result.objects.create(match=match, source=Result.Source.SHEET, hand_scores=[],
                              out_seats=[], total_a=totals[0], total_b=totals[1],
                              winner=outcome)
        earned[team_a.pk] += win if outcome == "a" else draw
        earned[team_b.pk] += loss if outcome == "a" else draw

    assert tournament.scoring == ScoringRule(win=win, draw=draw, loss=loss, bye=bye)
    assert tournament_rules(tournament).scoring == tournament.scoring
    services.standings_rebuild(tournament=tournament)

    table = Standing.objects.filter(tournament=tournament, round_number=0)
    assert {row.team_id: row.points for row in table} == earned
    assert {row.team_id: (row.wins, row.draws, row.losses, row.byes) for row in table} == {
        first.pk: (1, 1, 0, 1), second.pk: (0, 0, 2, 1), third.pk: (1, 1, 0, 1)}
