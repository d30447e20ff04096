"""An organiser sets a tournament up through the API: creates and changes it, registers
players and teams, enters and withdraws teams, withdraws a result; each through the
admin's service, refused with its reasons (named by field), to its people, within an API
key's scope, and at no more queries than the admin's same page."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.factories import (
    PlayerFactory,
    TeamFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments import services
from tournaments.models import Entry, Player, Result, Team, Tournament

from .conftest import (
    OUT,
    SHEET,
    League,
    build_league,
    client_of,
    counted_queries,
    database_state,
    key_client,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(db: Any) -> League:
    """Built for the test alone: the module's other tests start from an empty database."""
    return build_league()


SWISS = {"name": "Winter Swiss", "format": "swiss", "rounds_planned": 3,
         "starts_on": "2027-01-09", "ends_on": "2027-01-10", "tiebreaks": ["buchholz"],
         "points_win": 3, "points_draw": 1}


def test_an_organiser_creates_a_tournament_and_organises_it() -> None:
    organiser = UserFactory()
    response = client_of(organiser).post("/api/v1/tournaments/", SWISS, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["name"], body["format"], body["status"]) == ("Winter Swiss", "swiss",
                                                              "upcoming")
    assert body["settings"]["rounds_planned"] == 3
    assert body["settings"]["points_win"] == 3.0
    tournament = Tournament.objects.get(pk=body["id"])
    assert list(tournament.organisers.all()) == [organiser]
    assert tournament.tiebreaks == ["buchholz"]
    assert str(tournament.starts_on) == "2027-01-09"


@pytest.mark.parametrize("body, field, words", [
    ({**SWISS, "ends_on": "2027-01-01"}, "ends_on", "cannot end before it starts"),
    ({**SWISS, "knockout_tie_rule": "better_seed"}, None, "knockout_tie_rule: a swiss tournament "
                                                   "does not read this setting"),
    ({**SWISS, "duplicate": "butler", "dealing": "venue"}, "duplicate",
     "needs the platform to deal"),
    ({**SWISS, "entry_mode": "open"}, "entries_open", "give both"),
])
def test_settings_the_model_refuses_are_named_and_nothing_is_stored(
        body: dict[str, Any], field: str | None, words: str) -> None:
    response = client_of(UserFactory()).post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 400, response.content
    assert words in response.json()["detail"]
    if field is not None:
        assert field in response.json()["fields"]
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("body, field", [
    ({"format": "swiss"}, "name"),
    ({**SWISS, "format": "chess"}, "format"),
    ({**SWISS, "tiebreaks": ["coin"]}, "tiebreaks"),
    ({**SWISS, "rounds_planned": 0}, "rounds_planned"),
    ({**SWISS, "status": "finished"}, None),
])
def test_a_malformed_tournament_names_the_field(body: dict[str, Any], field: str | None) -> None:
    response = client_of(UserFactory()).post("/api/v1/tournaments/", body, format="json")
    if field is None:  # not a setting: the status is the rounds' to change
        assert response.status_code == 201
        assert Tournament.objects.get().status == Tournament.Status.UPCOMING
        return
    assert response.status_code == 400 and field in response.json(), response.content
    assert not Tournament.objects.exists()


def test_a_name_taken_in_any_case_is_refused() -> None:
    TournamentFactory(name="Winter Swiss")
    response = client_of(UserFactory()).post("/api/v1/tournaments/",
                                             {**SWISS, "name": "WINTER swiss"}, format="json")
    assert response.status_code == 400
    assert "already a tournament named" in response.json()["fields"]["name"][0]


def test_only_staff_create_and_only_its_organisers_change_a_tournament() -> None:
    refused = client_of(UserFactory(is_staff=False)).post("/api/v1/tournaments/", SWISS,
                                                          format="json")
    assert refused.status_code == 403
    assert APIClient().post("/api/v1/tournaments/", SWISS, format="json").status_code == 401
    tournament = TournamentFactory(organisers=[UserFactory()])
    other = client_of(UserFactory()).patch(f"/api/v1/tournaments/{tournament.pk}/",
                                           {"rounds_planned": 7}, format="json")
    assert other.status_code == 403
    assert Tournament.objects.get(pk=tournament.pk).rounds_planned == 3


