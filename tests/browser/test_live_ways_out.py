"""A live table's clock and its ways out, in chromium: the turn's own countdown and the
reserve shown apart, with a warning in the last 10 seconds of each; and at a friends'
table, alice resigning (both pages say she did) and then offering a rematch that bob, in a
browser of his own, accepts, both pages going to the new table by themselves.

The site runs in daphne, as in test_live_table.py (whose fixtures these are)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.live import service
from games.live.models import FriendTable, LiveTable

from ..live.conftest import FIRST, SEED
from . import browser_fixture, expect, made_apart  # noqa: F401  (fixtures)
from . import test_live_table as table_tests
from .axe import EVERY_IMPACT, assert_accessible
from .test_play_with_friends import Person

# test_live_table.py's fixtures: its daphne site, alice and her phone's tab
site, alice, phone = table_tests.site, table_tests.alice, table_tests.phone

pytestmark = pytest.mark.django_db(transaction=True)

PARTNER = (FIRST + 2) % 4
TURN, RESERVE = 30, 45  # seconds




def _clock_at(table: LiveTable, spent: float) -> None:
    """As if alice's turn (she moves first) had begun ``spent`` seconds ago."""
    started = timezone.now() - timedelta(seconds=spent)
    LiveTable.objects.filter(pk=table.pk).update(
        turn_started=started, deadline=started + timedelta(seconds=TURN + RESERVE))


def test_the_turn_and_the_reserve_run_apart_with_a_warning_at_the_end(
        phone: Any, site: str, alice: Any) -> None:
    page = phone
    table = made_apart(lambda: service.create_table(
        [service.SeatPlan(user=alice) if s == FIRST else service.SeatPlan(bot="greedy")
         for s in range(4)], seed=SEED, move_seconds=TURN, reserve_seconds=RESERVE))
    page.goto(f"{site}/tables/{table.pk}/")
    turn, reserve = page.locator("[data-turn-clock]"), page.locator("[data-reserve-clock]")
    warning = page.locator("[data-clock-warning]")
    expect(turn).to_have_text(re.compile(r"^Turn 0:(2\d|30)$"))
    expect(reserve).to_have_text("Reserve 0:45")  # untouched while the turn's time lasts
    expect(page.locator(".to-move .seat-clock")).to_have_text(re.compile(r"0:(2\d|30)$"))
    expect(warning).to_be_hidden()
    expect(turn).not_to_have_class(re.compile("warning"))

    # the turn's last seconds: a warning, then the reserve runs
    _clock_at(table, TURN - 5)
    page.reload()
    expect(warning).to_have_text("Less than 10 seconds left in your turn; then your reserve "
                                 "runs.")
    expect(turn).to_have_class(re.compile("warning"))
    expect(turn).to_have_text("Turn 0:00")
    expect(reserve).to_have_text(re.compile(r"^Reserve 0:4[0-4]$"))
    expect(page.locator(".to-move .seat-reserve")).to_have_text(re.compile(r"^reserve 0:4[0-4]$"))
    expect(warning).to_be_hidden()
    expect(turn).not_to_have_class(re.compile("warning"))

    # the reserve's last seconds: then a bot plays the turn
    _clock_at(table, TURN + RESERVE - 6)
    page.reload()
    expect(warning).to_have_text("Less than 10 seconds left of your reserve; then a bot plays "
                                 "this turn for you.")
    expect(reserve).to_have_class(re.compile("warning"))
    expect(turn).to_have_text("Turn 0:00")


@pytest.fixture
def bob(transactional_db: None) -> Any:
    return get_user_model().objects.create_user("bob", password="pw-bob-12345")


@pytest.fixture
def two(browser: Any, site: str, alice: Any, bob: Any) -> Iterator[tuple[Any, Any]]:
    """alice's browser and bob's, each logged in."""
    first, second = Person(browser, site, alice), Person(browser, site, bob)
    yield first.page, second.page
    first.close()
    second.close()


def test_alice_resigns_then_offers_a_rematch_that_bob_accepts(
        two: tuple[Any, Any], site: str, alice: Any, bob: Any) -> None:
    mine, his = two
    table = made_apart(lambda: service.create_table(
        [service.SeatPlan(user=alice) if s == FIRST else service.SeatPlan(user=bob)
         if s == PARTNER else service.SeatPlan(bot="greedy") for s in range(4)],
        seed=SEED, awaiting=True))
    for page in two:
        page.goto(f"{site}/tables/{table.pk}/")
        expect(page.locator("[data-turn]")).not_to_have_text("")  # its state has come
    mine.get_by_role("button", name="Resign").click()
    dialog = mine.get_by_role("dialog", name="Resign the game?")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Resign").click()
    for page in two:
        expect(page.get_by_role("region", name="Game resigned")).to_contain_text(
            "alice resigned; the game is over.")
        expect(page.locator("[data-turn]")).to_have_text("alice resigned; the game is over.")
        expect(page.get_by_role("button", name="Resign")).to_be_hidden()
        expect(page.get_by_role("button", name="Take the discard")).to_be_disabled()
    assert LiveTable.objects.get(pk=table.pk).status == LiveTable.Status.RESIGNED
    assert_accessible(his, EVERY_IMPACT)

    mine.get_by_role("button", name="Offer a rematch").click()
    expect(mine).to_have_url(re.compile(r"/friends/\d+/$"))  # waiting for bob
    expect(mine.locator(".lead")).to_contain_text(f"A rematch of table {table.pk}")
    rematch = his.get_by_role("region", name="Rematch")
    expect(rematch).to_contain_text("alice offers a rematch on a new deal.")
    expect(his.get_by_role("button", name="Offer a rematch")).to_be_hidden()
    his.get_by_role("button", name="Accept the rematch").click()
    new = FriendTable.objects.get(rematch_of=table)
    expect(his).to_have_url(re.compile(rf"/tables/(?!{table.pk}/)\d+/$"))
    new.refresh_from_db()
    assert new.table_id is not None and new.table_id != table.pk
    for page in two:  # alice's waiting page went there by itself
        expect(page).to_have_url(f"{site}/tables/{new.table_id}/")
        expect(page.get_by_role("heading", name="Your hand")).to_be_visible()
        expect(page.locator("[data-turn]")).not_to_have_text("")
    assert list(LiveTable.objects.get(pk=new.table_id).seats.order_by("seat").values_list(
        "user__username", flat=True)) == list(table.seats.order_by("seat").values_list(
            "user__username", flat=True))
