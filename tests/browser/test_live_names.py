"""A tournament's live table in chromium names everyone at it and says what it is played for.
Spring Cup's match Aces (Aino, Cai) v Kings (Bo, Dana), where only Aino has a login: Aino's
page and a logged-out spectator's show each seat by its player's name, the seats bots play
"bot for Bo", the teams by name, and the tournament, round and match, linked (the round
link leads to the round page, which marks Bo's seat too); Aino's home page names her
partner and opponents; once the game is over, its replay names them the same way and
links the event.

The site runs in daphne, as in test_live_table.py (whose fixture this is): the bots' tasks
in its process, the in-memory channel layer. The game is finished in this process, its bots
answering at once, before the replay is opened."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from games.live import service
from games.live.models import LiveTable
from tournaments.models import Match

from ..live.conftest import FIRST
from ..tournaments.test_live_names import EVENT, NAMES, seated
from . import browser_fixture, expect  # noqa: F401  (fixtures)
from . import test_live_table as table_tests
from .axe import EVERY_IMPACT, assert_accessible
from .test_online_round import _in_thread
from .test_play_with_friends import Person, browsers

site = table_tests.site  # its daphne site

pytestmark = pytest.mark.django_db(transaction=True)

# each seat's name as the page shows it, seat 0 first: the bots' say whom they play for
SHOWN = [NAMES[(seat - FIRST) % 4] for seat in range(4)]


@pytest.fixture
def people(browser: Any, site: str) -> Iterator[Callable[[Any], Person]]:
    """Opens a browser for a user (None: logged out), closed at the end (``browsers``)."""
    with browsers(browser, site) as open_for:
        yield open_for


def _seats(page: Any) -> Any:
    return page.get_by_role("list", name="Players").get_by_role("listitem")


def _seat_names(seated: bool) -> list[re.Pattern[str]]:
    """The seats' lines as Aino (``seated``: from her seat round the table) or a spectator
    (seat 0 first) sees them: her name, the others' with the bot that plays for them and its
    level, then the cards they hold."""
    return [re.compile(rf"^Aino{' [(]you[)]' if seated else ''}\d" if name == "Aino"
                       else rf"^{name} bot for {name} greedy\d")
            for name in (NAMES if seated else SHOWN)]


def test_the_table_names_its_people_teams_and_event_to_its_player_and_a_spectator(
        people: Callable[[Any], Person], site: str) -> None:
    match, aino = _in_thread(seated)
    table = match.live_table
    assert table is not None
    player, spectator = people(aino).page, people(None).page
    for page in (player, spectator):
        page.goto(f"{site}/tables/{table.pk}/")
        # (its player's is told "Your turn" before it, on her turn)
        expect(page).to_have_title(re.compile(
            rf"(^|· )Table {table.pk} · {re.escape(EVENT)} · Push league$"))
        event = page.get_by_role("navigation", name="What this table is played for")
        expect(event.get_by_role("link")).to_have_text(
            ["Spring Cup", "round 1", "table 1: Aces v Kings"])
        expect(page.locator("[data-team]")).to_have_text(["Aces", "Kings"])
        expect(page.locator("[data-turn]")).not_to_have_text("")  # its state has come
    expect(player.locator(".lead")).to_have_text(re.compile(
        rf"^You play in {EVENT}; the seats marked bot are played by bots, level: greedy"))
    expect(spectator.locator(".lead")).to_have_text(
        f"You are watching {EVENT}: you see the table, not the hands.")
    expect(_seats(player)).to_have_text(_seat_names(True))
    expect(_seats(spectator)).to_have_text(_seat_names(False))
    assert_accessible(spectator, EVERY_IMPACT)

    # Aino moves; both logs name her, as the bots' moves name the people they play for
    player.get_by_role("button", name="Take the discard").click()
    for page in (player, spectator):
        log = page.get_by_role("log").get_by_role("listitem")
        expect(log.filter(has_text=re.compile("^Aino takes"))).to_have_count(1)
        expect(log.filter(has_text=re.compile(r"^(Partner|Left|Right|Bot in seat)"))
               ).to_have_count(0)

    # the event's links lead back: the round page marks the seats bots play for
    spectator.get_by_role("navigation", name="What this table is played for").get_by_role(
        "link", name="round 1").click()
    expect(spectator.get_by_role("heading", level=1)).to_have_text("Round 1")
    card = spectator.locator("article.table-card")
    for name in NAMES:
        seat = card.get_by_role("listitem").filter(has_text=re.compile(rf"^Seat \d:\s+{name}"))
        expect(seat).to_have_text(re.compile(rf"^Seat \d:\s+{name}$" if name == "Aino" else
                                             rf"^Seat \d:\s+{name} bot for {name} greedy$"))

    # and Aino's home page names her partner and opponents
    player.goto(f"{site}/")
    expect(player.get_by_role("region", name="Your table")).to_contain_text(
        f"Partner: {NAMES[2]} bot for {NAMES[2]}. Opponents: {NAMES[1]} bot for {NAMES[1]}, "
        f"{NAMES[3]} bot for {NAMES[3]}.")


def _finished(match: Match) -> LiveTable:
    """The match's table played out: Aino lays down when she can, else discards the first
    card she may; the bots answer at once, in this process."""
    table = match.live_table
    assert table is not None
    n = 0
    while (view := service.update_since(table.pk, FIRST, 0).view)["status"] == "playing":
        legal = view["legal"]
        service.table_act(table.pk, FIRST, next((a for a in legal if " discard " not in a),
                                                legal[0]), f"h{n}")
        n += 1
    return LiveTable.objects.get(pk=table.pk)


def test_the_replay_names_the_people_and_teams_and_links_the_event(
        people: Callable[[Any], Person], site: str, eager_tasks: None, settings: Any) -> None:
    settings.LIVE_BOT_PAUSE_SECONDS = 0
    match, _aino = _in_thread(seated)
    table = _in_thread(lambda: _finished(match))
    assert table.status == LiveTable.Status.FINISHED
    page = people(None).page
    page.goto(f"{site}/tables/{table.pk}/replay/")
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Table {table.pk}: replay")
    expect(page).to_have_title(f"Table {table.pk}: replay · {EVENT} · Push league")
    page.get_by_role("navigation", name="What this table is played for").get_by_role(
        "link", name="table 1: Aces v Kings").click()
    expect(page).to_have_url(f"{site}/matches/{match.pk}/")
    page.go_back()
    expect(page.get_by_role("table", name=re.compile("^Scores per hand")).locator("thead th")
           ).to_have_text(["Hand", "Aces", "Kings"])
    expect(page.locator(".replay-seat h3")).to_have_text(
        [name if name == "Aino" else f"{name} bot" for name in SHOWN])
    assert_accessible(page, EVERY_IMPACT)
    expect(page.locator("#replay")).to_have_attribute("data-replay-ready", "")  # it listens
    page.get_by_role("button", name="Hand 1").click()
    expect(page.get_by_role("button", name="Hand 1")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Forward ›").click()
    expect(page.locator("[data-action]")).to_have_text(re.compile(rf"^({'|'.join(NAMES)}) "))