def test_a_change_sets_what_it_names_and_keeps_the_rest() -> None:
    organiser = UserFactory()
    tournament = TournamentFactory(organisers=[organiser], name="Cup")
    response = client_of(organiser).patch(f"/api/v1/tournaments/{tournament.pk}/",
                                          {"rounds_planned": 7, "capacity": 16}, format="json")
    assert response.status_code == 200, response.content
    tournament.refresh_from_db()
    assert (tournament.rounds_planned, tournament.capacity, tournament.name) == (7, 16, "Cup")
    bad = client_of(organiser).patch(f"/api/v1/tournaments/{tournament.pk}/",
                                     {"capacity": 1}, format="json")
    assert bad.status_code == 400 and "capacity" in bad.json()


def test_players_and_teams_are_registered_by_organisers() -> None:
    client = client_of(UserFactory())
    aino = client.post("/api/v1/players/", {"name": "Aino", "handle": "aino"}, format="json")
    assert aino.status_code == 201, aino.content
    eero = client.post("/api/v1/players/", {"name": "Eero"}, format="json")
    assert Player.objects.get(pk=eero.json()["id"]).handle == "eero"
    again = client.post("/api/v1/players/", {"name": "Aino B", "handle": "aino"}, format="json")
    assert again.status_code == 400
    assert again.json()["fields"] == {"handle": ["Another player already has this handle."]}
    spaced = client.post("/api/v1/players/", {"name": "Aino C", "handle": "aino c"},
                         format="json")
    assert spaced.status_code == 400 and list(spaced.json()["fields"]) == ["handle"]
    team = client.post("/api/v1/teams/", {"name": "North", "player_a": aino.json()["id"],
                                          "player_b": eero.json()["id"]}, format="json")
    assert team.status_code == 201, team.content
    assert [p["name"] for p in team.json()["players"]] == ["Aino", "Eero"]
    alone = client.post("/api/v1/teams/", {"name": "Solo", "player_a": aino.json()["id"],
                                           "player_b": aino.json()["id"]}, format="json")
    assert alone.status_code == 400
    assert alone.json()["detail"] == "A team needs two different players."
    assert Team.objects.count() == 1
    player = client_of(UserFactory(is_staff=False)).post("/api/v1/players/", {"name": "X"},
                                                         format="json")
    assert player.status_code == 403


def test_teams_enter_with_seeds_until_the_first_round_then_withdraw_marked() -> None:
    organiser = UserFactory()
    tournament = TournamentFactory(organisers=[organiser])
    client = client_of(organiser)
    teams = [TeamFactory() for _ in range(4)]
    for seed, team in enumerate(teams, start=1):
        entered = client.post(f"/api/v1/tournaments/{tournament.pk}/entries/",
                              {"team": team.pk, "seed": seed}, format="json")
        assert entered.status_code == 201, entered.content
        assert entered.json()["seed"] == seed
    twice = client.post(f"/api/v1/tournaments/{tournament.pk}/entries/",
                        {"team": teams[0].pk, "seed": 9}, format="json")
    assert twice.status_code == 400
    assert "already entered" in twice.json()["detail"]
    gone = client.delete(f"/api/v1/tournaments/{tournament.pk}/entries/{teams[3].pk}/")
    assert gone.status_code == 200, gone.content
    assert [e["team"]["id"] for e in gone.json()] == [t.pk for t in teams[:3]]
    assert not Entry.objects.filter(team=teams[3]).exists()  # before the start: as if never

    services.round_pair_next(tournament=tournament, user=organiser)
    late = client.post(f"/api/v1/tournaments/{tournament.pk}/entries/",
                       {"team": teams[3].pk}, format="json")
    assert late.status_code == 400
    assert late.json()["detail"].endswith("has started: teams enter before its first round "
                                          "is paired")
    withdrawn = client.delete(f"/api/v1/tournaments/{tournament.pk}/entries/{teams[0].pk}/")
    assert withdrawn.status_code == 200
    assert Entry.objects.get(team=teams[0]).withdrawn  # its matches refer to it
    stranger = client_of(UserFactory()).delete(
        f"/api/v1/tournaments/{tournament.pk}/entries/{teams[1].pk}/")
    assert stranger.status_code == 403
    assert not Entry.objects.get(team=teams[1]).withdrawn


