"""What the live table tells a player about the table itself, in chromium: a table the
director has paused offers no move and says why, a move that is off says why without
staying over the moves, and the end of the game names the winner with their total first.
Each test opens a table of its own and waits with Playwright's ``expect``; the site runs
in daphne as in ``test_live_table``."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connections

from games.live import director

from . import browser_fixture, expect  # noqa: F401  (fixtures)
from .test_live_card_table import _tab
from .test_live_table import FIRST, _seeded_table, alice, serve, site  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

PAUSED = "The director has paused this table; play goes on when they resume it."
# as alice sees the teams from her seat (R1.1)
TEAMS = ["Your team", "Opponents"] if FIRST % 2 == 0 else ["Opponents", "Your team"]


@pytest.fixture
def tab(browser: Any, site: str, alice: Any) -> Iterator[Any]:  # noqa: F811
    """alice's tab on a phone; a JavaScript error or a CSP violation fails."""
    page, errors, watch = _tab(browser, site, alice, "phone")
    yield page
    page.context.close()
    assert errors == [], f"JavaScript errors: {errors}"
    assert watch.violations == [], f"Content-Security-Policy violations: {watch.violations}"


def _as_director(change: Callable[[int], bool], table_id: int) -> None:
    """``change`` (pause or resume) at the table, in a thread of its own: the director's
    service announces through async_to_sync, which refuses Playwright's thread."""
    def run() -> bool:
        try:
            return change(table_id)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(run).result()


def test_a_paused_table_offers_no_move_and_says_why(tab: Any, site: str,  # noqa: F811
                                                    alice: Any) -> None:  # noqa: F811
    page = tab
    table = _seeded_table(alice)
    page.goto(f"{site}/tables/{table.pk}/")
    take = page.get_by_role("button", name="Take the discard")
    push = page.get_by_role("button", name="Push", exact=True)
    expect(take).to_be_enabled()
    # the server's own announcement goes to this process's channel layer, not daphne's:
    # the page learns of the change as on reconnecting
    _as_director(director.pause, table.pk)
    page.reload()
    expect(page.locator("[data-paused]")).to_be_visible()
    for button in (take, push):
        expect(button).to_be_disabled()
        expect(button).to_have_accessible_description(PAUSED)
    # the key says the same where the keyboard is, and nothing is sent
    page.locator("body").press("t")
    expect(page.locator("[data-feedback]")).to_have_text(PAUSED)
    expect(page.get_by_role("log")).not_to_contain_text("alice takes")
    _as_director(director.resume, table.pk)
    page.reload()
    expect(page.locator("[data-paused]")).to_be_hidden()
    expect(take).to_be_enabled()
    take.click()
    expect(page.get_by_role("log")).to_contain_text("alice takes")


def _game_over(route: Any) -> None:
    """A websocket between the page and the server that passes every frame on, but the
    server's updates say the game is over, team 1 the winner on the lower total (R9.2)."""
    server = route.connect_to_server()

    def to_page(message: str | bytes) -> None:
        if isinstance(message, str):
            frame = json.loads(message)
            if frame.get("type") == "update":
                frame["view"].update(is_over=True, winner=1, totals=[290, 225])
                message = json.dumps(frame)
        route.send(message)

    route.on_message(server.send)
    server.on_message(to_page)


def test_the_end_of_the_game_puts_the_winners_total_first(tab: Any, site: str,  # noqa: F811
                                                          alice: Any) -> None:  # noqa: F811
    """Played to the end, a game takes minutes: the views the page receives say it is over
    (changed between the server and the page)."""
    page = tab
    table = _seeded_table(alice)
    page.route_web_socket(re.compile(r"/ws/"), _game_over)
    page.goto(f"{site}/tables/{table.pk}/")
    expect(page.locator("[data-final]")).to_have_text(
        f"{TEAMS[1]} won the game, 225 to 290.")


def test_a_moves_reason_does_not_stay_over_the_moves_after_a_click(
        browser: Any, site: str, alice: Any) -> None:  # noqa: F811
    """A press of a move that is off says why in the line under the moves; its reason over
    the buttons shows only while the pointer is over it or the keyboard is on it, so it does
    not stay over Take and Push once the pointer has gone."""
    page, errors, watch = _tab(browser, site, alice, "laptop")
    table = _seeded_table(alice)
    page.goto(f"{site}/tables/{table.pk}/")
    expect(page.get_by_role("button", name="Take the discard")).to_be_enabled()
    discard = page.get_by_role("button", name="Discard the selected card")
    reason = page.locator("#why-discard")
    discard.hover()
    expect(reason).to_be_visible()
    discard.click(force=True)  # off (aria-disabled): pressed all the same
    expect(page.locator("[data-feedback]")).to_have_text(re.compile(r"^Take the discard"))
    page.mouse.move(0, 0)
    expect(reason).to_be_hidden()
    # the keyboard on it still shows it
    discard.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    expect(discard).to_be_focused()
    expect(reason).to_be_visible()
    page.context.close()
    assert errors == [], f"JavaScript errors: {errors}"
    assert watch.violations == [], f"Content-Security-Policy violations: {watch.violations}"
