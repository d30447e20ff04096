"""Bulk registration in the admin: players, teams and entries from CSV, with a preview,
row errors in words, nothing stored while a row is refused, and the organiser's scope."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tournaments.models import Absence, Entry, Player, Team

from .factories import PlayerFactory, TeamFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def upload(client: Client, model: str, text: str) -> Any:
    """The import page's preview of ``text`` as a CSV file."""
    return client.post(reverse(f"admin:tournaments_{model}_import"), {
        "format": "0", "import_file": SimpleUploadedFile("rows.csv", text.encode())})


def confirm(client: Client, model: str, preview: Any) -> Any:
    """Press "Confirm import" on a preview."""
    html = preview.content.decode()
    fields = dict(re.findall(r'name="(import_file_name|original_file_name|format|resource)"'
                             r'[^>]*value="([^"]*)"', html))
    assert "import_file_name" in fields, "the preview offers no confirmation"
    return client.post(reverse(f"admin:tournaments_{model}_process_import"), fields,
                       follow=True)


def imported(client: Client, model: str, text: str) -> Any:
    return confirm(client, model, upload(client, model, text))


def test_players_teams_and_entries_import_in_turn_and_export_again() -> None:
    organiser = UserFactory()
    cup = TournamentFactory(organisers=[organiser])
    client = logged_in(organiser)

    imported(client, "player", "handle,name\naino,Aino\naino-k,Aino\n,Bo\ncai,Cai\n")
    assert sorted(Player.objects.values_list("handle", "name")) == [
        ("aino", "Aino"), ("aino-k", "Aino"), ("bo", "Bo"), ("cai", "Cai")]
    imported(client, "team", "name,player_a,player_b\nNorth,aino,bo\nSouth,aino-k,cai\n")
    north = Team.objects.get(name="North")
    assert (north.player_a.handle, north.player_b.handle) == ("aino", "bo")
    imported(client, "entry", f"tournament,team,seed,withdrawn\n{cup.pk},North,1,no\n"
                              f"{cup.pk},South,2,\n")
    assert list(cup.entries.values_list("team__name", "seed")) == [("North", 1), ("South", 2)]

    columns = ["tournament", "team", "seed", "withdrawn"]
    exported = client.post(reverse("admin:tournaments_entry_export"), {
        "format": "0", "resource": "0", **{f"entryresource_{c}": "on" for c in columns}})
    assert exported.status_code == 200
    lines = exported.content.decode().splitlines()
    assert lines[0] == "tournament,team,seed,withdrawn"
    assert f"{cup.pk},North,1,no" in lines


def test_a_refused_row_is_shown_in_words_and_nothing_is_stored() -> None:
    client = logged_in(UserFactory())
    PlayerFactory(name="Aino", handle="aino")
    before = Team.objects.count()

    preview = upload(client, "team", "name,player_a,player_b\nGood,aino,aino\nBad,aino,nobody\n")

    html = preview.content.decode()
    assert "A team needs two different players." in html
    assert "No player has the handle “nobody”: import the players first." in html
    assert "import_file_name" not in html  # no "Confirm import" while a row is refused
    assert Team.objects.count() == before


def test_a_file_without_the_columns_says_which_are_missing() -> None:
    preview = upload(logged_in(UserFactory()), "player", "nickname\naino\n")
    html = preview.content.decode()
    assert "name is missing" in html
    assert "Traceback" not in html
    assert not Player.objects.exists()


def test_an_organiser_imports_entries_only_into_their_own_tournaments() -> None:
    organiser = UserFactory()
    theirs = TournamentFactory(organisers=[UserFactory()])
    team = TeamFactory(name="North")

    preview = upload(logged_in(organiser), "entry",
                     f"tournament,team,seed,withdrawn\n{theirs.pk},North,1,no\n")

    assert f"Line 2: You organise no tournament {theirs.pk}." in preview.content.decode()
    assert not Entry.objects.filter(team=team).exists()

    Entry.objects.create(tournament=theirs, team=team, seed=1)
    columns = ["tournament", "team", "seed", "withdrawn"]
    exported = logged_in(organiser).post(reverse("admin:tournaments_entry_export"), {
        "format": "0", "resource": "0", **{f"entryresource_{c}": "on" for c in columns}})
    assert exported.content.decode().splitlines() == [",".join(columns)]  # theirs stays out


def test_an_import_changes_no_player_of_another_organisers_tournament() -> None:
    organiser = UserFactory()
    theirs = TournamentFactory(organisers=[UserFactory()])
    player = PlayerFactory(name="Aino", handle="aino")
    Absence.objects.create(tournament=theirs, round_number=1, player=player)

    preview = upload(logged_in(organiser), "player", "handle,name\naino,Renamed\n")

    assert "only a superuser may change it" in preview.content.decode()
    player.refresh_from_db()
    assert player.name == "Aino"


def test_clubs_import_and_export_with_players_and_teams_and_may_be_left_out() -> None:
    from tournaments.models import Club
    client = logged_in(UserFactory())
    Club.objects.create(name="Kerho")
    imported(client, "player", "handle,name,club\naino,Aino,Kerho\nbo,Bo,\n")
    assert dict(Player.objects.values_list("handle", "club__name")) == {"aino": "Kerho",
                                                                         "bo": None}
    imported(client, "team", "name,player_a,player_b,club\nNorth,aino,bo,Kerho\n")
    assert Team.objects.get(name="North").club.name == "Kerho"
    imported(client, "player", "handle,name\naino,Aino Aalto\n")  # no club column
    assert Player.objects.get(handle="aino").club.name == "Kerho"

    refused = upload(client, "player", "handle,name,club\ncai,Cai,Kerh\n").content.decode()
    assert "No club is called “Kerh”: add it under Clubs first." in refused
    assert not Player.objects.filter(handle="cai").exists()

    exported = client.post(reverse("admin:tournaments_player_export"), {
        "format": "0", "resource": "0",
        **{f"playerresource_{c}": "on" for c in ("handle", "name", "club")}})
    lines = exported.content.decode().splitlines()
    assert lines[0] == "handle,name,club" and "aino,Aino Aalto,Kerho" in lines
    assert "bo,Bo," in lines
