"""The tournament list, a tournament's page, its rounds, and what is not public."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import Round, Tournament

from ..tournaments.factories import TournamentFactory, tournament_with_teams
from . import bot_match, swiss_cup

pytestmark = pytest.mark.django_db


def page(client: Client, name: str, *args: object) -> str:
    response = client.get(reverse(f"tournaments:{name}", args=args))
    assert response.status_code == 200, response.content[:500]
    return response.content.decode()


def text(html: str) -> str:
    """The page's words, without tags, with spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_it_lists_tournaments_by_status(client: Client) -> None:
    TournamentFactory(name="Now Open", status=Tournament.Status.RUNNING)
    TournamentFactory(name="Next Month", status=Tournament.Status.UPCOMING)
    TournamentFactory(name="Last Year", status=Tournament.Status.FINISHED)

    html = page(client, "tournament_list")

    running, upcoming, finished = (html.index(h) for h in (">Running<", ">Upcoming<",
                                                            ">Finished<"))
    assert running < html.index("Now Open") < upcoming < html.index("Next Month") < finished
    assert finished < html.index("Last Year")


def test_the_list_shows_a_tournaments_dates(client: Client) -> None:
    import datetime

    TournamentFactory(name="Dated", starts_on=datetime.date(2027, 5, 2),
                      ends_on=datetime.date(2027, 5, 3))

    words = text(page(client, "tournament_list"))

    assert "Dated Swiss · May 2, 2027 – May 3, 2027 ·" in words


def test_a_tournament_page_shows_its_format_settings_rounds_and_teams(client: Client) -> None:
    cup = swiss_cup()
    tournament = cup["tournament"]

    html = page(client, "tournament_detail", tournament.pk)

    words = text(html)
    assert "Sheet Cup" in words and "Swiss" in words
    assert "win 2, draw 1, loss 0" in words
    assert "Game score difference, Buchholz (opponents&#x27; points)" in words
    assert reverse("tournaments:round_detail", args=[tournament.pk, 1]) in html
    assert reverse("tournaments:round_detail", args=[tournament.pk, 2]) not in html  # a draft
    for entry in tournament.entries.select_related("team__player_a"):
        assert entry.team.name in words and entry.team.player_a.name in words


def test_a_round_page_shows_each_table_with_its_seats_status_and_result(client: Client) -> None:
    cup = swiss_cup()
    tournament, round = cup["tournament"], cup["round"]

    html = page(client, "round_detail", tournament.pk, 1)

    words = text(html)
    for match in round.matches.select_related("table").prefetch_related("seats__player"):
        assert f"Table {match.table.number}" in words
        for seat in match.seats.all():
            assert f"Seat {seat.position}: {seat.player.name}" in words
        assert reverse("tournaments:match_detail", args=[match.pk]) in html
    assert words.count("done") >= 2 and "200" in words


def test_bots_and_substitutes_are_marked_on_the_round_page(client: Client) -> None:
    data = bot_match()

    words = text(page(client, "round_detail", data["tournament"].pk, 1))

    assert words.count("bot") >= 4
    team = data["match"].team_a
    assert f"substitute for {team.player_a.name}" in words
    assert f"substitute for {team.player_b.name}" in words


def test_a_bot_team_opponent_is_marked(client: Client) -> None:
    tournament = tournament_with_teams(3, bye_policy=Tournament.ByePolicy.BOT, rounds_planned=1)
    from . import published_round

    published_round(tournament)

    words = text(page(client, "round_detail", tournament.pk, 1))
    assert "House bots" in words and "bot team" in words


def test_drafts_are_not_public(client: Client) -> None:
    cup = swiss_cup()
    tournament, draft = cup["tournament"], cup["draft"]
    assert draft.status == Round.Status.DRAFT
    match = draft.matches.filter(is_bye=False).first()

    for url in (reverse("tournaments:round_detail", args=[tournament.pk, draft.number]),
                reverse("tournaments:round_live", args=[tournament.pk, draft.number]),
                reverse("tournaments:match_detail", args=[match.pk]),
                reverse("tournaments:match_live", args=[match.pk]),
                reverse("tournaments:match_record", args=[match.pk])):
        assert client.get(url).status_code == 404, url


@pytest.mark.parametrize("name, args", [
    ("tournament_detail", [999]), ("round_detail", [999, 1]), ("round_live", [999, 1]),
    ("standings", [999]), ("standings_live", [999]), ("bracket", [999]),
    ("crosstable", [999]), ("match_detail", [999]), ("match_live", [999]),
    ("match_record", [999]), ("team_detail", [999]), ("player_detail", [999]),
])
def test_unknown_ids_are_not_found(client: Client, name: str, args: list[int]) -> None:
    assert client.get(reverse(f"tournaments:{name}", args=args)).status_code == 404


def test_a_round_that_does_not_exist_is_not_found(client: Client) -> None:
    cup = swiss_cup()
    url = reverse("tournaments:round_detail", args=[cup["tournament"].pk, 7])
    assert client.get(url).status_code == 404


def test_the_header_links_to_the_tournaments(client: Client) -> None:
    assert reverse("tournaments:tournament_list") in client.get("/").content.decode()
