"""The pages and the API follow one rule for what the public sees (tournaments.selectors.
visibility): a result is public once confirmed; until then the match only says it is
awaiting confirmation, and the tournament's organisers see the result flagged in the API."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import UserFactory
from tournaments import services
from tournaments.models import Match

from .conftest import OUT, SHEET, League

pytestmark = pytest.mark.django_db

TOTALS = [sum(hand[0] for hand in SHEET), sum(hand[1] for hand in SHEET)]


def page_results(match: Match, user: Any = None) -> dict[str, Any]:
    """What the public pages show of the match's result: its totals on the match page and
    on the round page (None: not shown), and the status each page gives it."""
    client = Client()
    if user is not None:
        client.force_login(user)
    detail = client.get(reverse("tournaments:match_live", args=[match.pk])).content.decode()
    shown = re.search(r'class="muted">\((\d+)–(\d+)\)', detail)
    round_page = client.get(reverse("tournaments:round_detail", args=[
        match.round.tournament_id, match.round.number])).content.decode()
    card = re.search(rf'id="table-{match.pk}".*?</article>', round_page, re.S)
    assert card is not None
    totals = [int(t) for t in re.findall(r'class="total">(\d+)', card[0])]
    status = re.search(r'class="badge badge-status[^"]*">([^<]+)<', card[0])
    assert status is not None
    return {"match_page": [int(shown[1]), int(shown[2])] if shown else None,
            "round_page": totals or None,
            "awaiting": "waits to be confirmed" in detail,
            "status": status[1]}


def api_results(league: League, match: Match, user: Any = None) -> dict[str, Any]:
    """What the API shows of the match's result: in the match, the match list and the
    round, with the match's status."""
    client = league.client(user)
    detail = client.get(f"/api/v1/matches/{match.pk}/").json()
    listed = client.get(f"/api/v1/matches/?round={match.round_id}").json()["results"]
    in_round = client.get(f"/api/v1/rounds/{match.round_id}/").json()["matches"]
    results = [detail["result"], *(m["result"] for m in listed + in_round if m["id"] == match.pk)]
    assert len(results) == 3
    assert len({None if r is None else tuple(r["totals"]) for r in results}) == 1  # all agree
    first = results[0]
    return {"totals": first["totals"] if first else None,
            "confirmed": first["confirmed"] if first else None,
            "status": detail["status"]}


def page_standings(league: League) -> dict[int, int]:
    """Matches played by each team, as the standings page shows them."""
    html = Client().get(reverse("tournaments:standings",
                                args=[league.tournament.pk])).content.decode()
    played = {}
    for team, row in re.findall(r'<tr data-team="(\d+)">(.*?)</tr>', html, re.S):
        rank, points, games, *_rest = re.findall(r'<td[^>]*data-sort-value="([^"]*)"', row)
        played[int(team)] = int(games)
    return played


def api_standings(league: League) -> dict[int, int]:
    rows = league.client().get(f"/api/v1/tournaments/{league.tournament.pk}/standings/")
    return {row["team_id"]: row["played"] for row in rows.json()["rows"]}


@pytest.fixture
def unconfirmed(league: League) -> Match:
    """``league.match`` with a score sheet waiting for a second organiser."""
    league.tournament.confirm_score_sheets = True
    league.tournament.save()
    services.match_submit_score_sheet(match=league.match, hand_scores=SHEET, out_seats=OUT,
                                      user=league.organiser)
    return league.match


@pytest.mark.parametrize("who", ["anonymous", "someone", "another_organiser"])
def test_an_unconfirmed_result_is_hidden_alike_by_the_pages_and_the_api(
        league: League, unconfirmed: Match, who: str) -> None:
    user = {"anonymous": None, "someone": UserFactory(is_staff=False),
            "another_organiser": league.cup_organiser}[who]

    pages = page_results(unconfirmed, user)
    api = api_results(league, unconfirmed, user)

    assert pages["match_page"] is None and pages["round_page"] is None
    assert api["totals"] is None
    assert pages["awaiting"] and pages["status"] == "awaiting confirmation"
    assert api["status"] == "awaiting"
    assert league.client(user).get(
        f"/api/v1/matches/{unconfirmed.pk}/?include=record").json()["record"] is None


def test_its_organisers_see_it_flagged_in_the_api_and_the_public_view_on_the_pages(
        league: League, unconfirmed: Match) -> None:
    for user in (league.organiser, UserFactory(is_superuser=True)):
        api = api_results(league, unconfirmed, user)
        assert api["totals"] == TOTALS and api["confirmed"] is False
        assert page_results(unconfirmed, user)["match_page"] is None


def test_the_standings_count_it_once_confirmed_on_the_pages_and_in_the_api_alike(
        league: League, unconfirmed: Match) -> None:
    before = api_standings(league)
    assert page_standings(league) == before

    services.standings_rebuild(tournament=league.tournament)
    assert page_standings(league) == api_standings(league) == before

    second = UserFactory()
    league.tournament.organisers.add(second)
    services.result_confirm(result=unconfirmed.result, user=second)
    services.standings_rebuild(tournament=league.tournament)

    teams = {unconfirmed.team_a_id, unconfirmed.team_b_id}
    after = {team: played + (team in teams) for team, played in before.items()}
    assert page_standings(league) == api_standings(league) == after
    pages, api = page_results(unconfirmed), api_results(league, unconfirmed)
    assert pages["match_page"] == pages["round_page"] == api["totals"] == TOTALS
    assert api["confirmed"] is True and pages["status"] == "done"
