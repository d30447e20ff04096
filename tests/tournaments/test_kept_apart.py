"""Teams the organiser asks to keep apart (pairings to avoid, clubs kept apart): what Swiss
reads of them from the database, how it pairs them, and the draft's note when it cannot."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments import selectors, services
from tournaments.models import (
    Club,
    Entry,
    ForbiddenPairing,
    Match,
    Player,
    Round,
    Team,
    Tournament,
)

from .factories import tournament_with_teams

pytestmark = pytest.mark.django_db


def teams_of(tournament: Tournament) -> list[Team]:
    """The entered teams, best seed first."""
    return [entry.team for entry in tournament.entries.order_by("seed").select_related("team")]


def meetings(round: Round) -> set[frozenset[int]]:
    return {frozenset((home, away)) for home, away in Match.objects.filter(
        round=round, team_b__isnull=False).values_list("team_a_id", "team_b_id")}


def test_a_swiss_round_keeps_a_pairing_to_avoid_and_a_clubs_teams_apart() -> None:
    """Round one would pair seed 1 with 5, 2 with 6, 3 with 7 and 4 with 8: the organiser
    forbids 1-5, and 2 and 6 share a club the tournament keeps apart (6 by its own club,
    2 by its players')."""
    tournament = tournament_with_teams(8, format=Tournament.Format.SWISS)
    seeds = teams_of(tournament)
    ForbiddenPairing.objects.create(tournament=tournament, team_a=seeds[0], team_b=seeds[4])
    club = Club.objects.create(name="Kallio")
    Team.objects.filter(pk=seeds[5].pk).update(club=club)
    Player.objects.filter(
        pk__in=[seeds[1].player_a_id, seeds[1].player_b_id]).update(club=club)
    tournament.keep_apart_clubs.add(club)

    round = services.round_pair_next(tournament=tournament)

    met = meetings(round)
    assert len(met) == 4
    assert frozenset((seeds[0].pk, seeds[4].pk)) not in met
    assert frozenset((seeds[1].pk, seeds[5].pk)) not in met
    assert round.draw_note == ""  # every pair was kept apart: nothing to say


def test_a_team_with_its_own_club_is_not_of_its_players_clubs() -> None:
    tournament = tournament_with_teams(4)
    first, second, third, fourth = teams_of(tournament)
    kept, other = Club.objects.create(name="Kept"), Club.objects.create(name="Other")
    tournament.keep_apart_clubs.add(kept)
    Team.objects.filter(pk__in=[first.pk, second.pk]).update(club=kept)
    Team.objects.filter(pk=third.pk).update(club=other)  # its players are Kept's
    Player.objects.filter(
        pk__in=[third.player_a_id, third.player_b_id, fourth.player_a_id]).update(club=kept)

    pairs = selectors.kept_apart_pairs(tournament)

    assert pairs == {frozenset((first.pk, second.pk)), frozenset((first.pk, fourth.pk)),
                     frozenset((second.pk, fourth.pk))}


def test_what_swiss_reads_takes_a_bounded_number_of_queries() -> None:
    def queries(teams: int) -> int:
        tournament = tournament_with_teams(teams)
        club = Club.objects.create(name=f"Club of {teams}")
        tournament.keep_apart_clubs.add(club)
        entered = teams_of(tournament)
        Team.objects.filter(pk__in=[t.pk for t in entered[::2]]).update(club=club)
        ForbiddenPairing.objects.create(tournament=tournament, team_a=entered[0],
                                        team_b=entered[1])
        with CaptureQueriesContext(connection) as captured:
            selectors.StoredTournament(tournament).swiss_teams()
        return len(captured)

    assert queries(4) == queries(12) <= 6


def test_a_pair_no_draw_keeps_apart_meets_and_the_note_says_why() -> None:
    tournament = tournament_with_teams(2, format=Tournament.Format.SWISS)
    first, second = teams_of(tournament)
    ForbiddenPairing.objects.create(tournament=tournament, team_a=second, team_b=first)

    round = services.round_pair_next(tournament=tournament)

    assert meetings(round) == {frozenset((first.pk, second.pk))}
    assert round.draw_note == (
        f"{first.name} and {second.name} meet although the organiser asked to keep them "
        "apart: every draw of the 2 active teams brings together at least 1 pair to keep "
        "apart")


def test_a_round_robin_meets_every_team_and_notes_nothing() -> None:
    """Only a format that tries to keep pairs apart (Swiss) says it could not."""
    tournament = tournament_with_teams(2, format=Tournament.Format.ROUND_ROBIN)
    first, second = teams_of(tournament)
    ForbiddenPairing.objects.create(tournament=tournament, team_a=first, team_b=second)

    round = services.round_pair_next(tournament=tournament)

    assert meetings(round) == {frozenset((first.pk, second.pk))} and round.draw_note == ""


def test_a_withdrawn_team_is_not_counted_among_the_active() -> None:
    tournament = tournament_with_teams(3, format=Tournament.Format.SWISS)
    first, second, third = teams_of(tournament)
    Entry.objects.filter(tournament=tournament, team=third).update(withdrawn=True)
    ForbiddenPairing.objects.create(tournament=tournament, team_a=first, team_b=second)

    round = services.round_pair_next(tournament=tournament)

    assert "every draw of the 2 active teams" in round.draw_note
