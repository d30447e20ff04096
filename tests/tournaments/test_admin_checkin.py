"""Check-in: the organiser's roster, a player's own check-in, and absences that must name a
round the tournament has and a player of it."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.forms import modelform_factory
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments import services
from tournaments.admin.forms import RoundPlayerForm
from tournaments.models import Absence, CheckIn, Player, Round, Seat, Tournament

from .factories import PlayerFactory, UserFactory, tournament_with_teams

pytestmark = pytest.mark.django_db


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def players_of(tournament: Tournament) -> list[Player]:
    return [p for e in tournament.entries.select_related("team__player_a", "team__player_b")
            for p in (e.team.player_a, e.team.player_b)]


def substitutes(tournament: Tournament, number: int = 1) -> set[int]:
    """The players a bot sits in for in round ``number``: their teams' seats with a bot."""
    seats = Seat.objects.filter(round__tournament=tournament, round__number=number,
                                substitute=True).select_related("match__team_a",
                                                                "match__team_b")
    found = set()
    for seat in seats:
        team = seat.match.team_a if seat.position % 2 == 0 else seat.match.team_b
        found.add(team.player_a_id if seat.position < 2 else team.player_b_id)
    return found


@pytest.mark.parametrize(("number", "message"), [
    (0, "Round 0 does not exist"), (999, "Round 999 does not exist")])
def test_the_admin_refuses_an_absence_for_a_round_the_tournament_does_not_have(
        number: int, message: str) -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(4, organisers=[organiser], rounds_planned=3)
    player = players_of(tournament)[0]

    response = logged_in(organiser).post(reverse("admin:tournaments_absence_add"), {
        "tournament": tournament.pk, "round_number": number, "player": player.pk})

    assert response.status_code == 200
    assert message in response.content.decode()
    assert "has rounds 1 to 3" in response.content.decode()
    assert not Absence.objects.exists()


def test_the_admin_refuses_an_absence_for_a_player_not_in_the_tournament() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(4, organisers=[organiser])
    stranger = PlayerFactory(name="Stranger")

    response = logged_in(organiser).post(reverse("admin:tournaments_absence_add"), {
        "tournament": tournament.pk, "round_number": 1, "player": stranger.pk})

    assert "does not play in" in response.content.decode()
    assert not Absence.objects.exists()


def _form(model: Any, tournament: Any, number: int, player: Any) -> Any:
    """The admin's form of an absence or a check-in, filled in."""
    form = modelform_factory(model, form=RoundPlayerForm,
                             fields=["tournament", "round_number", "player"])
    return form(data={"tournament": tournament.pk, "round_number": number,
                      "player": player.pk})


def test_the_forms_refuse_them_too_and_accept_a_real_absence() -> None:
    tournament = tournament_with_teams(4, rounds_planned=3)
    player = players_of(tournament)[0]
    refused = _form(Absence, tournament, 4, player)
    assert not refused.is_valid() and "round_number" in refused.errors
    refused = _form(CheckIn, tournament, 1, PlayerFactory())
    assert not refused.is_valid() and "player" in refused.errors
    accepted = _form(Absence, tournament, 3, player)
    assert accepted.is_valid(), accepted.errors
    accepted.save()
    assert Absence.objects.filter(tournament=tournament, round_number=3, player=player).exists()


def test_an_absence_for_a_completed_round_is_refused() -> None:
    tournament = tournament_with_teams(2, rounds_planned=3)
    Round.objects.create(tournament=tournament, number=1, status=Round.Status.COMPLETE)
    refused = _form(Absence, tournament, 1, players_of(tournament)[0])
    assert not refused.is_valid()
    assert "already complete" in str(refused.errors["round_number"])
    assert not Absence.objects.exists()


def test_the_roster_checks_players_in_and_the_others_get_bots_when_paired() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(4, organisers=[organiser])
    players = players_of(tournament)
    client = logged_in(organiser)
    url = reverse("admin:tournaments_checkin_roster", args=[tournament.pk])

    page = client.get(url)
    assert page.status_code == 200
    assert f"{players[0]}" in page.content.decode()  # named with the handle
    present = [p.pk for p in players[1:]]
    saved = client.post(url + "?round=1", {"present": present, "closes": ""}, follow=True)

    assert "7 present, 1 absent" in saved.content.decode()
    assert set(CheckIn.objects.values_list("player_id", flat=True)) == set(present)
    assert list(Absence.objects.values_list("player_id", flat=True)) == [players[0].pk]
    services.round_pair_next(tournament=tournament, user=organiser)
    assert substitutes(tournament) == {players[0].pk}


