"""Players report their own match: a player's score sheet waits for the other team,
who confirm or dispute it; an organiser settles a dispute. Who may do what, and that a
refusal stores nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from tournaments import services
from tournaments.models import Match, OutboxTask, Result, Standing
from tournaments.selectors.reporting import results_to_confirm

from .factories import UserFactory
from .venue import OUT, SHEET, Venue, database_state, venue_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def venue() -> Venue:
    return venue_match()  # confirm_score_sheets off: a player's sheet waits all the same


def entered(venue: Venue, seat: int = 0) -> Result:
    return services.match_submit_score_sheet(match=venue.match, hand_scores=SHEET,
                                             out_seats=OUT, user=venue.players[seat])


def played(venue: Venue) -> dict[int, int]:
    return dict(Standing.objects.filter(tournament=venue.tournament, round_number=0)
                .values_list("team_id", "played"))


def test_a_players_sheet_waits_for_the_other_team_and_counts_nowhere(
        venue: Venue, django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks():
        result = entered(venue)
    assert not result.confirmed  # no standings update sent: the other team is only told
    assert list(OutboxTask.objects.values_list("task", flat=True)) == []
    assert Match.objects.get(pk=venue.match.pk).status == Match.Status.AWAITING
    assert results_to_confirm(venue.players[1]) == [result]
    assert results_to_confirm(venue.players[3]) == [result]
    assert results_to_confirm(venue.players[2]) == []  # the submitter's partner
    assert results_to_confirm(venue.organiser) == []


def test_the_other_teams_confirmation_makes_it_count_in_the_standings(
        venue: Venue, django_capture_on_commit_callbacks: Any, eager_tasks: None) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        result = entered(venue)
    assert set(played(venue).values()) <= {0}
    with django_capture_on_commit_callbacks(execute=True):
        services.result_confirm(result=result, user=venue.players[3])
    result.refresh_from_db()
    assert result.confirmed and result.confirmed_by == venue.players[3]
    assert Match.objects.get(pk=venue.match.pk).status == Match.Status.DONE
    assert played(venue) == {venue.match.team_a_id: 1, venue.match.team_b_id: 1}
    assert results_to_confirm(venue.players[3]) == []


@pytest.mark.parametrize("who", ["submitter", "partner", "stranger"])
def test_only_the_other_team_confirms_or_disputes(venue: Venue, who: str) -> None:
    result = entered(venue)
    user = {"submitter": venue.players[0], "partner": venue.players[2],
            "stranger": UserFactory(is_staff=False)}[who]
    before = database_state()
    with pytest.raises(PermissionDenied):
        services.result_confirm(result=result, user=user)
    with pytest.raises(PermissionDenied):
        services.result_dispute(result=result, user=user, reason="wrong")
    assert database_state() == before


def test_an_organiser_does_not_dispute_but_confirms(venue: Venue) -> None:
    result = entered(venue)
    with pytest.raises(PermissionDenied, match="other team"):
        services.result_dispute(result=result, user=venue.organiser)
    services.result_confirm(result=result, user=venue.organiser)
    assert Result.objects.get(pk=result.pk).confirmed


def test_a_dispute_goes_to_the_organiser(venue: Venue,
                                         django_capture_on_commit_callbacks: Any) -> None:
    result = entered(venue)
    with django_capture_on_commit_callbacks() as callbacks:
        services.result_dispute(result=result, user=venue.players[1],
                                reason="  hand 3 was 45, not 50  ")
    assert callbacks == []
    result.refresh_from_db()
    assert result.disputed and not result.confirmed
    assert result.disputed_by == venue.players[1]
    assert result.dispute_reason == "hand 3 was 45, not 50"
    assert results_to_confirm(venue.players[3]) == []  # it waits for an organiser now
    before = database_state()
    with pytest.raises(services.TournamentUserError, match="organiser"):
        services.result_confirm(result=result, user=venue.players[3])
    assert database_state() == before
    services.result_confirm(result=result, user=venue.organiser)
    result.refresh_from_db()
    assert result.confirmed and not result.disputed


def test_an_overlong_reason_is_refused_whole(venue: Venue) -> None:
    result = entered(venue)
    before = database_state()
    with pytest.raises(services.TournamentUserError, match="500 characters at most"):
        services.result_dispute(result=result, user=venue.players[1], reason="x" * 501)
    assert database_state() == before
    services.result_dispute(result=result, user=venue.players[1], reason="x" * 500)
    assert Result.objects.get(pk=result.pk).dispute_reason == "x" * 500


def test_a_confirmed_result_cannot_be_disputed(venue: Venue) -> None:
    result = entered(venue)
    services.result_confirm(result=result, user=venue.players[1])
    before = database_state()
    with pytest.raises(services.TournamentUserError, match="already confirmed"):
        services.result_dispute(result=result, user=venue.players[3], reason="late")
    assert database_state() == before


def test_the_organiser_corrects_a_disputed_sheet_and_it_counts(
        venue: Venue, django_capture_on_commit_callbacks: Any, eager_tasks: None) -> None:
    result = entered(venue)
    services.result_dispute(result=result, user=venue.players[1], reason="hand 3 was 45")
    corrected = [[0, 40], [30, 0], [0, 45], [40, 0], [0, 25]]
    with django_capture_on_commit_callbacks(execute=True):
        services.result_correct(result=result, hand_scores=corrected, out_seats=OUT,
                                user=venue.organiser)
    result.refresh_from_db()
    assert result.hand_scores == corrected and (result.total_a, result.total_b) == (70, 110)
    assert result.confirmed and result.confirmed_by == venue.organiser and result.winner == "a"
    assert (result.out_a, result.out_b) == (3, 2)
    assert played(venue) == {venue.match.team_a_id: 1, venue.match.team_b_id: 1}


def test_a_correction_is_checked_and_only_an_organiser_makes_one(venue: Venue) -> None:
    result = entered(venue)
    before = database_state()
    with pytest.raises(services.ResultRejected, match="hand 2: "):
        services.result_correct(result=result, hand_scores=[[0, 40], [37, 0], *SHEET[2:]],
                                out_seats=OUT, user=venue.organiser)
    for user in (venue.players[1], UserFactory()):
        with pytest.raises(PermissionDenied):
            services.result_correct(result=result, hand_scores=SHEET, out_seats=OUT,
                                    user=user)
    assert database_state() == before


def test_an_organiser_who_plays_in_the_match_does_not_settle_it(venue: Venue) -> None:
    result = entered(venue)
    venue.tournament.organisers.add(venue.players[1])
    with pytest.raises(PermissionDenied, match="plays"):
        services.result_correct(result=result, hand_scores=SHEET, out_seats=OUT,
                                user=venue.players[1])
