"""Reading tournaments, rounds, matches, teams and players through the API."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.tournaments.factories import UserFactory, tournament_with_teams
from tournaments import services
from tournaments.models import Player, Round, Team
from tournaments.ratings import Rating

from .conftest import OUT, SHEET, League

pytestmark = pytest.mark.django_db


def ids(response: Any) -> list[int]:
    assert response.status_code == 200, response.content
    return [item["id"] for item in response.json()["results"]]


def test_it_lists_tournaments_and_filters_them_by_status_and_game_format(
        league: League) -> None:
    client = league.client()
    assert set(ids(client.get("/api/v1/tournaments/"))) == {league.tournament.pk, league.cup.pk}
    assert ids(client.get("/api/v1/tournaments/?game_format=swiss")) == [league.tournament.pk]
    assert ids(client.get("/api/v1/tournaments/?game_format=round_robin&status=running")) == [
        league.cup.pk]
    assert ids(client.get("/api/v1/tournaments/?status=finished")) == []
    response = client.get("/api/v1/tournaments/?game_format=knockouts")
    assert response.status_code == 400 and "game_format" in response.json()


def test_format_is_the_response_format_only(league: League) -> None:
    client = league.client()
    response = client.get("/api/v1/tournaments/?format=json&game_format=swiss")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert ids(response) == [league.tournament.pk]
    standings = client.get(f"/api/v1/tournaments/{league.tournament.pk}/standings/?format=csv")
    assert standings.status_code == 200 and standings["Content-Type"].startswith("text/csv")
    # a tournament format is no response format: a 406 naming those there are, no filter
    refused = client.get("/api/v1/tournaments/?format=swiss")
    assert refused.status_code == 406 and refused.json()["formats"] == ["json", "api"]


def test_a_tournament_shows_its_settings_teams_and_public_rounds(league: League) -> None:
    data = league.client().get(f"/api/v1/tournaments/{league.tournament.pk}/").json()
    assert data["name"] == "Spring League" and data["format"] == "swiss"
    assert data["settings"]["tiebreaks"] == ["score_diff", "buchholz"]
    assert data["settings"]["points_win"] == 2
    assert data["rounds_total"] == 3
    assert [t["seed"] for t in data["teams"]] == [1, 2, 3, 4]
    assert [(r["number"], r["status"]) for r in data["rounds"]] == [
        (1, "complete"), (2, "published")]


def test_drafts_are_invisible_to_the_public_and_other_organisers(league: League) -> None:
    draft = league.draft_match.round
    for user in (None, league.organiser, UserFactory(is_staff=False)):
        client = league.client(user)
        assert draft.pk not in ids(client.get("/api/v1/rounds/"))
        assert client.get(f"/api/v1/rounds/{draft.pk}/").status_code == 404
        assert league.draft_match.pk not in ids(client.get("/api/v1/matches/"))
        assert client.get(f"/api/v1/matches/{league.draft_match.pk}/").status_code == 404
        cup = client.get(f"/api/v1/tournaments/{league.cup.pk}/").json()
        assert cup["rounds"] == []


@pytest.mark.parametrize("who", ["cup_organiser", "superuser"])
def test_an_organiser_sees_their_drafts(league: League, who: str) -> None:
    user = league.cup_organiser if who == "cup_organiser" else UserFactory(is_superuser=True)
    client = league.client(user)
    draft = league.draft_match.round
    assert draft.pk in ids(client.get("/api/v1/rounds/?status=draft"))
    assert client.get(f"/api/v1/rounds/{draft.pk}/").json()["status"] == "draft"
    assert ids(client.get(f"/api/v1/matches/?round={draft.pk}")) == [league.draft_match.pk]
    cup = client.get(f"/api/v1/tournaments/{league.cup.pk}/").json()
    assert [r["status"] for r in cup["rounds"]] == ["draft"]


def test_it_lists_rounds_by_tournament_and_status(league: League) -> None:
    client = league.client()
    url = f"/api/v1/rounds/?tournament={league.tournament.pk}"
    assert ids(client.get(url)) == [league.round1.pk, league.round2.pk]
    assert ids(client.get(url + "&status=complete")) == [league.round1.pk]
    assert ids(client.get(url + "&number=2")) == [league.round2.pk]
    detail = client.get(f"/api/v1/rounds/{league.round2.pk}/").json()
    assert {m["id"] for m in detail["matches"]} == {league.match.pk, league.substituted.pk}


def test_it_filters_matches_by_tournament_round_team_and_status(league: League) -> None:
    client = league.client()
    url = f"/api/v1/matches/?tournament={league.tournament.pk}"
    assert len(ids(client.get(url))) == 4
    assert set(ids(client.get(url + f"&round={league.round2.pk}"))) == {
        league.match.pk, league.substituted.pk}
    assert len(ids(client.get(url + "&round_number=1&status=done"))) == 2
    assert ids(client.get(url + "&status=awaiting")) == []
    team = league.match.team_b_id
    for match in client.get(f"/api/v1/matches/?team={team}").json()["results"]:
        assert team in (match["team_a"]["id"], match["team_b"]["id"])
    assert len(ids(client.get(f"/api/v1/matches/?team={team}"))) == 2


def test_a_match_shows_its_seats_hands_totals_and_winner(league: League) -> None:
    played = league.round1.matches.first()
    data = league.client().get(f"/api/v1/matches/{played.pk}/").json()
    assert [(s["position"], s["team"]) for s in data["seats"]] == [
        (0, "a"), (1, "b"), (2, "a"), (3, "b")]
    assert data["seats"][0]["player"]["name"] == played.team_a.player_a.name
    assert not any(s["bot"] for s in data["seats"])
    result = data["result"]
    assert [h["scores"] for h in result["hands"]] == SHEET
    assert [h["out_seat"] for h in result["hands"]] == OUT
    assert result["totals"] == [70, 115] and result["winner"] == "a"
    assert result["winner_team"] == played.team_a_id
    assert result["source"] == "sheet" and result["has_record"] is False
    assert "record" not in data


def test_a_substitute_bot_is_marked_with_the_player_it_replaces(league: League) -> None:
    data = league.client().get(f"/api/v1/matches/{league.substituted.pk}/").json()
    [seat] = [s for s in data["seats"] if s["substitute"]]
    assert seat["bot"] is True and seat["player"] is None and seat["bot_level"] == "random"
    absent = league.tournament.entries.order_by("seed").last().team.player_b
    assert seat["substitute_for"] == {"id": absent.pk, "name": absent.name}
    assert data["result"] is None


def test_a_stored_game_record_is_served_as_stored(league: League,
                                                  record: dict[str, Any]) -> None:
    services.match_submit_record(match=league.match, record=record, user=league.organiser)
    client = league.client()
    assert client.get(f"/api/v1/matches/{league.match.pk}/record/").json() == record
    detail = client.get(f"/api/v1/matches/{league.match.pk}/?include=record").json()
    assert detail["record"] == record and detail["result"]["has_record"] is True
    assert client.get(f"/api/v1/matches/{league.match.pk}/?include=moves").status_code == 400
    sheet_only = league.round1.matches.first()
    response = client.get(f"/api/v1/matches/{sheet_only.pk}/record/")
    assert response.status_code == 404 and "no stored game record" in response.json()["detail"]


def test_teams_show_their_players_and_tournaments(league: League) -> None:
    client = league.client()
    assert len(ids(client.get(f"/api/v1/teams/?tournament={league.tournament.pk}"))) == 4
    team = Team.objects.get(pk=league.match.team_a_id)
    assert ids(client.get(f"/api/v1/teams/?player={team.player_b_id}")) == [team.pk]
    data = client.get(f"/api/v1/teams/{team.pk}/").json()
    assert [p["id"] for p in data["players"]] == [team.player_a_id, team.player_b_id]
    assert data["tournaments"][0]["tournament"] == {"id": league.tournament.pk,
                                                    "name": "Spring League"}


def test_players_show_their_rating_and_its_history(league: League) -> None:
    client = league.client()
    winner = league.round1.matches.first().team_a.player_a
    listed = client.get(f"/api/v1/players/?team={league.round1.matches.first().team_a_id}")
    assert ids(listed) == sorted([winner.pk, league.round1.matches.first().team_a.player_b_id],
                                 key=lambda pk: (Player.objects.get(pk=pk).name, pk))
    data = client.get(f"/api/v1/players/{winner.pk}/").json()
    winner.refresh_from_db()
    assert data["rating"]["mu"] == pytest.approx(winner.rating_mu) and winner.rating_mu > 25
    rating = Rating(winner.rating_mu, winner.rating_sigma)
    assert data["rating"] == {"value": rating.scaled, "deviation": rating.deviation,
                              "mu": pytest.approx(rating.mu), "sigma": pytest.approx(rating.sigma)}
    assert data["rating"]["value"] > 1500  # the scale the site shows, not mu - 3 sigma
    [entry] = data["rating_history"]
    assert (entry["tournament"], entry["round_number"]) == (league.tournament.pk, 1)
    assert entry["rating"] == data["rating"]  # the player's one rated game
    assert ids(client.get(f"/api/v1/players/?name={winner.name}")) == [winner.pk]


def test_lists_are_paginated(league: League) -> None:
    client = league.client()
    first = client.get("/api/v1/players/?page_size=3").json()
    assert first["count"] == Player.objects.count() == 12
    assert len(first["results"]) == 3 and "page=2" in first["next"]
    second = client.get("/api/v1/players/?page_size=3&page=2").json()
    assert not {p["id"] for p in first["results"]} & {p["id"] for p in second["results"]}
    assert len(client.get("/api/v1/players/").json()["results"]) == 12
    assert client.get("/api/v1/players/?page=99").status_code == 404


@pytest.mark.parametrize("url, parameter", [
    ("/api/v1/players/?page_size=abc", "page_size"),
    ("/api/v1/players/?page_size=0", "page_size"),
    ("/api/v1/players/?page=-1", "page"),
    ("/api/v1/matches/?tournament=abc", "tournament"),
    ("/api/v1/matches/?round=99999999999999999999999", "round"),
    ("/api/v1/matches/?round_number=40000", "round_number"),
    ("/api/v1/matches/?status=finished", "status"),
    ("/api/v1/rounds/?tournament=1.5", "tournament"),
    ("/api/v1/teams/?player=%00", "player"),
    ("/api/v1/players/?name=%00", "name"),
    ("/api/v1/tournaments/?status=later", "status"),
])
def test_a_malformed_query_parameter_is_a_400_naming_it(league: League, url: str,
                                                        parameter: str) -> None:
    response = league.client().get(url)
    assert response.status_code == 400, response.content
    assert parameter in response.json()


@pytest.mark.parametrize("path", ["tournaments", "rounds", "matches", "teams", "players"])
def test_an_unknown_id_is_a_404(league: League, path: str) -> None:
    client = league.client()
    assert client.get(f"/api/v1/{path}/999999/").status_code == 404
    assert client.get(f"/api/v1/{path}/99999999999999999999999/").status_code == 404
    assert client.get(f"/api/v1/{path}/abc/").status_code == 404
    assert ids(client.get(f"/api/v1/{path}/"))  # and the list is there


def test_reads_are_the_same_whether_a_round_is_published_or_complete(league: League) -> None:
    for match in league.round2.matches.all():
        services.match_submit_score_sheet(match=match, hand_scores=SHEET, out_seats=OUT,
                                          user=league.organiser)
    services.round_complete(round=league.round2, user=league.organiser)
    assert Round.objects.get(pk=league.round2.pk).status == "complete"
    rounds = league.client().get(f"/api/v1/rounds/?tournament={league.tournament.pk}").json()
    assert [r["status"] for r in rounds["results"]] == ["complete", "complete"]


def test_a_bye_has_no_table_no_opponent_and_no_seats(db: Any) -> None:
    tournament = tournament_with_teams(3)
    round1 = services.round_pair_next(tournament=tournament)
    services.round_publish(round=round1)
    bye = round1.matches.get(is_bye=True)
    client = APIClient()
    listed = client.get(f"/api/v1/matches/?tournament={tournament.pk}").json()["results"]
    assert {m["id"]: m["table"] for m in listed}[bye.pk] is None
    data = client.get(f"/api/v1/matches/{bye.pk}/").json()
    assert (data["is_bye"], data["team_b"], data["seats"], data["result"]) == (
        True, None, [], None)


@pytest.mark.parametrize("path", ["tournaments", "rounds", "matches", "teams", "players"])
def test_the_browsable_api_renders_every_endpoint(league: League, path: str) -> None:
    client = league.client(league.organiser)
    item = client.get(f"/api/v1/{path}/").json()["results"][0]["id"]
    for url in (f"/api/v1/{path}/", f"/api/v1/{path}/{item}/"):
        response = client.get(url, HTTP_ACCEPT="text/html")
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/html")
    response = client.get(f"/api/v1/matches/{league.match.pk}/result/", HTTP_ACCEPT="text/html")
    assert response.status_code == 405


def test_a_tournament_counts_its_entries_and_its_waiting_teams_once(league: League) -> None:
    with CaptureQueriesContext(connection) as queries:
        response = league.client().get(f"/api/v1/tournaments/{league.tournament.pk}/")

    assert response.json()["entries"]["places_taken"] == 4
    counts = [query["sql"] for query in queries.captured_queries if "COUNT(*)" in query["sql"]]
    assert sorted(sql.split(" FROM ")[1].split()[0] for sql in counts) == [
        '"tournaments_entry"', '"tournaments_entryrequest"']


@pytest.mark.parametrize("path", ["tournaments", "rounds", "matches", "teams", "players"])
def test_lists_and_details_take_a_fixed_number_of_queries(
        league: League, path: str, django_assert_max_num_queries: Any) -> None:
    client = league.client(league.organiser)
    items = [item["id"] for item in client.get(f"/api/v1/{path}/").json()["results"]]
    assert len(items) >= 2
    with django_assert_max_num_queries(8):
        client.get(f"/api/v1/{path}/")
    for item in items:
        with django_assert_max_num_queries(8):
            client.get(f"/api/v1/{path}/{item}/")
