"""A hint at the live table, in chromium: at alice's practice table the Hint button (or
the key h) shows the reason in words and marks the suggested move, its cards or its
button, until the table moves on; a tournament's table has no Hint button; and the replay
marks the action a hint preceded. The site runs in daphne as in ``test_live_table``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connections
from django.test import Client

from games.engine import parse_action
from games.engine.actions import Discard, LayContract, Push, Take
from games.live import quitting, service
from games.live.models import LiveHint, LiveTable
from games.vocabulary import contract_words

from ..live.conftest import FIRST, SEED
from . import TIMEOUT_MS, browser_fixture, expect  # noqa: F401  (fixtures)
from .axe import EVERY_IMPACT, assert_accessible
from .test_csp import Tab
from .test_live_table import alice, serve  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def site(django_db_setup: None, django_db_blocker: Any) -> Iterator[str]:
    yield from serve(django_db_blocker)


@pytest.fixture
def page(browser: Any, site: str, alice: Any) -> Iterator[Any]:  # noqa: F811
    """alice's tab, in English; a JavaScript error or a CSP violation fails the test."""
    client = Client()
    client.force_login(alice)
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": site}])
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    csp = Tab(tab, site)
    yield tab
    context.close()
    assert errors == [], f"JavaScript errors: {errors}"
    assert csp.violations == [], f"Content-Security-Policy violations: {csp.violations}"


def _apart(make: Any) -> Any:
    """``make()`` in a thread of its own: the table service announces through async_to_sync,
    which refuses to run in this thread, where Playwright keeps its event loop."""
    def run() -> Any:
        try:
            return make()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def _suggested(table: LiveTable, seq: int) -> Any:
    return parse_action(LiveHint.objects.get(table=table, seq=seq).action)


def test_a_hint_shows_its_reason_and_marks_the_move_until_the_table_moves_on(
        page: Any, site: str, alice: Any) -> None:  # noqa: F811
    table = _apart(lambda: service.create_practice_table(alice, "greedy", seat=FIRST,
                                                         seed=SEED))
    page.goto(f"{site}/tables/{table.pk}/")
    hint = page.get_by_role("button", name="Hint")
    box = page.locator("[data-hint-box]")
    expect(hint).not_to_have_attribute("aria-disabled", "true")
    expect(box).to_be_hidden()
    hint.click()
    expect(box).to_contain_text(contract_words(1))
    draw = _suggested(table, 1)
    assert isinstance(draw, Take | Push)
    button = page.locator(f'[data-do="{"take" if isinstance(draw, Take) else "push"}"]')
    expect(button).to_have_class(re.compile(r"\bhinted\b"))
    assert_accessible(page, EVERY_IMPACT)  # the button, its reason and the marks
    expect(page.locator("[data-hand] .hinted")).to_have_count(0)
    # the move played: the hint was for a point the table has left
    page.get_by_role("button", name="Take the discard").click()
    expect(box).to_be_hidden()
    expect(page.locator(".hinted")).to_have_count(0)
    # the play after the draw, asked with the key h: the cards it plays are marked
    expect(hint).not_to_have_attribute("aria-disabled", "true")
    page.locator("body").press("h")
    expect(box).to_be_visible()
    play = _suggested(table, 2)
    assert isinstance(play, Discard | LayContract)
    cards = 1 if isinstance(play, Discard) else sum(len(m.cards) for m in play.melds)
    expect(page.locator("[data-hand] .hinted")).to_have_count(cards)
    expect(page.locator(f'[data-do="{"discard" if cards == 1 else "lay"}"].hinted')
           ).to_have_count(1)


def test_a_tournament_table_has_no_hint(page: Any, site: str, alice: Any) -> None:  # noqa: F811
    plans = [service.SeatPlan(bot="greedy")] * 4
    plans[FIRST] = service.SeatPlan(user=alice)
    table = _apart(lambda: service.create_table(plans, reports_to="match", result_ref="1",
                                                seed=SEED))
    page.goto(f"{site}/tables/{table.pk}/")
    expect(page.get_by_role("heading", name="Your hand")).to_be_visible()
    expect(page.get_by_role("button", name="Take the discard")).not_to_have_attribute(
        "aria-disabled", "true")  # its state has come
    expect(page.locator('[data-do="hint"], [data-hint-box]')).to_have_count(0)
    page.locator("body").press("h")  # the key does nothing there
    expect(page.locator("[data-feedback]")).to_have_text("")


def test_the_replay_marks_where_a_hint_was_used(page: Any, site: str, alice: Any) -> None:  # noqa: F811
    table = _apart(lambda: service.create_practice_table(alice, "greedy", seat=FIRST,
                                                         seed=SEED))
    page.goto(f"{site}/tables/{table.pk}/")
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("[data-hint-box]")).to_be_visible()
    _apart(lambda: service.table_act(table.pk, FIRST, f"{FIRST} take", "c1"))
    _apart(lambda: quitting.resign(table.pk, FIRST))
    page.goto(f"{site}/tables/{table.pk}/replay/")
    expect(page.locator("#replay")).to_have_attribute("data-replay-ready", "")  # it listens
    page.get_by_role("button", name="Hand 1").click()
    expect(page.get_by_role("button", name="Hand 1")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Forward ›").click()
    marker = page.locator("[data-action] [data-hint]")
    expect(marker).to_contain_text("A hint was asked for before this move")
    expect(marker).to_contain_text(contract_words(1))
    # the game in words, without the script, says the same
    expect(page.locator(".replay-words")).to_contain_text("A hint was asked for before this move")
