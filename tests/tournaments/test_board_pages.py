"""A duplicate board's page (deal, traveller, frequency table), a team's boards and the
API's boards export, on the venue round of test_duplicate_venue (three tables, every
result worked out by hand there)."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import HandState
from tournaments import services
from tournaments.models import Match
from tournaments.selectors.boards import round_boards

from .factories import UserFactory, tournament_with_teams
from .test_duplicate_venue import SHEETS

pytestmark = pytest.mark.django_db


def venue_round() -> list[Match]:
    """Round 1 of a duplicate tournament of six teams, every table's sheet entered, by
    table."""
    organiser = UserFactory()
    tournament = tournament_with_teams(6, organisers=[organiser], duplicate="matchpoints",
                                       tiebreaks=["butler"], rounds_planned=2)
    round = services.round_pair_next(tournament=tournament, user=organiser)
    services.round_publish(round=round, user=organiser)
    played = list(round.matches.select_related("table", "team_a", "team_b", "round")
                  .order_by("table__number"))
    for match in played:
        sheet = SHEETS[match.table.number]
        services.match_submit_score_sheet(match=match, hand_scores=[[a, b] for a, b, _ in sheet],
                                          out_seats=[out for _, _, out in sheet],
                                          user=organiser)
    return played


@pytest.fixture
def matches() -> list[Match]:
    return venue_round()


def cells(html: str, match: Match) -> list[str]:
    row = html.split(f'<tr data-match="{match.pk}">')[1].split("</tr>")[0]
    return [re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]


def test_a_board_page_shows_the_deal_the_traveller_and_the_frequencies(
        matches: list[Match]) -> None:
    tournament = matches[0].round.tournament
    page = Client().get(reverse("tournaments:board_detail", args=[tournament.pk, 1]))
    assert page.status_code == 200
    html = page.content.decode()
    board = round_boards(matches[0].round)[0]
    dealt = HandState.deal(board.hand, board.dealer, board.pack)
    assert f"Seat {board.dealer} deals." in html
    # each seat's dealt cards as a hand diagram: a line a suit, highest first, and jokers
    for seat in range(4):
        hand = html.split(f'id="board-seat-{seat}"')[1].split("</section>")[0]
        lines = [re.sub(r"<[^>]+>", "", line).split(":", 1)[1].strip()
                 for line in hand.split("<li>")[1:5]]
        for suit, line in zip("SHDC", lines, strict=True):
            ranks = sorted((card.rank if card.rank != 1 else 14 for card in dealt.hands[seat]
                            if card.suit == suit and not card.is_joker), reverse=True)
            written = {14: "A", 13: "K", 12: "Q", 11: "J"}
            assert line == (" ".join(written.get(r, str(r)) for r in ranks) or "—none"), line
        jokers = sum(card.is_joker for card in dealt.hands[seat])
        assert (f"{jokers} joker" in hand) == bool(jokers)
    assert '<span class="suit red" aria-hidden="true">♥</span>' in html
    # board 1 in direction 0: 50, 50 and 10 (tables 1, 2, 3): 3, 3 and 0 matchpoints of 4
    first = cells(html, matches[0])
    assert first[3:5] == ["0–50", "50"]
    assert first[5:7] == ["3", "75"] and first[9:11] == ["1", "25"]
    assert cells(html, matches[2])[5:7] == ["0", "0"]
    frequencies = html.split('id="frequencies-0"')[1].split("</table>")[0]
    assert "<td class=\"num\">50</td><td class=\"num\">2</td><td class=\"num\">3</td>" \
        in frequencies
    assert "<td class=\"num\">10</td><td class=\"num\">1</td><td class=\"num\">0</td>" \
        in frequencies
    round_page = Client().get(reverse("tournaments:round_detail", args=[tournament.pk, 1]))
    assert reverse("tournaments:board_detail", args=[tournament.pk, 5]) in \
        round_page.content.decode()


def test_a_team_page_lists_its_boards_with_its_percentage(matches: list[Match]) -> None:
    team = matches[0].team_a  # direction 0 at table 1: 75, 50, 0, 75 and 0 percent
    html = Client().get(reverse("tournaments:team_detail", args=[team.pk])).content.decode()
    found = html.split('class="num team-board-percentage">')[1:]
    assert [cell.split("<")[0] for cell in found] == ["75", "50", "0", "75", "0"]


def api(path: str, **extra: Any) -> Any:
    return Client().get(path, **extra)


def test_the_boards_export_ranks_each_result_in_its_board_and_direction(
        matches: list[Match]) -> None:
    tournament = matches[0].round.tournament
    data = api(f"/api/v1/tournaments/{tournament.pk}/boards/").json()
    assert [board["number"] for board in data["boards"]] == [1, 2, 3, 4, 5]
    assert len(data["boards"][0]["pack"]) == 108
    rows = [row for row in data["rows"] if row["board"] == 1 and row["direction"] == 0]
    assert [(row["table"], row["result"], row["matchpoints"], row["percentage"], row["rank"])
            for row in rows] == [(1, 50, 3, 75, 1), (2, 50, 3, 75, 1), (3, 10, 0, 0, 3)]
    assert rows[0]["butler"] == pytest.approx(50 - 110 / 3)
    assert len(data["rows"]) == 5 * 2 * 3

    text = api(f"/api/v1/tournaments/{tournament.pk}/boards/?format=csv")
    assert text["Content-Type"].startswith("text/csv")
    parsed = list(csv.DictReader(io.StringIO(text.content.decode())))
    assert [int(row["rank"]) for row in parsed] == [row["rank"] for row in data["rows"]]
    lines = api(f"/api/v1/tournaments/{tournament.pk}/boards/",
                HTTP_ACCEPT="application/x-ndjson").content.decode().splitlines()
    assert [json.loads(line) for line in lines] == data["rows"]


def test_a_tournament_without_duplicate_rounds_has_no_boards() -> None:
    tournament = tournament_with_teams(2)
    data = api(f"/api/v1/tournaments/{tournament.pk}/boards/").json()
    assert (data["duplicate"], data["boards"], data["rows"]) == ("", [], [])
    assert api(reverse("tournaments:board_detail", args=[tournament.pk, 1])).status_code == 404


def test_the_standings_show_matchpoint_percentages_and_butler_to_two_decimals(
        matches: list[Match]) -> None:
    tournament = matches[0].round.tournament
    services.standings_rebuild(tournament=tournament)
    html = Client().get(reverse("tournaments:standings", args=[tournament.pk])).content.decode()
    best = html.split(f'<tr data-team="{matches[0].team_b_id}"')[1].split("</tr>")[0]
    values = re.findall(r'<td class="num" data-sort-value="[^"]*">([^<]*)</td>', best)
    assert values[-2:] == ["60", "63.33"]  # 60% of the matchpoints, Butler +190/3
