"""A round's tables a page at a time, the viewer's own first, and its live fragment
answered 304 from the version of what it shows, without drawing it."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape

from games.live import service
from games.live.models import LiveTable
from tournaments import selectors, services
from tournaments.models import Match, Player, Result, Round, Seat, Tournament
from tournaments.selectors import paging

from ..tournaments.factories import tournament_with_teams
from . import WIN_SHEET, enter_sheet, organiser, published_round

pytestmark = pytest.mark.django_db


def live_url(tournament: Tournament, page: int | None = None) -> str:
    url = reverse("tournaments:round_live", args=[tournament.pk, 1])
    return url if page is None else f"{url}?page={page}"


def page_url(tournament: Tournament, page: int | None = None) -> str:
    url = reverse("tournaments:round_detail", args=[tournament.pk, 1])
    return url if page is None else f"{url}?page={page}"


def table_numbers(html: str) -> list[int]:
    """The tables the HTML shows, in order (the cards' headings)."""
    return [int(n) for n in re.findall(r'<h3 id="(?:own-)?table-\d+">\s*<span>Table (\d+)',
                                       html)]


@pytest.fixture
def small_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(paging, "PAGE_SIZE", 2)


@pytest.fixture
def ten_teams(small_pages: None) -> dict[str, Any]:
    """Round 1 of ten teams published: five tables, three pages of two."""
    user = organiser()
    tournament = tournament_with_teams(10, name="Paged Cup", organisers=[user])
    return {"user": user, "tournament": tournament, "round": published_round(tournament)}


def test_a_page_shows_its_tables_and_links_the_others_without_script(
        client: Client, ten_teams: dict[str, Any]) -> None:
    tournament = ten_teams["tournament"]

    first = client.get(page_url(tournament)).content.decode()
    last = client.get(page_url(tournament, 3)).content.decode()

    assert table_numbers(first) == [1, 2] and table_numbers(last) == [5]
    assert 'href="?page=2"' in first and 'href="?page=3"' in first
    assert 'aria-current="page">3<' in last and 'href="?page=1"' in last
    assert "Tables 5 to 5 of 5" in last
    # the page's script polls the fragment of the page shown
    assert f'data-live-url="{escape(live_url(tournament, 3))}"' in last
    assert f'data-live-url="{live_url(tournament)}"' in first
    assert table_numbers(client.get(live_url(tournament, 3)).content.decode()) == [5]


def test_a_round_of_one_page_shows_no_page_links(client: Client) -> None:
    tournament = tournament_with_teams(4, name="Small Cup")
    published_round(tournament)

    html = client.get(page_url(tournament)).content.decode()

    assert table_numbers(html) == [1, 2] and "?page=" not in html


@pytest.mark.parametrize(("page", "said"), [
    ("x", "page: expected a whole number from 1"), ("0", "page: expected a whole number"),
    ("4", "page: round 1 has 3 page(s) of tables, not 4")])
def test_a_page_that_is_not_there_is_said_plainly(
        client: Client, ten_teams: dict[str, Any], page: str, said: str) -> None:
    tournament = ten_teams["tournament"]
    for url in (page_url(tournament), live_url(tournament)):
        response = client.get(f"{url}?page={page}")
        assert response.status_code == 400, url
        assert escape(said) in response.content.decode(), url


def test_the_viewers_own_table_comes_first_on_every_page(
        client: Client, ten_teams: dict[str, Any]) -> None:
    tournament, round = ten_teams["tournament"], ten_teams["round"]
    match = round.matches.get(table__number=5)
    person = get_user_model().objects.create_user("eve", password="pw-eve-12345")
    match.team_b.player_b.user = person
    match.team_b.player_b.save()
    assert "Your table" not in client.get(page_url(tournament)).content.decode()

    client.force_login(person)
    page = client.get(page_url(tournament)).content.decode()
    fragment = client.get(live_url(tournament, 3)).content.decode()

    assert "Your table" in page and table_numbers(page) == [5, 1, 2]
    # on its own page it is there twice, the ids of its headings apart
    assert table_numbers(fragment) == [5, 5]
    assert f'id="own-table-{match.pk}"' in fragment and f'id="table-{match.pk}"' in fragment


def test_a_seat_taken_by_another_player_is_their_own_table_too(
        client: Client, ten_teams: dict[str, Any]) -> None:
    match = ten_teams["round"].matches.get(table__number=4)
    person = get_user_model().objects.create_user("sub", password="pw-sub-12345")
    stand_in = Player.objects.create(name="Stand In", handle="stand-in", user=person)
    Seat.objects.filter(match=match, position=3).update(player=stand_in, substitute=True)
    client.force_login(person)
    assert table_numbers(client.get(page_url(ten_teams["tournament"])).content.decode()) == [
        4, 1, 2]


# -- the version: a 304 costs a few queries and no drawing, and never hides a change -------


def not_modified_queries(client: Client, tournament: Tournament, tag: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(live_url(tournament), HTTP_IF_NONE_MATCH=tag)
    assert response.status_code == 304 and response.content == b""
    return len(queries)


def test_an_unchanged_fragment_is_not_drawn_and_costs_the_same_queries_at_any_size(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    counts = []
    for teams in (8, 128):  # 4 and 64 tables
        tournament = tournament_with_teams(teams)
        published_round(tournament)
        person = get_user_model().objects.create_user(f"p{teams}", password="pw-12345678")
        player = tournament.entries.get(seed=teams).team.player_a
        player.user = person
        player.save()
        client.force_login(person)
        tag = client.get(live_url(tournament))["ETag"]
        with monkeypatch.context() as drawing:
            drawing.setattr(selectors, "round_tables", _no_drawing)
            counts.append(not_modified_queries(client, tournament, tag))
    assert counts[0] == counts[1] <= 8, counts


def _no_drawing(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("an unchanged fragment was drawn")


def test_the_page_and_its_fragment_agree_on_the_version(
        client: Client, ten_teams: dict[str, Any]) -> None:
    tournament = ten_teams["tournament"]
    for page in (1, 2):
        tag = client.get(live_url(tournament, page))["ETag"]
        html = client.get(page_url(tournament, page)).content.decode()
        assert f'data-live-etag="{escape(tag)}"' in html
    assert client.get(live_url(tournament, 1))["ETag"] != tag  # each page its own


def venue_round() -> dict[str, Any]:
    user = organiser()
    tournament = tournament_with_teams(4, name="Venue Cup", organisers=[user])
    round = published_round(tournament)
    return {"user": user, "tournament": tournament, "round": round,
            "match": round.matches.get(table__number=1)}


def online_round() -> dict[str, Any]:
    """Two teams at one live table, nobody with a login: bots play every seat."""
    user = organiser()
    tournament = tournament_with_teams(2, name="Online Cup", organisers=[user],
                                       play=Tournament.Play.ONLINE, bot_level="greedy")
    round = published_round(tournament)
    match = round.matches.get()
    return {"user": user, "tournament": tournament, "round": round, "match": match,
            "table": LiveTable.objects.get(match=match)}


def enter_result(game: dict[str, Any]) -> str:
    enter_sheet(game["match"], WIN_SHEET, game["user"])
    return ">done<"


def confirm_result(game: dict[str, Any]) -> None:
    services.result_confirm(result=Result.objects.get(match=game["match"]), user=organiser())


def venue_round_played() -> dict[str, Any]:
    game = venue_round()
    enter_result(game)
    return game


def correct_result(game: dict[str, Any]) -> str:
    result = Result.objects.get(match=game["match"])
    result.total_a, result.total_b = 30, 170
    result.save()
    return '"total">30 '  # team A's total, beside its winner's mark


def seat_a_bot(game: dict[str, Any]) -> str:
    Seat.objects.filter(match=game["match"], position=1).update(
        player=None, bot_level="greedy", substitute=True)
    return "substitute for"


def rename_team(game: dict[str, Any]) -> str:
    team = game["match"].team_a
    team.name = "Renamed Team"
    team.save()
    return "Renamed Team"


def rename_player(game: dict[str, Any]) -> str:
    player = game["match"].seats.get(position=2).player
    player.name = "Renamed Player"
    player.save()
    return "Renamed Player"


def complete_round(game: dict[str, Any]) -> str:
    for match in game["round"].matches.all():
        enter_sheet(match, WIN_SHEET, game["user"])
    services.round_complete(round=game["round"], user=game["user"])
    return 'data-live="off"'


def bot_acts(game: dict[str, Any]) -> str:
    table = game["table"]
    before = service.progress(table)
    while service.progress(LiveTable.objects.get(pk=table.pk)).hand_no == before.hand_no:
        service.bot_move(table.pk, LiveTable.objects.get(pk=table.pk).seq)
    return "Hand 2 of 5"


def one_action(game: dict[str, Any]) -> str:
    table = game["table"]
    assert service.bot_move(table.pk, table.seq) is not None
    return "Hand 1 of 5"  # nothing the page shows but that the game moved on


def pause(game: dict[str, Any]) -> str:
    services.director_table_act(round=game["round"], user=game["user"], action="pause",
                                table_id=game["table"].pk)
    return "paused"


def finish_table(game: dict[str, Any]) -> str:
    LiveTable.objects.filter(pk=game["table"].pk).update(status=LiveTable.Status.FINISHED)
    return "its result follows"


CHANGES: dict[str, tuple[Callable[[], dict[str, Any]], Callable[[dict[str, Any]], str]]] = {
    "a result entered": (venue_round, enter_result),
    "a result corrected": (venue_round_played, correct_result),
    "a seat taken by a bot": (venue_round, seat_a_bot),
    "a team renamed": (venue_round, rename_team),
    "a player renamed": (venue_round, rename_player),
    "the round completed": (venue_round, complete_round),
    "a hand played at the live table": (online_round, bot_acts),
    "an action at the live table": (online_round, one_action),
    "the live table paused": (online_round, pause),
    "the live table finishing": (online_round, finish_table),
}


@pytest.mark.parametrize("change", CHANGES)
def test_whatever_the_fragment_shows_changes_its_version(client: Client, change: str) -> None:
    make, do = CHANGES[change]
    game = make()
    url = live_url(game["tournament"])
    before = client.get(url)
    assert client.get(url, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 304

    shown = do(game)

    after = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"], change
    html = after.content.decode()
    assert shown in html, change
    if change != "an action at the live table":
        assert shown not in before.content.decode(), change
    assert client.get(url, HTTP_IF_NONE_MATCH=after["ETag"]).status_code == 304


def test_a_result_waiting_for_confirmation_then_confirmed_changes_it(client: Client) -> None:
    game = venue_round()
    game["tournament"].confirm_score_sheets = True
    game["tournament"].save()
    url = live_url(game["tournament"])
    tags = [client.get(url)["ETag"]]
    enter_result(game)  # awaiting confirmation: the status shows, not the score
    waiting = client.get(url, HTTP_IF_NONE_MATCH=tags[0])
    assert waiting.status_code == 200 and "awaiting confirmation" in waiting.content.decode()
    tags.append(waiting["ETag"])

    confirm_result(game)

    confirmed = client.get(url, HTTP_IF_NONE_MATCH=tags[1])
    assert confirmed.status_code == 200 and ">done<" in confirmed.content.decode()
    assert len({*tags, confirmed["ETag"]}) == 3


def test_the_version_depends_on_the_language_and_the_viewer(client: Client) -> None:
    game = venue_round()
    url = live_url(game["tournament"])
    english = client.get(url)["ETag"]
    finnish = client.get(url, HTTP_ACCEPT_LANGUAGE="fi")
    assert finnish.status_code == 200 and finnish["ETag"] != english
    assert client.get(url, HTTP_IF_NONE_MATCH=english,
                      HTTP_ACCEPT_LANGUAGE="fi").status_code == 200

    person = get_user_model().objects.create_user("own", password="pw-own-12345")
    player = game["match"].team_a.player_a
    player.user = person
    player.save()
    client.force_login(person)
    own = client.get(url, HTTP_IF_NONE_MATCH=english)
    assert own.status_code == 200 and "Your table" in own.content.decode()


def test_a_secret_rounds_version_tells_nothing_of_its_games(client: Client) -> None:
    """A duplicate round still secret: a table finishing shows nowhere, not even in the
    fragment's ETag; releasing the boards shows it."""
    user = organiser()
    tournament = tournament_with_teams(4, name="Secret Cup", organisers=[user],
                                       duplicate=Tournament.Duplicate.MATCHPOINTS)
    round = published_round(tournament)
    assert round.seed is not None
    url = live_url(tournament)
    tag = client.get(url)["ETag"]
    match = round.matches.get(table__number=1)

    enter_sheet(match, WIN_SHEET, user)

    assert Match.objects.get(pk=match.pk).status == Match.Status.DONE
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    Round.objects.filter(pk=round.pk).update(boards_released=True)
    released = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert released.status_code == 200 and ">done<" in released.content.decode()


def test_the_fragment_reads_no_game_record(client: Client) -> None:
    """A played match's record is the largest thing it keeps, and the round's page shows
    none of it."""
    game = venue_round_played()
    with CaptureQueriesContext(connection) as queries:
        html = client.get(live_url(game["tournament"])).content.decode()
    assert ">done<" in html
    assert not [q["sql"] for q in queries if '"tournaments_result"."record"' in q["sql"]]


@pytest.mark.parametrize("duplicate", [Tournament.Duplicate.OFF, Tournament.Duplicate.MATCHPOINTS])
def test_a_drawn_fragment_costs_the_same_queries_at_any_size(client: Client,
                                                              duplicate: str) -> None:
    """Whether the round's games are secret is asked once for the round, not once a table
    (a duplicate round's), and each table's seats and game are read with the others."""
    counts = []
    for teams in (8, 32):  # 4 and 16 tables
        user = organiser()
        tournament = tournament_with_teams(teams, organisers=[user], duplicate=duplicate)
        round = published_round(tournament)
        enter_sheet(round.matches.get(table__number=1), WIN_SHEET, user)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(live_url(tournament)).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