def test_an_organiser_withdraws_a_result_while_its_round_is_open(league: League) -> None:
    client = client_of(league.organiser)
    url = f"/api/v1/matches/{league.match.pk}/result/"
    stored = client.post(url, copy.deepcopy({"score_sheet": {"hand_scores": SHEET,
                                                             "out_seats": OUT}}),
                         format="json")
    assert stored.status_code == 201
    assert client_of(league.cup_organiser).delete(url).status_code == 403
    withdrawn = client.delete(url)
    assert withdrawn.status_code == 200, withdrawn.content
    assert withdrawn.json()["result"] is None
    assert not Result.objects.filter(match=league.match).exists()
    assert client.delete(url).status_code == 404
    done = league.round1.matches.first()
    before = database_state()
    final = client.delete(f"/api/v1/matches/{done.pk}/result/")
    assert final.status_code == 400
    assert database_state() == before


def test_an_api_key_sets_up_only_with_the_organise_scope_and_in_its_tournaments() -> None:
    organiser = UserFactory(is_staff=True)  # staff may register players and tournaments
    mine, other = (TournamentFactory(organisers=[organiser]) for _ in range(2))

    def with_key(scopes: list[str], tournaments: list[Tournament]) -> APIClient:
        return key_client(organiser, scopes, tournaments)

    team = TeamFactory()
    reader = with_key(["read", "results"], [])
    assert reader.post("/api/v1/players/", {"name": "X"}, format="json").status_code == 403
    limited = with_key(["organise"], [mine])
    elsewhere = limited.post(f"/api/v1/tournaments/{other.pk}/entries/", {"team": team.pk},
                             format="json")
    assert elsewhere.status_code == 403
    assert elsewhere.json()["detail"] == "this API key does not act in this tournament"
    assert limited.post(f"/api/v1/tournaments/{mine.pk}/entries/", {"team": team.pk},
                        format="json").status_code == 201
    before = database_state()
    for path, body in (("/api/v1/players/", {"name": "X"}), ("/api/v1/tournaments/", SWISS)):
        refused = limited.post(path, body, format="json")
        assert refused.status_code == 403, path
        assert refused.json()["detail"] == ("this API key acts only in its tournaments: it "
                                            "creates nothing outside them")
    assert database_state() == before
    unlimited = with_key(["organise"], [])
    assert unlimited.post("/api/v1/players/", {"name": "X"}, format="json").status_code == 201


