"""Leagues on the database: a season of divisions drafted into the next (who goes up and
down), confirmed, and shown on the pages and in the API; a series' table of points per
place; and who may do what."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client

from tournaments.models import Entry, Season, Tournament
from tournaments.services import TournamentUserError
from tournaments.services.leagues import season_confirm, season_draft_next

from .factories import TeamFactory, UserFactory
from .leagues import league_with_divisions, series_season

pytestmark = pytest.mark.django_db


def division_teams(season: Season) -> dict[int, list[int]]:
    return {d.level: list(Entry.objects.filter(tournament=d.tournament)
                          .order_by("seed").values_list("team_id", flat=True))
            for d in season.divisions.all()}


def test_the_next_season_is_drafted_with_the_top_up_the_bottom_down_and_confirmed() -> None:
    league, season, (first, second), organiser = league_with_divisions([4, 4])
    newcomer = TeamFactory()
    draft = season_draft_next(season=season, user=organiser, newcomers=[newcomer])
    assert draft.status == Season.Status.DRAFT and draft.number == 2
    # division 1's last goes down, division 2's winner up; seeds: down, stays, up, new
    assert division_teams(draft) == {
        1: [t.pk for t in first[:3]] + [second[0].pk],
        2: [first[3].pk] + [t.pk for t in second[1:]] + [newcomer.pk]}
    season.refresh_from_db()
    assert season.status == Season.Status.FINISHED
    old = season.divisions.get(level=1).tournament
    new = draft.divisions.get(level=1).tournament
    assert (new.format, new.tiebreaks, new.status) == (old.format, old.tiebreaks,
                                                       Tournament.Status.UPCOMING)
    assert list(new.organisers.all()) == [organiser]

    client = Client()
    # a draft is its organisers' only
    assert client.get(f"/leagues/{league.slug}/seasons/2/").status_code == 404
    assert [s["number"] for s in client.get("/api/v1/seasons/").json()["results"]] == [1]
    season_confirm(season=draft, user=organiser)
    page = client.get(f"/leagues/{league.slug}/seasons/2/").content.decode()
    assert "↑ up" in page and "↓ down" in page and "new" in page
    moves = {m["team_id"]: m["kind"] for m in client.get(f"/api/v1/seasons/{draft.pk}/")
             .json()["moves"]}
    assert moves[second[0].pk] == "up" and moves[first[3].pk] == "down"
    assert moves[newcomer.pk] == "new" and moves[first[0].pk] == "stays"
    # the finished season's page says where its teams went
    old_page = client.get(f"/leagues/{league.slug}/seasons/1/").content.decode()
    assert old_page.count("↑ up") == 1 and old_page.count("↓ down") == 1
    league_page = client.get(f"/leagues/{league.slug}/").content.decode()
    assert "Season 2" in league_page and league.name in league_page


def test_a_season_that_cannot_be_drafted_says_why_and_stores_nothing() -> None:
    league, season, _teams, organiser = league_with_divisions([3, 3], play=False)
    seasons = Season.objects.count()
    with pytest.raises(TournamentUserError, match="has not finished"):
        season_draft_next(season=season, user=organiser)
    with pytest.raises(PermissionDenied):
        season_draft_next(season=season, user=UserFactory())
    other = Season.objects.create(league=league, number=2, name="Next",
                                  status=Season.Status.DRAFT)
    with pytest.raises(TournamentUserError, match="is itself a draft"):
        season_draft_next(season=other, user=organiser)
    with pytest.raises(TournamentUserError, match="already has a next season"):
        season_draft_next(season=season, user=organiser)
    assert Season.objects.count() == seasons + 1
    season.refresh_from_db()
    assert season.status == Season.Status.CURRENT
    season_confirm(season=other, user=organiser)
    with pytest.raises(TournamentUserError, match="is not a draft"):
        season_confirm(season=other, user=organiser)


def test_a_series_ranks_teams_and_players_on_points_per_place_in_every_format() -> None:
    organiser = UserFactory()
    teams = [TeamFactory() for _ in range(3)]
    season = series_season(3, teams, organiser, best_of=2)
    client = Client()
    data = client.get(f"/api/v1/seasons/{season.pk}/table/").json()
    # events rotate the seeds: each team wins once, is second once and third once; the
    # best two count: 10 + 6 for everyone, level on count-back too
    assert [(row["rank"], row["points"], row["played"]) for row in data["rows"]] == [
        (1, 16, 3)] * 3
    assert all(len(row["dropped"].split()) == 1 for row in data["rows"])
    assert data["columns"][:5] == ["rank", "id", "name", "points", "played"]
    text = client.get(f"/api/v1/seasons/{season.pk}/table/?format=csv").content.decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [int(row["id"]) for row in rows] == [row["id"] for row in data["rows"]]
    lines = client.get(f"/api/v1/seasons/{season.pk}/table/?format=ndjson&by=player")
    players = [json.loads(line) for line in lines.content.decode().splitlines()]
    assert len(players) == 6 and {p["points"] for p in players} == {16}
    bad = client.get(f"/api/v1/seasons/{season.pk}/table/?by=club")
    assert bad.status_code == 400 and "by" in bad.json()
    page = client.get(f"/leagues/{season.league.slug}/seasons/1/").content.decode()
    assert "Series table: teams" in page and "(3)" in page  # a dropped third place


def test_a_series_without_best_of_counts_every_event_and_breaks_ties_by_count_back() -> None:
    organiser = UserFactory()
    teams = [TeamFactory() for _ in range(3)]
    season = series_season(2, teams, organiser)
    rows = Client().get(f"/api/v1/seasons/{season.pk}/table/").json()["rows"]
    # event 1: 0, 1, 2 place 1st to 3rd; event 2: 1, 2, 0 -> 13, 16, 9
    assert [(row["id"], row["points"], row["rank"]) for row in rows] == [
        (teams[1].pk, 16, 1), (teams[0].pk, 13, 2), (teams[2].pk, 9, 3)]


def test_the_admin_shows_a_league_to_its_organisers_only_and_drafts_from_its_action() -> None:
    league, season, _teams, organiser = league_with_divisions([2, 2])
    stranger = UserFactory()
    client = Client()
    client.force_login(stranger)
    assert league.name not in client.get("/admin/tournaments/league/").content.decode()
    assert client.get(f"/admin/tournaments/season/{season.pk}/change/").status_code == 302
    response = client.post("/admin/tournaments/season/", {
        "action": "draft_next", "_selected_action": [season.pk]}, follow=True)
    assert Season.objects.filter(league=league).count() == 1
    assert "none of the selected" in response.content.decode()
    client.force_login(organiser)
    assert league.name in client.get("/admin/tournaments/league/").content.decode()
    response = client.post("/admin/tournaments/season/", {
        "action": "draft_next", "_selected_action": [season.pk]}, follow=True)
    assert "is drafted" in response.content.decode()
    draft = Season.objects.get(league=league, number=2)
    client.post("/admin/tournaments/season/", {"action": "confirm",
                                               "_selected_action": [draft.pk]})
    draft.refresh_from_db()
    assert draft.status == Season.Status.CURRENT
