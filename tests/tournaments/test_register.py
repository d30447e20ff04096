"""The player, team and club register's edit rights (tournaments/admin/registry.py): an
organiser changes or deletes a player, team or club only when every tournament it takes
part in is theirs; superusers change everything."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import Absence, Club, Entry, Player, Team, Tournament

from .factories import PlayerFactory, TeamFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def rename_team(client: Client, team: Team, name: str) -> Any:
    return client.post(reverse("admin:tournaments_team_change", args=[team.pk]),
                       {"name": name, "player_a": team.player_a_id,
                        "player_b": team.player_b_id})


def rename_player(client: Client, player: Player, name: str) -> Any:
    return client.post(reverse("admin:tournaments_player_change", args=[player.pk]),
                       {"name": name})


@pytest.fixture
def organisers() -> tuple[Any, Tournament, Tournament]:
    """Organiser A with "A Cup"; "B Cup" belongs to another organiser."""
    a = UserFactory()
    return a, TournamentFactory(name="A Cup", organisers=[a]), \
        TournamentFactory(name="B Cup", organisers=[UserFactory()])


def test_an_organiser_cannot_rename_a_team_in_another_organisers_tournament(
        organisers: Any) -> None:
    a, _mine, theirs = organisers
    team = TeamFactory(name="Their Team")
    Entry.objects.create(tournament=theirs, team=team)
    client = logged_in(a)

    response = rename_team(client, team, "Renamed")

    assert response.status_code == 403
    team.refresh_from_db()
    assert team.name == "Their Team"
    page = client.get(reverse("admin:tournaments_team_change", args=[team.pk]))
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()  # read-only


def test_an_organiser_renames_a_team_that_plays_only_in_their_own_tournaments(
        organisers: Any) -> None:
    a, mine, _theirs = organisers
    team = TeamFactory(name="My Team")
    Entry.objects.create(tournament=mine, team=team)

    response = rename_team(logged_in(a), team, "Renamed")

    assert response.status_code == 302
    team.refresh_from_db()
    assert team.name == "Renamed"


def test_a_team_shared_with_another_organiser_is_renamed_only_by_a_superuser(
        organisers: Any) -> None:
    a, mine, theirs = organisers
    team = TeamFactory(name="Shared Team")
    for tournament in (mine, theirs):
        Entry.objects.create(tournament=tournament, team=team)

    assert rename_team(logged_in(a), team, "Mine Now").status_code == 403
    superuser = UserFactory(is_superuser=True)
    assert rename_team(logged_in(superuser), team, "Renamed").status_code == 302
    team.refresh_from_db()
    assert team.name == "Renamed"


def test_a_team_in_no_tournament_is_anyones_to_rename_and_delete(organisers: Any) -> None:
    a, _mine, _theirs = organisers
    team = TeamFactory(name="Fresh Team")
    client = logged_in(a)

    assert rename_team(client, team, "Renamed").status_code == 302
    response = client.post(reverse("admin:tournaments_team_delete", args=[team.pk]),
                           {"post": "yes"})

    assert response.status_code == 302
    assert not Team.objects.filter(pk=team.pk).exists()


def test_an_organiser_cannot_rename_a_player_whose_team_plays_for_another(
        organisers: Any) -> None:
    a, _mine, theirs = organisers
    team = TeamFactory()
    Entry.objects.create(tournament=theirs, team=team)
    player = Player.objects.get(pk=team.player_b_id)
    name = player.name

    assert rename_player(logged_in(a), player, "Renamed").status_code == 403
    player.refresh_from_db()
    assert player.name == name


def test_deleting_a_selection_with_another_organisers_player_is_refused(
        organisers: Any) -> None:
    # Nothing PROTECTs this player: deleting them would cascade into B Cup's absences.
    a, mine, theirs = organisers
    mine_only, absent = PlayerFactory(name="Mine Only"), PlayerFactory(name="Absent From B")
    Absence.objects.create(tournament=mine, round_number=1, player=mine_only)
    Absence.objects.create(tournament=theirs, round_number=2, player=absent)
    client = logged_in(a)
    changelist = reverse("admin:tournaments_player_changelist")
    selection = {"action": "delete_selected", "_selected_action": [mine_only.pk, absent.pk]}

    asked = client.post(changelist, selection)
    response = client.post(changelist, {**selection, "post": "yes"})

    assert ("Absent From B (@absent-from-b), which takes part in a tournament you do not "
            "organise") in asked.content.decode()
    assert response.status_code == 403
    assert Player.objects.filter(pk__in=[mine_only.pk, absent.pk]).count() == 2
    assert Absence.objects.filter(tournament=theirs).count() == 1
    assert rename_player(client, mine_only, "Renamed").status_code == 302
    assert client.post(reverse("admin:tournaments_player_delete", args=[absent.pk]),
                       {"post": "yes"}).status_code == 403


def test_an_organiser_renames_a_club_only_while_every_tournament_it_is_in_is_theirs(
        organisers: Any) -> None:
    a, mine, theirs = organisers
    club = Club.objects.create(name="Kallio")
    Entry.objects.create(tournament=mine, team=TeamFactory(player_a=PlayerFactory(club=club)))
    client = logged_in(a)

    def rename(name: str) -> int:
        return client.post(reverse("admin:tournaments_club_change", args=[club.pk]),
                           {"name": name}).status_code

    assert rename("Kallio PS") == 302
    theirs.keep_apart_clubs.add(club)  # another organiser's tournament now relies on it
    assert rename("Kallio SC") == 403
    club.refresh_from_db()
    assert club.name == "Kallio PS"
    theirs.keep_apart_clubs.remove(club)
    Entry.objects.create(tournament=theirs, team=TeamFactory(club=club))
    assert rename("Kallio SC") == 403