def test_a_roster_saved_for_a_draft_round_seats_bots_at_once() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(4, organisers=[organiser])
    services.round_pair_next(tournament=tournament, user=organiser)
    players = players_of(tournament)
    url = reverse("admin:tournaments_checkin_roster", args=[tournament.pk])

    saved = logged_in(organiser).post(url, {"present": [p.pk for p in players[2:]]},
                                      follow=True)

    assert "2 seat(s) now have a bot" in saved.content.decode()
    assert substitutes(tournament) == {players[0].pk, players[1].pk}


def test_the_roster_opens_at_the_round_being_played_then_at_the_next() -> None:
    """While round 1 is played, the roster is round 1's (an absence there seats a bot at
    once), not a page saying there is no round to check in for; once it is complete, the
    next round's."""
    organiser = UserFactory()
    tournament = tournament_with_teams(4, organisers=[organiser])
    players = players_of(tournament)
    round = services.round_pair_next(tournament=tournament, user=organiser)
    services.round_publish(round=round, user=organiser)
    client = logged_in(organiser)
    url = reverse("admin:tournaments_checkin_roster", args=[tournament.pk])

    page = client.get(url).content.decode()
    assert "Who is present for round 1" in page and "no round to check in for" not in page
    saved = client.post(url, {"present": [p.pk for p in players[1:]]}, follow=True)
    assert "Round 1: 7 present, 1 absent; 1 seat(s) now have a bot." in saved.content.decode()
    assert substitutes(tournament) == {players[0].pk}

    for match in round.matches.all():
        services.match_submit_score_sheet(match=match, hand_scores=[[0, 50]] * 5,
                                          out_seats=[0] * 5, user=organiser)
    services.round_complete(round=round, user=organiser)
    assert "Who is present for round 2" in client.get(url).content.decode()


def test_another_organisers_roster_is_not_found() -> None:
    tournament = tournament_with_teams(2, organisers=[UserFactory()])
    url = reverse("admin:tournaments_checkin_roster", args=[tournament.pk])
    assert logged_in(UserFactory()).get(url).status_code == 404


def open_self_check_in(tournament: Tournament) -> None:
    tournament.check_in_required = True
    tournament.check_in_closes = timezone.now() + datetime.timedelta(hours=1)
    tournament.save()


def test_a_player_checks_in_on_their_page_and_who_did_not_gets_a_bot() -> None:
    tournament = tournament_with_teams(4)
    open_self_check_in(tournament)
    players = players_of(tournament)
    for player in players[1:]:
        player.user = UserFactory(is_staff=False)
        player.save()
    client = logged_in(players[1].user)
    page = client.get(reverse("tournaments:player_detail", args=[players[1].pk]))
    assert f"Check in for round 1 of {tournament.name}" in page.content.decode()

    for player in players[1:]:
        response = logged_in(player.user).post(
            reverse("tournaments:player_check_in", args=[player.pk, tournament.pk]))
        assert response.status_code == 302
    page = client.get(reverse("tournaments:player_detail", args=[players[1].pk]))

    assert "You are checked in for round 1" in page.content.decode()
    assert CheckIn.objects.filter(by_player=True).count() == 7
    services.round_pair_next(tournament=tournament)
    assert substitutes(tournament) == {players[0].pk}


def test_self_check_in_is_refused_when_closed_for_others_and_for_visitors() -> None:
    tournament = tournament_with_teams(2)
    me, other = players_of(tournament)[:2]
    me.user = UserFactory(is_staff=False)
    me.save()
    url = reverse("tournaments:player_check_in", args=[me.pk, tournament.pk])
    client = logged_in(me.user)

    closed = client.post(url)
    assert closed.status_code == 400
    assert f"Check-in for {tournament.name} is closed." in closed.content.decode()
    open_self_check_in(tournament)
    assert client.get(url).status_code == 405
    other_url = reverse("tournaments:player_check_in", args=[other.pk, tournament.pk])
    assert client.post(other_url).status_code == 403
    visitor = Client().post(url)
    assert visitor.status_code == 302 and "/login/" in visitor["Location"]
    forged = Client(enforce_csrf_checks=True)
    forged.force_login(me.user)
    assert forged.post(url).status_code == 403  # no CSRF token
    assert not CheckIn.objects.exists()


def test_turning_check_in_on_while_a_round_is_played_replaces_nobody() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(4, organisers=[organiser])
    round = services.round_pair_next(tournament=tournament, user=organiser)
    open_self_check_in(tournament)  # nobody has checked in for round 1

    assert services.round_fill_seats(round=round, user=organiser) == 0
    assert substitutes(tournament) == set()
