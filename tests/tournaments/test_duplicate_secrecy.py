"""Secrecy of a duplicate round: while one of its three tables is still playing, nothing of
its boards or of any result on them shows anywhere (pages, API, exports, replays) to the
public or to a player of the tournament, even one whose table has finished; the organiser
sees them in the API. Once the last table has finished, all of it shows.

Every check is made twice with the same helper: after the release it must find its marker
(so it can fail), before it must not."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.models import Match, Round, Tournament

from .factories import UserFactory, tournament_with_teams
from .test_duplicate_venue import SHEETS
from .test_match_deals import played_on

pytestmark = pytest.mark.django_db


@dataclass
class Round1:
    tournament: Tournament
    round: Round
    matches: list[Match]  # by table: 1 has a game record, 2 a score sheet, 3 nothing yet
    organiser: Any
    player: Any  # a player of table 1, which has finished


def sheet_of(table: int) -> tuple[list[list[int]], list[int | None]]:
    return ([[a, b] for a, b, _ in SHEETS[table]], [out for _, _, out in SHEETS[table]])


@pytest.fixture
def played() -> Round1:
    organiser = UserFactory()
    tournament = tournament_with_teams(6, organisers=[organiser], duplicate="matchpoints",
                                       tiebreaks=["butler"], rounds_planned=2)
    round = services.round_pair_next(tournament=tournament, user=organiser)
    services.round_publish(round=round, user=organiser)
    matches = list(round.matches.select_related("table", "team_a", "team_b")
                   .order_by("table__number"))
    assert round.seed is not None and {m.seed for m in matches} == {round.seed}
    services.match_submit_record(match=matches[0], record=played_on(round.seed),
                                 user=organiser)
    hands, outs = sheet_of(2)
    services.match_submit_score_sheet(match=matches[1], hand_scores=hands, out_seats=outs,
                                      user=organiser)
    player = matches[0].seats.get(position=0).player
    player.user = UserFactory(is_staff=False)
    player.save()
    services.standings_rebuild(tournament=tournament)
    return Round1(tournament, round, matches, organiser, player.user)


def finish(game: Round1) -> None:
    hands, outs = sheet_of(3)
    services.match_submit_score_sheet(match=game.matches[2], hand_scores=hands,
                                      out_seats=outs, user=game.organiser)
    services.standings_rebuild(tournament=game.tournament)


def client_of(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def text(client: Client, path: str) -> str:
    response = client.get(path)
    return f"{response.status_code} {response.content.decode()}"


# Table 2's sheet (team A's points, team B's): 20 and 160 in all, so its match shows
# "20–160" (or its two totals) wherever its score is; board 3 was 0 to 60 there, a result
# of +60 for team A.
Check = Callable[[Client, Round1], bool]


def checks(game: Round1) -> dict[str, Check]:
    t, first, second = game.tournament, game.matches[0], game.matches[1]
    team = second.team_a

    def page(path: str, marker: str) -> Check:
        return lambda client, _game: marker in text(client, path)

    def api(path: str, found: Callable[[Any], bool]) -> Check:
        def check(client: Client, _game: Round1) -> bool:
            response = client.get(path, HTTP_ACCEPT="application/json")
            return response.status_code == 200 and found(response.json())
        return check

    def standings_row(client: Client, _game: Round1) -> bool:
        # the team's line with one match played (before: every team's line is empty)
        page = text(client, reverse("tournaments:standings", args=[t.pk]))
        line = re.search(rf'<tr data-team="{team.pk}".*?</tr>', page, re.S)
        return line is not None and '<td class="num" data-sort-value="1">1</td>' in line[0]

    board = reverse("tournaments:board_detail", args=[t.pk, 3])
    return {
        "round page links the boards": page(
            reverse("tournaments:round_detail", args=[t.pk, 1]), f'href="{board}"'),
        "round page scores": page(reverse("tournaments:round_detail", args=[t.pk, 1]),
                                  '<span class="total">160'),
        "board page traveller": page(board, '<td class="num board-scores">0–60</td>'),
        "match page scores": page(reverse("tournaments:match_detail", args=[second.pk]),
                                  "Scores per hand"),
        "match page replay": page(reverse("tournaments:match_detail", args=[first.pk]),
                                  "data-replay-url"),
        "replay.json": page(reverse("tournaments:match_replay", args=[first.pk]), '"hands"'),
        "record.json": page(reverse("tournaments:match_record", args=[first.pk]),
                            '"push-record/1"'),
        "team page boards": page(reverse("tournaments:team_detail", args=[team.pk]),
                                 "team-board-percentage"),
        "team page results": page(reverse("tournaments:team_detail", args=[team.pk]),
                                  "20–160"),
        "player page results": page(
            reverse("tournaments:player_detail", args=[team.player_a_id]), "20–160"),
        "standings page": standings_row,
        "crosstable": page(reverse("tournaments:crosstable", args=[t.pk]), "20–160"),
        "home page": page(reverse("home"), f"{team.name} 20</span>"),
        "tournament page links the boards": page(
            reverse("tournaments:tournament_detail", args=[t.pk]),
            f'href="{reverse("tournaments:board_detail", args=[t.pk, 1])}"'),
        "API match": api(f"/api/v1/matches/{second.pk}/",
                         lambda data: data["result"] is not None),
        "API match list": api(f"/api/v1/matches/?round={game.round.pk}",
                              lambda data: any(m["result"] for m in data["results"])),
        "API round": api(f"/api/v1/rounds/{game.round.pk}/",
                         lambda data: any(m["result"] for m in data["matches"])),
        "API record": api(f"/api/v1/matches/{first.pk}/record/",
                          lambda data: data.get("format") == "push-record/1"),
        "API match with record": api(f"/api/v1/matches/{first.pk}/?include=record",
                                     lambda data: data.get("record") is not None),
        "API standings": api(f"/api/v1/tournaments/{t.pk}/standings/",
                             lambda data: any(row["played"] for row in data["rows"])),
        "API boards": api(f"/api/v1/tournaments/{t.pk}/boards/",
                          lambda data: bool(data["rows"]) and bool(data["boards"])),
        "standings CSV": page(f"/api/v1/tournaments/{t.pk}/standings/?format=csv",
                              f",{team.name},2,1,1,"),
        "boards CSV": page(f"/api/v1/tournaments/{t.pk}/boards/?format=csv",
                           f"3,1,0,{team.pk},{team.name},{second.pk},2,60,"),
        "boards NDJSON": page(f"/api/v1/tournaments/{t.pk}/boards/?format=ndjson",
                              f'"team_id":{team.pk}'),
    }


def shown(game: Round1, user: Any) -> set[str]:
    client = client_of(user)
    return {name for name, check in checks(game).items() if check(client, game)}


def test_everything_shows_once_the_last_table_has_finished(played: Round1) -> None:
    finish(played)
    every = set(checks(played))
    assert shown(played, None) == every
    assert shown(played, played.player) == every


def test_nothing_of_the_round_shows_while_a_table_is_playing(played: Round1) -> None:
    assert shown(played, None) == set()
    assert shown(played, played.player) == set()  # their own table has finished


def test_the_organiser_sees_the_round_in_the_api_and_the_pages_show_the_public_view(
        played: Round1) -> None:
    # The standings leave the round out for everyone until it is released.
    assert shown(played, played.organiser) == {
        "API match", "API match list", "API round", "API record", "API match with record",
        "API boards", "boards CSV", "boards NDJSON"}


def test_a_secret_board_page_is_a_404_that_says_why(played: Round1) -> None:
    path = reverse("tournaments:board_detail", args=[played.tournament.pk, 1])
    for user in (None, played.player, played.organiser):
        response = client_of(user).get(path)
        assert response.status_code == 404
        assert "secret until every table has finished" in response.content.decode()
    finish(played)
    assert client_of(None).get(path).status_code == 200
    # a board the tournament does not play (round 2 is not drawn) is a plain 404
    response = client_of(None).get(reverse("tournaments:board_detail",
                                           args=[played.tournament.pk, 6]))
    assert response.status_code == 404 and "no public board" in response.content.decode()

