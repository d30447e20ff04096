"""The home page: tournaments being played (current round, leader), coming up (dates), the
latest results, and finished ones with their champion and final places; a finished knockout's
places come from its bracket, on its own pages too."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse

from tournaments import selectors
from tournaments.models import Standing, Team, Tournament

from ..tournaments.factories import TournamentFactory
from . import finished_knockout, swiss_cup

pytestmark = pytest.mark.django_db


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'")


def section(html: str, heading: str) -> str:
    start = html.index(f">{heading}</h2>")
    end = html.find("<h2", start)
    return html[start:end if end >= 0 else None]


def seeds(tournament: Tournament) -> dict[int, Team]:
    return {e.seed: e.team for e in tournament.entries.select_related("team")}


def test_it_keeps_the_welcome_first(client: Client) -> None:
    html = client.get("/").content.decode()
    main = html[html.index("<main"):]
    assert re.search(r"<h1>[^<]*</h1>\s*<p>\s*Welcome!", main)


def test_it_shows_what_is_played_with_its_current_round_and_leaders(client: Client) -> None:
    cup = swiss_cup()  # round 1 complete (two winners level), round 2 still a draft
    tournament = cup["tournament"]
    leaders = {s.team.name for s in Standing.objects.filter(tournament=tournament,
                                                            round_number=0, rank=1)}
    assert len(leaders) == 2

    html = section(client.get("/").content.decode(), "Being played")

    words = text(html)
    assert "Sheet Cup" in words and "Round 1 of 3" in words and "complete" in words
    assert "Leaders, level:" in words and all(name in words for name in leaders)
    assert reverse("tournaments:round_detail", args=[tournament.pk, 1]) in html
    assert reverse("tournaments:round_detail", args=[tournament.pk, 2]) not in html  # draft


def test_it_lists_what_comes_up_with_dates_soonest_first(client: Client) -> None:
    TournamentFactory(name="Later Cup", starts_on=datetime.date(2027, 3, 1))
    TournamentFactory(name="Spring Open", starts_on=datetime.date(2027, 1, 15),
                      ends_on=datetime.date(2027, 1, 17))
    TournamentFactory(name="Someday Cup")

    html = section(client.get("/").content.decode(), "Coming up")

    words = text(html)
    assert words.index("Spring Open") < words.index("Later Cup") < words.index("Someday Cup")
    assert "Spring Open Swiss · Jan. 15, 2027 – Jan. 17, 2027 · 0 teams" in words
    assert '<time datetime="2027-03-01">' in html
    assert "Someday Cup Swiss · dates to be announced" in words


def test_it_shows_the_latest_results_newest_first(client: Client) -> None:
    cup = swiss_cup()
    matches = list(cup["round"].matches.filter(is_bye=False).select_related("result"))

    html = section(client.get("/").content.decode(), "Latest results")

    for match in matches:
        assert reverse("tournaments:match_detail", args=[match.pk]) in html
        assert f"{match.team_a.name} 0" in text(html) and f"{match.team_b.name} 200" in text(html)
    newest = max(matches, key=lambda m: (m.result.created, m.result.pk))
    assert html.index(f"/matches/{newest.pk}/") < min(
        html.index(f"/matches/{m.pk}/") for m in matches if m != newest)


def test_an_unconfirmed_result_is_not_among_the_latest(client: Client) -> None:
    from ..tournaments.factories import UserFactory, tournament_with_teams
    from . import enter_sheet, published_round

    user = UserFactory(is_superuser=True)
    tournament = tournament_with_teams(2, organisers=[user], confirm_score_sheets=True)
    match = published_round(tournament).matches.get()
    enter_sheet(match, ([[0, 40]] * 5, [0] * 5), user)

    assert f"/matches/{match.pk}/" not in client.get("/").content.decode()


def test_a_finished_knockout_shows_its_champion_and_places_from_the_bracket(
        client: Client) -> None:
    tournament = finished_knockout()
    team = seeds(tournament)

    assert [(p.team, p.first, p.last) for p in selectors.final_places_of(tournament)] == [
        (team[1], 1, 1), (team[2], 2, 2), (team[3], 3, 3), (team[4], 4, 4),
        (team[5], 5, 6), (team[6], 5, 6)]  # 5 and 6 lost in the quarter-finals
    html = section(client.get("/").content.decode(), "Finished")
    words = text(html)
    assert f"Champion: {team[1].name}" in words
    assert re.search(rf"1 {team[1].name} champion 2 {team[2].name} 3 {team[3].name} "
                     rf"4 {team[4].name} 5–6 {team[5].name} 5–6 {team[6].name}", words)

    for name in ("tournament_detail", "standings"):
        page = text(client.get(reverse(f"tournaments:{name}", args=[tournament.pk]))
                    .content.decode())
        assert f"Final places Place Team 1 {team[1].name} champion 2 {team[2].name}" in page


def test_a_knockouts_points_table_is_not_its_places(client: Client) -> None:
    # The reason for the bracket: on points, seed 3 (beaten in the semi-final, then winner
    # of the third-place match) has as many wins as the finalist, seed 2.
    tournament = finished_knockout()
    team = seeds(tournament)
    points = {s.team_id: s.points for s in Standing.objects.filter(tournament=tournament,
                                                                   round_number=0)}
    assert points[team[2].pk] == points[team[3].pk]
    places = {p.team: p.first for p in selectors.final_places_of(tournament)}
    assert places[team[2]] == 2 and places[team[3]] == 3


def test_a_finished_league_places_its_teams_by_the_final_standings(client: Client) -> None:
    cup = swiss_cup()
    tournament = cup["tournament"]
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    tournament.refresh_from_db()
    rows = Standing.objects.filter(tournament=tournament, round_number=0)

    places = selectors.final_places_of(tournament)

    assert {(p.team.pk, p.first, p.last) for p in places} == {
        (row.team_id, row.rank, row.rank + 1) for row in rows}  # two level pairs: 1-2, 3-4
    words = text(section(client.get("/").content.decode(), "Finished"))
    assert "Champions, level:" in words and "1–2" in words


def test_an_empty_site_says_so(client: Client) -> None:
    words = text(client.get("/").content.decode())
    assert "No tournament is being played at the moment." in words
    assert "No tournament is announced yet." in words and "No results yet." in words


def test_the_home_page_is_in_finnish_too(client: Client, finnish: None) -> None:
    finished_knockout()
    swiss_cup()

    words = text(client.get("/", HTTP_ACCEPT_LANGUAGE="fi").content.decode())

    for heading in ("Käynnissä", "Tulossa", "Uusimmat tulokset", "Lopulliset sijoitukset"):
        assert heading in words
    assert "Johdossa tasapisteissä:" in words and "Kierros 1/3" in words
    assert "Mestari:" in words and "5–6" in words
