"""The hand's log is the table's action log: a page reloaded mid-hand shows every line it
showed before, and a spectator who arrives late sees the hand so far, not only what is
played after they came. Each test plays alice's first turn through the page on the
seeded deal, waits (Playwright's ``expect``) until the bots have answered and it is her
turn again, then opens the table anew."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.live.updates import update_since

from . import browser_fixture, expect  # noqa: F401  (fixtures)
from .test_live_card_table import _play_my_turn, _tab
from .test_live_table import FIRST, _seeded_table, alice, site  # noqa: F401

TAKE_OPEN = '[data-do="take"]:not([aria-disabled="true"])'  # alice's turn to draw

pytestmark = pytest.mark.django_db(transaction=True)


def _played(page: Any) -> Any:
    """The log's lines of the hand: the deal and each action (not the 'your turn' lines,
    which are the page's own, not the table's)."""
    return page.get_by_role("log").locator("li:not(.turn-line)")


def _a_turn_played(page: Any, table: Any, address: str) -> list[str]:
    """alice plays her first turn and the bots theirs; the page's lines once it is her
    turn again, as many as the server's log of the hand (and the deal's line)."""
    page.goto(f"{address}/tables/{table.pk}/")
    expect(page.locator(TAKE_OPEN)).to_be_visible()
    _play_my_turn(page, table)
    expect(page.locator(TAKE_OPEN)).to_be_visible()
    view = update_since(table.pk, FIRST, None).view  # a full view: the hand so far
    assert view["hand_no"] == 1 and view["log"], "the first hand should still be in play"
    lines = _played(page)
    expect(lines).to_have_count(1 + len(view["log"]))
    texts: list[str] = lines.all_text_contents()  # as to_have_text reads them
    assert texts[1].startswith("alice takes"), texts
    assert any(t.startswith("alice discards") for t in texts), texts
    return texts


def test_a_reload_mid_hand_keeps_the_hands_log(browser: Any, site: str,  # noqa: F811
                                               alice: Any) -> None:  # noqa: F811
    page, errors, watch = _tab(browser, site, alice, "phone")
    table = _seeded_table(alice)
    before = _a_turn_played(page, table, site)
    page.reload()
    expect(_played(page)).to_have_text(before)
    # and play goes on from there: the turn is alice's, the page says so once
    expect(page.locator(TAKE_OPEN)).to_be_visible()
    expect(page.get_by_role("log").locator("li.turn-line")).to_have_count(1)
    page.context.close()
    assert errors == [], f"JavaScript errors: {errors}"
    assert watch.violations == [], f"Content-Security-Policy violations: {watch.violations}"


def test_a_late_spectator_sees_the_hand_so_far(browser: Any, site: str,  # noqa: F811
                                               alice: Any) -> None:  # noqa: F811
    page, errors, watch = _tab(browser, site, alice, "laptop")
    table = _seeded_table(alice)
    seated = _a_turn_played(page, table, site)
    late, late_errors, late_watch = _tab(browser, site, None, "laptop")
    late.goto(f"{site}/tables/{table.pk}/")  # a spectator of a practice table
    lines = _played(late)
    expect(lines).to_have_count(len(seated))
    # the deal (named from the table, not from a seat: a spectator has none)
    expect(lines.first).to_have_text(re.compile(r"^Hand 1: Bot in seat \d deals"))
    expect(lines.nth(1)).to_have_text(re.compile("^alice takes"))
    expect(lines.filter(has_text=re.compile("^alice discards"))).to_have_count(
        sum(t.startswith("alice discards") for t in seated))
    # the spectator has no turn and no hand (the public view)
    expect(late.get_by_role("log").locator("li.turn-line")).to_have_count(0)
    expect(late.locator("[data-hand] button")).to_have_count(0)
    for tab in (page, late):
        tab.context.close()
    assert errors == late_errors == [], f"JavaScript errors: {errors + late_errors}"
    assert watch.violations == late_watch.violations == [], "Content-Security-Policy violations"
