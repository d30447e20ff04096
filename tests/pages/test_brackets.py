"""A knockout tournament's bracket and a round robin's crosstable."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import Match, Tournament

from . import knockout_cup, round_robin_cup, swiss_cup

pytestmark = pytest.mark.django_db


def words(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_bracket_shows_rounds_byes_results_and_who_advanced(client: Client) -> None:
    cup = knockout_cup()
    tournament = cup["tournament"]
    seeds = {e.seed: e.team for e in tournament.entries.select_related("team")}

    html = client.get(reverse("tournaments:bracket", args=[tournament.pk])).content.decode()

    text = words(html)
    assert "Quarter-finals" in text and "Semi-finals" in text and "Final" in text
    assert text.count(" bye ") >= 2 and "advances with a bye" in text
    for seed in (1, 2):
        assert f"{seeds[seed].name} (advances with a bye)" in text
    played = Match.objects.filter(round=cup["round"], is_bye=False).select_related("team_a")
    for match in played:
        assert f"{match.team_a.name} (advances)" in text
        assert reverse("tournaments:match_detail", args=[match.pk]) in html
    assert "Winner of match" in text and "Third-place match" in text
    assert "Loser of match" in text


def test_a_knockout_has_no_crosstable_and_a_league_no_bracket(client: Client) -> None:
    knockout = knockout_cup()["tournament"]
    league = swiss_cup()["tournament"]

    assert client.get(reverse("tournaments:crosstable", args=[knockout.pk])).status_code == 404
    assert client.get(reverse("tournaments:bracket", args=[league.pk])).status_code == 404


def test_a_bracket_waits_for_two_teams(client: Client) -> None:
    from ..tournaments.factories import tournament_with_teams

    tournament = tournament_with_teams(1, format=Tournament.Format.KNOCKOUT)

    html = client.get(reverse("tournaments:bracket", args=[tournament.pk])).content.decode()
    assert "at least two teams" in html


def test_a_round_robin_has_a_crosstable_of_every_pair(client: Client) -> None:
    cup = round_robin_cup()
    tournament = cup["tournament"]

    html = client.get(reverse("tournaments:crosstable",
                              args=[tournament.pk])).content.decode()

    body = html[html.index("<tbody>"):html.index("</tbody>")]
    assert body.count("<tr>") == 4
    assert body.count('class="self"') == 4  # the diagonal
    text = words(body)
    assert text.count("W 0–200") == 2 and text.count("L 200–0") == 2
    for match in cup["round"].matches.all():
        assert reverse("tournaments:match_detail", args=[match.pk]) in body


def test_the_crosstables_old_address_leads_to_it(client: Client) -> None:
    tournament = round_robin_cup()["tournament"]
    answer = client.get(f"/tournaments/{tournament.pk}/cross-table/", follow=True)
    assert answer.redirect_chain == [
        (reverse("tournaments:crosstable", args=[tournament.pk]), 301)]
    assert answer.status_code == 200