def test_a_create_retried_with_its_idempotency_key_creates_one_tournament() -> None:
    client = client_of(UserFactory())
    first = client.post("/api/v1/tournaments/", SWISS, format="json",
                        HTTP_IDEMPOTENCY_KEY="create-1")
    again = client.post("/api/v1/tournaments/", SWISS, format="json",
                        HTTP_IDEMPOTENCY_KEY="create-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert Tournament.objects.count() == 1


# ---------------------------------------------------------------- as the admin's pages


def _admin(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


ADMIN_TOURNAMENT = {
    "name": "Winter Swiss", "format": "swiss", "status": "upcoming", "rounds_planned": 3,
    "points_win": 2, "points_draw": 1, "points_loss": 0, "points_bye": 2,
    "bye_policy": "bye", "bot_level": "random", "knockout_tie_rule": "better_seed",
    "play": "venue", "spectators": "anyone", "turn_seconds": 60, "reserve_seconds": 300,
    "grace_seconds": 60, "dealing": "platform", "entry_mode": "invite",
    **{f"{prefix}-{key}": value for prefix in ("entries", "absences", "forbidden_pairings")
       for key, value in (("TOTAL_FORMS", 0), ("INITIAL_FORMS", 0))},
}


def test_creating_a_tournament_costs_no_more_queries_than_the_admins() -> None:
    organiser = UserFactory()
    admin_page, by_admin = counted_queries(lambda: _admin(organiser).post(
        reverse("admin:tournaments_tournament_add"), ADMIN_TOURNAMENT))
    assert admin_page.status_code == 302, admin_page.content.decode()[:3000]
    api, by_api = counted_queries(lambda: client_of(organiser).post(
        "/api/v1/tournaments/", {**SWISS, "name": "Spring Swiss"}, format="json"))
    assert api.status_code == 201
    assert by_api <= by_admin, (by_api, by_admin)


def test_registering_a_player_and_a_team_costs_no_more_queries_than_the_admins() -> None:
    organiser = UserFactory()
    a, b = PlayerFactory(), PlayerFactory()
    for path, admin_body, api_body in (
            ("player", {"name": "Aino", "handle": "aino"}, {"name": "Eero", "handle": "eero"}),
            ("team", {"name": "North", "player_a": a.pk, "player_b": b.pk},
             {"name": "South", "player_a": b.pk, "player_b": a.pk})):
        page, by_admin = counted_queries(lambda path=path, body=admin_body: _admin(organiser).post(
            reverse(f"admin:tournaments_{path}_add"), body))
        assert page.status_code == 302, page.content.decode()[:3000]
        api, by_api = counted_queries(lambda path=path, body=api_body: client_of(organiser).post(
            f"/api/v1/{path}s/", body, format="json"))
        assert api.status_code == 201, api.content
        assert by_api <= by_admin, (path, by_api, by_admin)


def test_entering_a_team_costs_no_more_queries_than_the_admins() -> None:
    organiser = UserFactory()
    tournament = TournamentFactory(organisers=[organiser])
    first, second = TeamFactory(), TeamFactory()
    page, by_admin = counted_queries(lambda: _admin(organiser).post(
        reverse("admin:tournaments_entry_add"),
        {"tournament": tournament.pk, "team": first.pk, "seed": 1}))
    assert page.status_code == 302, page.content.decode()[:3000]
    api, by_api = counted_queries(lambda: client_of(organiser).post(
        f"/api/v1/tournaments/{tournament.pk}/entries/", {"team": second.pk, "seed": 2},
        format="json"))
    assert api.status_code == 201
    assert by_api <= by_admin, (by_api, by_admin)


def test_changing_a_tournament_costs_no_more_queries_than_the_admins() -> None:
    organiser = UserFactory()
    by_admin_page = TournamentFactory(organisers=[organiser], name="Winter Swiss")
    by_api = TournamentFactory(organisers=[organiser], name="Spring Swiss")
    page, by_admin = counted_queries(lambda: _admin(organiser).post(
        reverse("admin:tournaments_tournament_change", args=[by_admin_page.pk]),
        {**ADMIN_TOURNAMENT, "organisers": [organiser.pk], "rounds_planned": 7}))
    assert page.status_code == 302, page.content.decode()[:3000]
    assert Tournament.objects.get(pk=by_admin_page.pk).rounds_planned == 7
    api, queries = counted_queries(lambda: client_of(organiser).patch(
        f"/api/v1/tournaments/{by_api.pk}/", {"rounds_planned": 7}, format="json"))
    assert api.status_code == 200
    assert Tournament.objects.get(pk=by_api.pk).rounds_planned == 7
    assert queries <= by_admin, (queries, by_admin)


def test_withdrawing_a_result_costs_no_more_queries_than_the_admins(league: League) -> None:
    first, second = league.match, league.substituted
    for match in (first, second):
        services.match_submit_score_sheet(match=match, hand_scores=SHEET, out_seats=OUT,
                                          user=league.organiser)
    league.organiser.is_staff = True
    league.organiser.save()
    page, by_admin = counted_queries(lambda: _admin(league.organiser).post(
        reverse("admin:tournaments_match_changelist"),
        {"action": "withdraw_result", "_selected_action": [first.pk]}))
    assert page.status_code == 302
    assert not Result.objects.filter(match=first).exists()
    api, by_api = counted_queries(lambda: client_of(league.organiser).delete(
        f"/api/v1/matches/{second.pk}/result/"))
    assert api.status_code == 200
    assert not Result.objects.filter(match=second).exists()
    assert by_api <= by_admin, (by_api, by_admin)


def test_the_admin_refuses_a_late_entry_as_the_api_does() -> None:
    organiser = UserFactory()
    tournament = TournamentFactory(organisers=[organiser])
    for seed in (1, 2):
        services.entry_add(tournament=tournament, team=TeamFactory(), seed=seed,
                           user=organiser)
    services.round_pair_next(tournament=tournament, user=organiser)
    late = TeamFactory()
    page = _admin(organiser).post(reverse("admin:tournaments_entry_add"),
                                  {"tournament": tournament.pk, "team": late.pk, "seed": 3})
    assert page.status_code == 400
    assert "has started: teams enter before its first round is paired" in page.content.decode()
    assert not Entry.objects.filter(team=late).exists()
