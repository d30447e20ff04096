"""A practice table ended after a day without play (games/live/limits.py), opened by its
player in chromium: the page says it was ended, offers no move and no replay, and offers a
new game. The site runs in daphne as in test_live_table.py (whose fixtures these are)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.live import limits
from games.live.models import LiveTable

from . import browser_fixture, expect  # noqa: F401  (fixtures)
from . import test_live_table as table_tests
from .test_live_table import _seeded_table, _view

# test_live_table.py's fixtures: its daphne site, alice and her phone's tab
site, alice, phone = table_tests.site, table_tests.alice, table_tests.phone

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_ended_table_says_so_and_offers_no_move(phone: Any, site: str, alice: Any) -> None:
    page = phone
    table = _seeded_table(alice)
    assert _view(table)["legal"], "alice's turn: the page would offer moves"
    LiveTable.objects.filter(pk=table.pk).update(created=timezone.now() - timedelta(hours=25))
    assert limits.end_abandoned_tables() == 1
    page.goto(f"{site}/tables/{table.pk}/")
    expect(page.locator("[data-hand] button")).not_to_have_count(0)  # the view has come
    expect(page.locator("[data-turn]")).to_have_text(
        "The table was ended before the game finished.")
    ended = page.get_by_role("region", name="Table ended")
    expect(ended).to_be_visible()
    expect(ended).to_contain_text("This table was ended after 24 hours without play")
    expect(page.get_by_role("button", name="Play again")).to_be_visible()
    for move in ("Take the discard", "Push", "Lay down the selection"):
        expect(page.get_by_role("button", name=move)).to_be_disabled()
    expect(page.locator("[data-hand] button:not(:disabled)")).to_have_count(0)
    expect(page.locator("[data-deadline]")).to_be_hidden()
    expect(page.locator("[data-game-over]")).to_be_hidden()
    expect(page.get_by_role("link", name="Replay this game")).to_have_count(0)
