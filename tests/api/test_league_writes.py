"""An organiser's leagues and seasons through the API: a league created (its creator
organises it) and changed, a season created with its divisions or events, the next season
drafted and confirmed; each through ``services.leagues`` as the admin's pages and actions,
by the league's organisers only, a bad body a 400 naming the field that stores nothing, and
the draft costing no more queries than the admin's action."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.factories import TournamentFactory, UserFactory
from tests.tournaments.leagues import league_with_divisions
from tests.tournaments.test_admin import logged_in
from tournaments.models import Division, League, Season, SeriesEvent
from tournaments.services import keys

from .conftest import client_of, counted_queries, database_state

pytestmark = pytest.mark.django_db

LEAGUE = {"name": "Helsinki League", "description": "Thursdays", "promote": 1, "relegate": 1}


def test_an_organiser_creates_a_league_and_organises_it() -> None:
    organiser = UserFactory()
    answer = client_of(organiser).post("/api/v1/leagues/", LEAGUE, format="json")
    assert answer.status_code == 201, answer.content
    league = League.objects.get()
    assert (league.slug, league.promote) == ("helsinki-league", 1)
    assert list(league.organisers.all()) == [organiser]
    assert answer.json()["seasons"] == []


def test_only_staff_create_and_only_its_organisers_change_a_league() -> None:
    assert client_of(UserFactory(is_staff=False)).post(
        "/api/v1/leagues/", LEAGUE, format="json").status_code == 403
    assert APIClient().post("/api/v1/leagues/", LEAGUE, format="json").status_code == 401
    organiser = UserFactory()
    league_id = client_of(organiser).post("/api/v1/leagues/", LEAGUE,
                                          format="json").json()["id"]
    before = database_state()
    assert client_of(UserFactory()).patch(f"/api/v1/leagues/{league_id}/", {"promote": 3},
                                          format="json").status_code == 403
    assert database_state() == before
    changed = client_of(organiser).patch(f"/api/v1/leagues/{league_id}/", {"promote": 3},
                                         format="json")
    assert changed.status_code == 200
    assert (changed.json()["promote"], changed.json()["name"]) == (3, LEAGUE["name"])


@pytest.mark.parametrize(("body", "field"), [
    ({**LEAGUE, "promote": -1}, "promote"),
    ({**LEAGUE, "slug": "not a slug"}, "slug"),
    ({"description": "no name"}, "name"),
])
def test_a_malformed_league_names_the_field(body: dict[str, Any], field: str) -> None:
    answer = client_of(UserFactory()).post("/api/v1/leagues/", body, format="json")
    assert answer.status_code == 400 and field in answer.json(), answer.json()
    assert not League.objects.exists()


def test_a_league_name_taken_is_named_in_fields() -> None:
    client = client_of(UserFactory())
    assert client.post("/api/v1/leagues/", LEAGUE, format="json").status_code == 201
    before = database_state()
    taken = client.post("/api/v1/leagues/", {**LEAGUE, "slug": "other"}, format="json")
    assert taken.status_code == 400
    assert "name" in taken.json()["fields"]
    assert database_state() == before


def test_a_league_create_retried_with_its_key_creates_one() -> None:
    client = client_of(UserFactory())
    first = client.post("/api/v1/leagues/", LEAGUE, format="json", HTTP_IDEMPOTENCY_KEY="l-1")
    again = client.post("/api/v1/leagues/", LEAGUE, format="json", HTTP_IDEMPOTENCY_KEY="l-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert League.objects.count() == 1


def _league(organiser: Any) -> League:
    league = League.objects.create(name=f"L {organiser.pk}", slug=f"l-{organiser.pk}")
    league.organisers.add(organiser)
    return league


def test_an_organiser_creates_a_season_with_its_divisions() -> None:
    organiser = UserFactory()
    league = _league(organiser)
    top, second = (TournamentFactory(organisers=[organiser]) for _ in range(2))
    answer = client_of(organiser).post("/api/v1/seasons/", {
        "league": league.pk, "divisions": [{"level": 1, "tournament": top.pk},
                                           {"level": 2, "tournament": second.pk}]},
        format="json")
    assert answer.status_code == 201, answer.content
    season = Season.objects.get()
    assert (season.number, season.name, season.kind) == (1, "Season 1", "divisions")
    assert [d["tournament"] for d in answer.json()["divisions"]] == [top.pk, second.pk]
    series = client_of(organiser).post("/api/v1/seasons/", {
        "league": league.pk, "kind": "series", "place_points": [10, 5],
        "events": [TournamentFactory(organisers=[organiser]).pk]}, format="json")
    assert series.status_code == 201, series.content
    assert series.json()["number"] == 2 and len(series.json()["events"]) == 1


@pytest.mark.parametrize(("body", "field"), [
    ({"divisions": [{"level": 1, "tournament": "mine"}, {"level": 1, "tournament": "mine"}]},
     "divisions"),
    ({"divisions": [{"level": 1, "tournament": "theirs"}]}, "divisions"),
    ({"divisions": [{"level": 0, "tournament": "mine"}]}, "divisions"),
    ({"kind": "series", "divisions": [{"level": 1, "tournament": "mine"}]}, "divisions"),
    ({"kind": "series", "place_points": [1, 5]}, "place_points"),
    ({"kind": "spring"}, "kind"),
    ({"number": 1}, "__all__"),
])
def test_a_bad_season_names_the_field_and_stores_nothing(body: dict[str, Any],
                                                         field: str) -> None:
    organiser = UserFactory()
    league = _league(organiser)
    Season.objects.create(league=league, number=1, name="Season 1")
    ids = {"mine": TournamentFactory(organisers=[organiser]).pk,
           "theirs": TournamentFactory().pk}
    for division in body.get("divisions", []):
        division["tournament"] = ids[division["tournament"]]
    before = database_state()
    answer = client_of(organiser).post("/api/v1/seasons/", {"league": league.pk, **body},
                                       format="json")
    assert answer.status_code == 400
    assert field in answer.json() or field in answer.json().get("fields", {}), answer.json()
    assert database_state() == before


def test_only_the_leagues_organisers_create_its_seasons() -> None:
    league = _league(UserFactory())
    stranger = UserFactory()
    answer = client_of(stranger).post("/api/v1/seasons/", {
        "league": league.pk, "divisions": [
            {"level": 1, "tournament": TournamentFactory(organisers=[stranger]).pk}]},
        format="json")
    assert answer.status_code == 403
    assert not Season.objects.exists() and not Division.objects.exists()
    assert not SeriesEvent.objects.exists()


def test_the_next_season_is_drafted_and_confirmed() -> None:
    league, season, teams, organiser = league_with_divisions([4, 4])
    client = client_of(organiser)
    assert client_of(UserFactory()).post(
        f"/api/v1/seasons/{season.pk}/draft-next/").status_code == 403
    drafted = client.post(f"/api/v1/seasons/{season.pk}/draft-next/")
    assert drafted.status_code == 201, drafted.content
    draft = drafted.json()
    assert (draft["number"], draft["status"]) == (2, "draft")
    assert {move["kind"] for move in draft["moves"]} == {"up", "down", "stays"}
    # a draft is its league's organisers' only: to anyone else it is not there
    assert client_of(UserFactory()).post(
        f"/api/v1/seasons/{draft['id']}/confirm/").status_code == 404
    again = client.post(f"/api/v1/seasons/{season.pk}/draft-next/")
    assert again.status_code == 400 and "already has a next season" in again.json()["detail"]
    confirmed = client.post(f"/api/v1/seasons/{draft['id']}/confirm/")
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "current"
    twice = client.post(f"/api/v1/seasons/{draft['id']}/confirm/")
    assert twice.status_code == 400 and "is not a draft" in twice.json()["detail"]


def test_a_draft_retried_with_its_key_drafts_once() -> None:
    _league_row, season, _teams, organiser = league_with_divisions([4, 4])
    client = client_of(organiser)
    url = f"/api/v1/seasons/{season.pk}/draft-next/"
    first = client.post(url, HTTP_IDEMPOTENCY_KEY="draft-1")
    again = client.post(url, HTTP_IDEMPOTENCY_KEY="draft-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert Season.objects.filter(status="draft").count() == 1


def test_a_key_limited_to_tournaments_writes_no_league() -> None:
    organiser = UserFactory()
    _row, key = keys.key_create(user=organiser, name="tool", scopes=["organise"],
                                tournaments=[TournamentFactory(organisers=[organiser])])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert client.post("/api/v1/leagues/", LEAGUE, format="json").status_code == 403
    assert not League.objects.exists()


def test_drafting_costs_no_more_queries_than_the_admins() -> None:
    _one, by_page, _teams, organiser = league_with_divisions([4, 4])
    _two, by_api, _teams2, other = league_with_divisions([4, 4])
    page, by_admin = counted_queries(lambda: logged_in(organiser).post(
        reverse("admin:tournaments_season_changelist"),
        {"action": "draft_next", "_selected_action": [by_page.pk]}))
    assert page.status_code == 302
    assert Season.objects.filter(league=by_page.league, status="draft").exists()
    api, queries = counted_queries(lambda: client_of(other).post(
        f"/api/v1/seasons/{by_api.pk}/draft-next/"))
    assert api.status_code == 201
    assert queries <= by_admin, (queries, by_admin)


def test_the_admin_creates_a_league_through_the_service_and_organises_it() -> None:
    organiser = UserFactory()
    page = logged_in(organiser).post(reverse("admin:tournaments_league_add"), {
        "name": "Admin League", "slug": "admin-league", "promote": 2, "relegate": 2})
    assert page.status_code == 302, page.content.decode()[:2000]
    assert list(League.objects.get().organisers.all()) == [organiser]
