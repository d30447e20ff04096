"""Tournament services on the configured database (PostgreSQL in CI)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied

from tournaments import selectors, services
from tournaments.models import Absence, Match, Result, Round, Seat, Standing, Tournament

from .factories import UserFactory, tournament_with_teams

pytestmark = pytest.mark.django_db


def play_round(round: Round) -> None:
    services.round_publish(round=round)
    for match_id in selectors.round_bot_match_ids(round):
        services.match_play_bots(match_id=match_id)


def test_an_all_bot_swiss_tournament_runs_to_the_end() -> None:
    tournament = tournament_with_teams(5, rounds_planned=2, bye_policy="bot")
    for entry in tournament.entries.all():  # everyone absent: bots play every seat
        for number in (1, 2):
            for player in (entry.team.player_a, entry.team.player_b):
                Absence.objects.create(tournament=tournament, round_number=number, player=player)
    for _ in range(2):
        round = services.round_pair_next(tournament=tournament)
        assert round.matches.filter(bot_opponent=True).count() == 1  # 5 teams: one bot game
        play_round(round)
        services.round_complete(round=round)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert Result.objects.filter(match__round__tournament=tournament).count() == 6
    table = Standing.objects.filter(tournament=tournament, round_number=0)
    assert sorted(s.team_id for s in table) == sorted(
        tournament.entries.values_list("team_id", flat=True))
    assert sum(s.played for s in table) == 2 * 2 + 2 * 2 + 2  # four real games, two bot games


def test_pairing_twice_returns_the_same_draft() -> None:
    tournament = tournament_with_teams(4)
    first = services.round_pair_next(tournament=tournament)
    assert services.round_pair_next(tournament=tournament) == first
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert first.matches.count() == 2
    assert Seat.objects.filter(round=first).count() == 8


def test_a_player_marked_absent_gets_a_bot_substitute() -> None:
    tournament = tournament_with_teams(4)
    round = services.round_pair_next(tournament=tournament)
    seat = Seat.objects.filter(round=round).first()
    assert seat is not None and seat.player is not None
    Absence.objects.create(tournament=tournament, round_number=1, player=seat.player)

    assert services.round_fill_seats(round=round) == 1
    assert services.round_fill_seats(round=round) == 0  # repeating changes nothing
    seat.refresh_from_db()
    assert seat.player is None and seat.substitute and seat.bot_level == "random"


def test_playing_a_bot_match_twice_stores_one_result() -> None:
    tournament = tournament_with_teams(2, bye_policy="bot")
    for entry in tournament.entries.all():
        for player in (entry.team.player_a, entry.team.player_b):
            Absence.objects.create(tournament=tournament, round_number=1, player=player)
    round = services.round_pair_next(tournament=tournament)
    services.round_publish(round=round)
    match = round.matches.get()
    assert services.match_play_bots(match_id=match.pk) is not None
    assert services.match_play_bots(match_id=match.pk) is None
    assert Result.objects.filter(match=match).count() == 1
    match.refresh_from_db()
    assert match.status == Match.Status.DONE


def test_an_organiser_of_another_tournament_may_not_pair_this_one() -> None:
    mine, other = UserFactory(), UserFactory()
    tournament = tournament_with_teams(4, organisers=[mine])
    tournament_with_teams(2, organisers=[other])
    with pytest.raises(PermissionDenied):
        services.round_pair_next(tournament=tournament, user=other)
    assert services.round_pair_next(tournament=tournament, user=mine).number == 1


def test_the_next_round_waits_for_the_current_one() -> None:
    tournament = tournament_with_teams(4)
    services.round_publish(round=services.round_pair_next(tournament=tournament))
    with pytest.raises(services.TournamentUserError, match="complete round 1"):
        services.round_pair_next(tournament=tournament)


def test_standings_after_each_result_equal_a_full_rebuild() -> None:
    tournament = tournament_with_teams(6, rounds_planned=3)
    for entry in tournament.entries.select_related("team"):
        for number in (1, 2, 3):
            for player in (entry.team.player_a, entry.team.player_b):
                Absence.objects.create(tournament=tournament, round_number=number, player=player)
    for _ in range(3):
        round = services.round_pair_next(tournament=tournament)
        services.round_publish(round=round)
        for match_id in selectors.round_bot_match_ids(round):
            services.match_play_bots(match_id=match_id)
            services.standings_rebuild(tournament=tournament, full=False)
        services.round_complete(round=round)
    incremental = list(Standing.objects.filter(tournament=tournament)
                       .values_list("round_number", "team_id", "rank", "points", "values")
                       .order_by("round_number", "team_id"))

    services.standings_rebuild(tournament=tournament, full=True)

    rebuilt = list(Standing.objects.filter(tournament=tournament)
                   .values_list("round_number", "team_id", "rank", "points", "values")
                   .order_by("round_number", "team_id"))
    assert rebuilt == incremental
    assert {r[0] for r in rebuilt} == {0, 1, 2, 3}


def test_a_tournament_with_an_unknown_tie_break_does_not_validate() -> None:
    from django.core.exceptions import ValidationError

    tournament = tournament_with_teams(2, tiebreaks=["buchholz", "coin_toss"])
    with pytest.raises(ValidationError, match="at most once"):
        tournament.full_clean()
    tournament.tiebreaks = ["buchholz", "score_diff"]
    tournament.full_clean()


def test_a_job_counts_a_match_a_player_took_a_seat_in_as_skipped() -> None:
    tournament = tournament_with_teams(4, rounds_planned=1)
    for entry in tournament.entries.select_related("team"):
        for player in (entry.team.player_a, entry.team.player_b):
            Absence.objects.create(tournament=tournament, round_number=1, player=player)
    round = services.round_pair_next(tournament=tournament)
    job = services.round_publish(round=round)
    assert job is not None
    first, second = job.match_ids
    services.match_play_bots(match_id=first)
    seat = Seat.objects.filter(match_id=second).first()
    seat.player = seat.match.team_a.player_a
    seat.save()

    job = services.job_refresh(job_id=job.pk)

    assert (job.done, job.total, job.status) == (2, 2, "done")
    assert "1 match(es) skipped" in job.message


def test_points_in_tenths_add_up_exactly() -> None:
    """Points are Decimals and stay exact: with 0.1 for a win and 0.3 for a draw, three
    wins and one draw (with two losses) both make exactly 0.3, so the teams are level.
    As floats, 3 x 0.1 came out above 0.3 and ranked the winner ahead."""
    tournament = tournament_with_teams(4, points_win="0.1", points_draw="0.3",
                                       points_loss=0, tiebreaks=[])
    winner, drawer, p, q = (e.team for e in tournament.entries.order_by("seed"))
    games = [(1, winner, p, "a"), (1, drawer, q, "d"), (2, winner, q, "a"),
             (2, drawer, p, "b"), (3, winner, drawer, "a"), (3, p, q, "d")]
    for number, team_a, team_b, outcome in games:
        round, _ = Round.objects.get_or_create(tournament=tournament, number=number,
                                               defaults={"status": Round.Status.COMPLETE})
        match = Match.objects.create(round=round, team_a=team_a, team_b=team_b,
                                     status=Match.Status.DONE)
        totals = {"a": (100, 200), "b": (200, 100), "d": (150, 150)}[outcome]
        Result.objects.create(match=match, source=Result.Source.SHEET, hand_scores=[],
                              out_seats=[], total_a=totals[0], total_b=totals[1],
                              winner=outcome)

    services.standings_rebuild(tournament=tournament)

    table = {row.team_id: row for row in Standing.objects.filter(tournament=tournament,
                                                                 round_number=0)}
    assert table[winner.pk].points == table[drawer.pk].points == Decimal("0.3")
    assert (table[winner.pk].wins, table[drawer.pk].draws) == (3, 1)
    assert table[winner.pk].rank == table[drawer.pk].rank
