"""The live table under ``make run``'s defaults, in chromium: no broker, so tasks run in the
server's process and those due later wait in its timer thread (config/in_process.py). The
bots move one at a time after their pause, each move reaching the page as it is made, and
a person who does not move sees their clock run down until the seat's stand-in plays the
turn, as in production. The site runs in daphne as in ``test_live_table``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from games.live import service
from games.live.models import LiveAction, LiveTable

from ..live.conftest import FIRST, SEED
from . import TIMEOUT_MS, browser_fixture, expect, made_apart  # noqa: F401  (fixtures)
from .test_live_table import alice, serve  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db(transaction=True)

BOT_PAUSE = 0.6  # seconds each bot waits before its move
MOVE_SECONDS = 6  # a person's time for a turn
# What the timer thread may add to a pause, and what the page may miss of it: far below it
SLACK = 0.25
# Records when each line of the table's log appeared (the page's own clock, in ms), but
# the lines that open a hand's log (the deal, the last hand's outcome) and say it is your turn
ARRIVALS = """
window.__arrivals = [];
new MutationObserver(function (changes) {
  changes.forEach(function (change) {
    if (change.target.nodeType !== 1 || !change.target.matches("[data-log]")) {
      return;
    }
    change.addedNodes.forEach(function (node) {
      if (node.nodeName === "LI" && !node.matches(".deal-line, .end-line, .turn-line")) {
        window.__arrivals.push(performance.now());
      }
    });
  });
}).observe(document, { childList: true, subtree: true });
"""


@pytest.fixture(scope="module")
def paced_site(django_db_setup: None, django_db_blocker: Any) -> Iterator[str]:
    """The site with the bots' pause and tasks due later waiting in the process."""
    yield from serve(django_db_blocker, bot_pause=BOT_PAUSE, delays=True,
                     move_seconds=MOVE_SECONDS)




def _page(browser: Any, site: str, user: Any) -> Any:
    from django.test import Client

    client = Client()
    client.force_login(user)
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 800})
    context.set_default_timeout(TIMEOUT_MS)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": site}])
    return context.new_page()


def _logged(table: LiveTable) -> list[tuple[int, str, float]]:
    return [(a.seq, a.client_id, a.created.timestamp())
            for a in LiveAction.objects.filter(table=table).order_by("seq")]


def test_the_bots_move_one_at_a_time_after_their_pause(
        browser: Any, paced_site: str, alice: Any) -> None:  # noqa: F811
    """alice sits after the three bots: opening the table starts them, and each of their
    moves is made its pause after the one before and shown as it comes, so the page sees
    them over seconds, not in one burst."""
    assert FIRST is not None
    seat = (FIRST + 3) % 4  # the bots at FIRST, FIRST + 1 and FIRST + 2 move first
    table = made_apart(lambda: service.create_practice_table(alice, "greedy", seat=seat,
                                                        seed=SEED))
    page = _page(browser, paced_site, alice)
    page.add_init_script(ARRIVALS)
    page.goto(f"{paced_site}/tables/{table.pk}/")
    expect(page.locator("[data-turn]")).to_have_text(re.compile("^Your turn"))
    logged = _logged(table)
    bots = [row for row in logged if row[1].startswith("!")]
    assert len(bots) >= 3 and len(bots) == len(logged)  # only bots moved before alice
    gaps = [later[2] - earlier[2] for earlier, later in zip(bots, bots[1:], strict=False)]
    assert min(gaps) >= BOT_PAUSE - SLACK, gaps
    moves = page.locator("[data-log] li:not(.deal-line):not(.end-line):not(.turn-line)")
    expect(moves).to_have_count(len(bots))
    arrivals = page.evaluate("window.__arrivals")
    spread = (arrivals[-1] - arrivals[0]) / 1000
    assert spread >= (len(bots) - 1) * (BOT_PAUSE - SLACK), (spread, len(bots))
    page.context.close()


def test_a_persons_clock_runs_down_and_the_stand_in_plays_the_turn(
        browser: Any, paced_site: str, alice: Any) -> None:  # noqa: F811
    """alice opens a table from the home page (so its turn timers are the server's, in its
    process) and does nothing on her turn: her clock counts down on the page, and when it
    runs out the stand-in plays her turn, which the page shows, and play goes on."""
    page = _page(browser, paced_site, alice)
    page.goto(f"{paced_site}/")
    page.get_by_label("Bots' level").select_option("random")
    page.get_by_role("button", name="Play now").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    table = LiveTable.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
    seat = table.seats.get(user=alice).seat
    turn = page.locator("[data-turn]")
    expect(turn).to_have_text(re.compile("^Your turn"))  # after the bots before her, if any
    clock = page.locator("[data-deadline]")
    expect(clock).to_contain_text(re.compile(f"0:0[2-{MOVE_SECONDS}]"))
    # it runs down on the page (a busy machine's polling may miss a second: any low one)
    expect(clock).to_contain_text(re.compile("0:0[0-3]$"))
    expect(turn).not_to_have_text(re.compile("^Your turn"))
    mine = LiveAction.objects.filter(table=table, seat=seat)
    assert mine.exists() and all(a.client_id.startswith("!") for a in mine)  # the stand-in's
    page.context.close()
