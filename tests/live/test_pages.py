"""The pages of live tables: "Play now", the table page, and a finished game's replay and
record (refused while the game is in play: they hold every card)."""

import json
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.live import service
from games.live.models import LiveTable
from games.live.state import replay
from tests.pages.test_markup import Audit

from .conftest import FIRST, SEED, assert_record_refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(player: Any) -> Client:
    client = Client()
    client.force_login(player)
    return client


@pytest.fixture
def table(player: Any) -> LiveTable:
    return service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)


def config_of(response: Any) -> dict[str, Any]:
    found = re.search(r'<script id="table-config" type="application/json">(.*?)</script>',
                      response.content.decode(), re.S)
    assert found, "the page carries its configuration"
    return dict(json.loads(found.group(1)))


def audited(response: Any) -> None:
    audit = Audit()
    audit.feed(response.content.decode())
    assert audit.h1 == 1
    assert [i for i, n in audit.ids.items() if n > 1] == []
    assert [c for c in audit.controls if c not in audit.labels] == []
    assert all(audit.buttons), "a button without a name"


def test_the_home_page_offers_play_now_or_a_login(client: Client, alice: Client) -> None:
    anonymous = client.get(reverse("home")).content.decode()
    assert "Log in to play" in anonymous and 'action="/play/"' not in anonymous
    page = alice.get(reverse("home"))
    html = page.content.decode()
    assert 'action="/play/"' in html and 'name="csrfmiddlewaretoken"' in html
    assert all(f'value="{name}"' in html for name in ("random", "greedy", "search"))
    audited(page)


def test_play_now_creates_a_table_and_goes_to_it(alice: Client, player: Any) -> None:
    response = alice.post(reverse("live:play_now"), {"bot": "random"})
    table = LiveTable.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tables/{table.pk}/"
    seats = list(table.seats.order_by("seat"))
    assert [s.user for s in seats] == [player, None, None, None]
    assert [s.bot for s in seats] == ["", "random", "random", "random"]


def test_play_now_needs_a_login_and_a_post(client: Client, alice: Client) -> None:
    response = client.post(reverse("live:play_now"), {"bot": "greedy"})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert alice.get(reverse("live:play_now")).status_code == 405
    assert not LiveTable.objects.exists()


def test_play_now_csrf_is_checked(player: Any) -> None:
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(player)
    assert strict.post(reverse("live:play_now"), {"bot": "greedy"}).status_code == 403
    assert not LiveTable.objects.exists()


@pytest.mark.parametrize("bot", ["grandmaster", ""])
def test_a_bad_bot_level_is_a_clear_error(alice: Client, bot: str) -> None:
    response = alice.post(reverse("live:play_now"), {"bot": bot})
    assert response.status_code == 400
    html = response.content.decode()
    assert "The game could not be started" in html
    assert ("grandmaster is not one of the available choices" in html if bot
            else "This field is required" in html)
    assert not LiveTable.objects.exists()


def test_the_seat_holder_plays_and_everyone_else_watches(
        client: Client, alice: Client, table: LiveTable) -> None:
    mine = alice.get(reverse("live:table", args=[table.pk]))
    assert mine.status_code == 200 and "Your hand" in mine.content.decode()
    config = config_of(mine)
    assert config["seat"] == FIRST and config["ws"] == f"/ws/tables/{table.pk}/"
    assert config["players"][FIRST] == "alice" and config["humans"][FIRST]
    audited(mine)
    # the score table's headers name the teams as the page is served (axe: no empty header)
    mine_team = FIRST % 2  # R1.1: seats 0 and 2 are team 0
    assert f'<th scope="col" data-team="{mine_team}">Your team</th>' in mine.content.decode()
    staff = get_user_model().objects.create_user("bob", password="pw-bob-12345", is_staff=True)
    other = Client()
    other.force_login(staff)
    for watcher in (client, other):
        page = watcher.get(reverse("live:table", args=[table.pk]))
        assert page.status_code == 200 and "Your hand" not in page.content.decode()
        assert config_of(page)["seat"] is None
        assert '<th scope="col" data-team="0">Seats 0 and 2</th>' in page.content.decode()
    # the page itself holds no card: the hand comes through the websocket, seat by seat
    hand = replay(SEED, []).game.observation(FIRST).hand
    assert not any(re.search(rf"\b{c.code}\b", mine.content.decode()) for c in hand)


def test_the_table_page_speaks_finnish(alice: Client, table: LiveTable) -> None:
    page = alice.get(reverse("live:table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="fi")
    html = page.content.decode()
    assert "Sinun kätesi" in html and "Sinun vuorosi" in html


def test_an_unknown_table_is_not_found(client: Client) -> None:
    assert client.get(reverse("live:table", args=[9999])).status_code == 404
    assert client.get(reverse("live:replay", args=[9999])).status_code == 404


def test_the_replay_and_record_of_a_table_in_play_are_refused(
        alice: Client, table: LiveTable) -> None:
    service.table_act(table.pk, FIRST, f"{FIRST} take", "c1")
    assert_record_refused(alice, table, "still being played")


def finish(table: LiveTable, act: Any) -> None:
    """Play the game out: the human lays down when it can, else discards; bots answer."""
    n = 0
    while (view := service.update_since(table.pk, FIRST, 0).view)["status"] == "playing":
        legal = view["legal"]
        act(table.pk, FIRST, next((a for a in legal if " discard " not in a), legal[0]), f"h{n}")
        n += 1


def test_a_finished_game_shows_its_result_replay_and_record(
        client: Client, alice: Client, table: LiveTable, act: Any) -> None:
    finish(table, act)
    table.refresh_from_db()
    page = client.get(reverse("live:replay", args=[table.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "replay.js" in html and "replay-data" not in html  # frames come on demand
    assert reverse("live:replay_data", args=[table.pk]) in html
    frames = client.get(reverse("live:replay_data", args=[table.pk]))
    assert frames.status_code == 200 and len(frames.json()["hands"]) == 5
    totals = table.record["result"]["totals"]
    assert re.search(rf"Total</th><td class=\"num\">{totals[0]}</td><td class=\"num\">"
                     rf"{totals[1]}</td>", html)
    audited(page)
    record = client.get(reverse("live:record", args=[table.pk]))
    assert record.status_code == 200 and record.json() == table.record
    # the table page now offers the replay and, to its player, another game
    over = alice.get(reverse("live:table", args=[table.pk])).content.decode()
    assert "Replay this game" in over and "Play again" in over
    assert re.search(r'<option value="greedy" selected>', over)
