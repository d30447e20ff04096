"""Two people play together against two bots, from two browsers: alice opens a table for
friends from the home page, keeping her partner's seat for a friend; bob, logged out,
opens the seat's link, logs in, comes back to it and takes the seat; alice's waiting page
shows him seated by itself; she starts the game, and both see the table, each with their
own hand and the players' names as their seat has them, bob's page going to the table by
itself. axe-core checks the form, the waiting page and the seat's link.

The site runs in daphne, as in test_live_table.py (whose fixtures these are): the bots'
tasks in its process, the in-memory channel layer."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.live import service
from games.live.models import FriendTable, LiveTable

from . import TIMEOUT_MS, browser_fixture, expect  # noqa: F401  (fixtures)
from . import test_live_table as table_tests
from .axe import EVERY_IMPACT, assert_accessible
from .test_csp import Tab

# test_live_table.py's fixtures: its daphne site and alice
site, alice = table_tests.site, table_tests.alice

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def bob(transactional_db: None) -> Any:
    return get_user_model().objects.create_user("bob", password="pw-bob-12345")


class Person:
    """One person's browser: a context of its own, in English; a JavaScript error or a
    Content-Security-Policy violation fails the test."""

    def __init__(self, browser: Any, site: str, user: Any | None) -> None:
        self.context = browser.new_context(locale="en-US", viewport={"width": 1100, "height": 900})
        self.context.set_default_timeout(TIMEOUT_MS)
        if user is not None:
            client = Client()
            client.force_login(user)
            self.context.add_cookies([{"name": "sessionid", "url": site,
                                       "value": client.cookies["sessionid"].value}])
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.tab = Tab(self.page, site)

    def close(self) -> None:
        self.context.close()
        assert self.errors == [], f"JavaScript errors: {self.errors}"
        assert self.tab.violations == [], f"CSP violations: {self.tab.violations}"


@contextmanager
def browsers(browser: Any, site: str) -> Iterator[Callable[[Any], Person]]:
    """Opens a browser for a user (None: logged out); each is closed at the end, failing
    the test on a JavaScript error or a Content-Security-Policy violation (for a fixture:
    ``with browsers(browser, site) as open_for: yield open_for``)."""
    opened: list[Person] = []

    def open_for(user: Any) -> Person:
        opened.append(Person(browser, site, user))
        return opened[-1]

    yield open_for
    for person in opened:
        person.close()


@pytest.fixture
def people(browser: Any, site: str, alice: Any) -> Iterator[tuple[Any, Any]]:
    """alice's browser, logged in, and a second one, logged out."""
    host, friend = Person(browser, site, alice), Person(browser, site, None)
    yield host.page, friend.page
    host.close()
    friend.close()


def _sees_own_hand(page: Any, table: LiveTable, seat: int) -> None:
    """``page`` shows the hand the server holds for ``seat``, card for card, and no other."""
    hand = service.update_since(table.pk, seat, 0).view["hand"]
    cards = page.locator("[data-hand] button")
    expect(cards).to_have_count(len(hand))
    for code, count in Counter(hand).items():
        expect(page.locator(f'[data-hand] button[data-key="{code}#{count - 1}"]')
               ).to_have_count(1)


def test_two_friends_play_together_against_two_bots(
        people: tuple[Any, Any], site: str, alice: Any, bob: Any) -> None:
    host, friend = people
    host.goto(f"{site}/")
    host.get_by_role("link", name="Play with friends").click()
    expect(host.get_by_role("heading", level=1)).to_have_text("Play with friends")
    expect(host.get_by_label("Your partner")).to_have_value("friend")
    expect(host.get_by_label("Left opponent")).to_have_value("bot")
    expect(host.get_by_label("Right opponent")).to_have_value("bot")
    assert_accessible(host, EVERY_IMPACT)
    host.get_by_label("Bots' level").select_option("greedy")
    host.get_by_label("Start by itself once every friend has taken their seat").uncheck()
    host.get_by_role("button", name="Open the table").click()
    expect(host).to_have_url(re.compile(r"/friends/\d+/$"))
    seats = host.get_by_role("list", name="Seats").get_by_role("listitem")
    expect(seats).to_have_text([re.compile(r"Seat 0\s+\(you, opened the table\):\s+alice"),
                                re.compile(r"Seat 1\s+\(left opponent\):\s+bot \(greedy\)"),
                                re.compile(r"Seat 2\s+\(partner\):\s+waiting for a friend"),
                                re.compile(r"Seat 3\s+\(right opponent\):\s+bot \(greedy\)")])
    link = host.get_by_label("Link for seat 2 (partner)")
    expect(link).to_have_value(re.compile(rf"^{re.escape(site)}/friends/join/[^/]+/$"))
    assert_accessible(host, EVERY_IMPACT)

    # bob opens the link logged out: to the login page, and back to the seat
    friend.goto(link.input_value())
    expect(friend).to_have_url(re.compile(r"/accounts/login/\?next=/friends/join/"))
    friend.get_by_label("Username").fill("bob")
    friend.get_by_label("Password").fill("pw-bob-12345")
    friend.get_by_role("button", name="Log in").click()
    expect(friend.locator(".lead")).to_have_text(
        "alice invites you to play Push at their table: seat 2, as their partner.")
    assert_accessible(friend, EVERY_IMPACT)
    friend.get_by_role("button", name="Take seat 2").click()
    expect(friend).to_have_url(re.compile(r"/friends/\d+/$"))
    expect(friend.locator(".lead")).to_have_text(
        "You have a seat at alice's table. The game begins when alice starts it.")
    expect(friend.get_by_role("list", name="Seats").get_by_role("listitem").nth(2)).to_have_text(
        re.compile(r"Seat 2\s+\(you\):\s+bob"))
    expect(friend.get_by_role("button", name="Start the game")).to_have_count(0)

    # alice's waiting page shows bob seated by itself; his seat's link is gone
    expect(seats.nth(2)).to_have_text(re.compile(r"Seat 2\s+\(partner\):\s+bob"))
    expect(host.get_by_label("Link for seat 2 (partner)")).to_have_count(0)
    host.get_by_role("button", name="Start the game").click()
    expect(host).to_have_url(re.compile(r"/tables/\d+/$"))
    table = LiveTable.objects.get(friend_table=FriendTable.objects.get())

    # both at the table, each with their own hand; bob's page went there by itself
    expect(friend).to_have_url(f"{site}/tables/{table.pk}/")
    for page, seat, names in [
            (host, 0, [r"^alice \(you\)", r"^Left opponent bot", r"^bob\d",
                       r"^Right opponent bot"]),
            (friend, 2, [r"^bob \(you\)", r"^Left opponent bot", r"^alice\d",
                         r"^Right opponent bot"])]:
        expect(page.get_by_role("heading", name="Your hand")).to_be_visible()
        expect(page.locator(".lead")).to_have_text(
            "You play with friends; the seats marked bot are bots, level: greedy: a heuristic "
            "player.")
        expect(page.get_by_role("list", name="Players").get_by_role("listitem")).to_have_text(
            [re.compile(name) for name in names])
        expect(page.locator("[data-turn]")).not_to_have_text("")  # its state has come
        _sees_own_hand(page, table, seat)
