"""A robot duplicate event in chromium: three entrants, one after the other, open the event,
start their table and play the first board through the page; each then leaves and a bot
finishes their game (those boards marked). Until the window closes nobody sees a result;
then the event's page ranks the three on the same boards. The site runs in daphne as in
test_live_table.py; the substitute that finishes a game runs in this process, as a worker
would."""

from __future__ import annotations

import re
import time
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.live import director
from robot_duplicate.models import RobotEntry, RobotEvent

from ..live.conftest import SEED
from . import browser_fixture, expect  # noqa: F401  (fixtures)
from .test_live_card_table import _play_my_turn, _tab
from .test_live_table import _view, serve

HAND_PAUSE = 2  # seconds the server waits after a hand's end, so its last turn is seen


@pytest.fixture(scope="module")
def site(django_db_setup: None, django_db_blocker: Any) -> Any:
    """The site in daphne, pausing a little after each hand as in production."""
    yield from serve(django_db_blocker, hand_pause=HAND_PAUSE)


def _wait_finished(entry: RobotEntry, seconds: float = 90) -> None:
    """Until the bot that took over has finished the game (in the site's process)."""
    deadline = time.monotonic() + seconds
    while RobotEntry.objects.filter(pk=entry.pk, finished__isnull=True).exists():
        assert time.monotonic() < deadline, f"{entry}'s game should have ended"
        time.sleep(0.2)
    entry.refresh_from_db()

pytestmark = pytest.mark.django_db(transaction=True)


def _play_the_first_board(page: Any, site: str, event: RobotEvent,  # noqa: F811
                          user: Any) -> RobotEntry:
    page.goto(f"{site}/robot/{event.pk}/")
    page.get_by_role("button", name="Play the boards now").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    entry = RobotEntry.objects.select_related("live_table").get(event=event, player=user)
    table = entry.live_table
    assert table is not None
    summary = page.get_by_role("dialog", name="Hand 1 is over")
    turns = 0
    while not _view(table, 0)["scores"]:
        turns += 1
        assert turns < 60, "the first board should have ended long ago"
        expect(page.locator('[data-do="take"]:not([aria-disabled="true"])').or_(summary).first
               ).to_be_visible()
        if not _view(table, 0)["scores"]:
            _play_my_turn(page, table, seat=0, name=user.username)
    director.pin(table.pk, 0)  # the person leaves: their substitute finishes the game
    _wait_finished(entry)
    return entry


def test_three_entrants_play_the_boards_in_turn_and_are_ranked_on_them(
        browser: Any, site: str, eager_tasks: None) -> None:  # noqa: F811
    # The deals the other live-table tests play (the page's turn helper knows them), and
    # greedy bots, which never draw by chance: the same game every run.
    now = timezone.now()
    event = RobotEvent.objects.create(name="Tuesday robots", opens=now - timedelta(hours=1),
                                      closes=now + timedelta(hours=1), bot_level="greedy",
                                      grace_seconds=None, seed=SEED)
    names = ["anna", "bea", "cai"]
    users = [get_user_model().objects.create_user(n, password=f"pw-{n}-123") for n in names]
    entries = []
    for user in users:
        page, errors, _watch = _tab(browser, site, user, "laptop")
        entries.append(_play_the_first_board(page, site, event, user))
        page = page.context.new_page()  # the table's page stays open, as a person leaves it
        page.goto(f"{site}/robot/{event.pk}/")
        expect(page.get_by_text("You have played this event.")).to_be_visible()
        expect(page.get_by_role("region", name="Ranking").or_(
            page.get_by_text(re.compile(r"tables? (has|have) finished"))).first).to_be_visible()
        expect(page.get_by_role("button", name="Play the boards now")).to_have_count(0)
        page.context.close()
        assert errors == [], f"JavaScript errors: {errors}"
    assert all(e.finished is not None and e.bot_hands[1:] == [True] * 4 for e in entries)

    page, errors, _watch = _tab(browser, site, users[0], "laptop")
    page.goto(f"{site}/robot/{event.pk}/")
    expect(page.get_by_text("3 tables have finished.")).to_be_visible()
    expect(page.get_by_role("table")).to_have_count(0)  # no result while the window is open

    RobotEvent.objects.filter(pk=event.pk).update(closes=timezone.now() - timedelta(seconds=1))
    page.reload()
    rows = page.get_by_role("table").get_by_role("row")
    expect(rows).to_have_count(4)  # the heading and the three entrants
    for name in names:
        expect(page.get_by_role("rowheader", name=name)).to_be_visible()
    expect(page.get_by_role("columnheader", name="Board 5")).to_be_visible()
    expect(rows.nth(1).get_by_role("cell").first).to_have_text("1")
    expect(page.locator("abbr.bot-board")).to_have_count(12)  # boards 2 to 5, three times
    page.context.close()
    assert errors == [], f"JavaScript errors: {errors}"
