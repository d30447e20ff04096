"""The melds as a spectator sees them at the live table, in chromium, at 1280x800 and
390x844: each card slides under the next only so far that its corner (rank and suit) can
be read. The melds are put on the table between the server and the page (every view the
server sends holds them); the page draws them with its own code. The site runs in daphne
as in ``test_live_table``."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from . import browser_fixture, expect  # noqa: F401  (fixtures)
from .test_live_card_table import SCREENS, _tab
from .test_live_table import _seeded_table, alice, site  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db(transaction=True)

MELDS = [{"id": 0, "owner": 1, "kind": "run", "cards": ["8H", "9H", "TH", "JK=JH", "QH", "KH"]},
         {"id": 1, "owner": 0, "kind": "set", "cards": ["TS", "TD", "2C=T", "TC"]}]
LEAST_STRIP = 20  # px of a meld's card in sight, the corner's width and more

# For each card of the melds: the widest strip of it in sight (document.elementFromPoint
# along its corner's middle), and whether every column of its corner is.
SEEN = """() => [...document.querySelectorAll(".meld-cards [data-code]")].map((card) => {
  const face = card.getBoundingClientRect();
  const corner = card.querySelector(".pcard-corner").getBoundingClientRect();
  const y = corner.top + corner.height / 2;
  const mine = (x) => card.contains(document.elementFromPoint(x, y));
  let best = 0;
  let run = 0;
  for (let x = Math.ceil(face.left); x < face.right; x++) {
    run = mine(x) ? run + 1 : 0;
    best = Math.max(best, run);
  }
  let corner_seen = true;
  for (let x = Math.ceil(corner.left); x < corner.right; x++) {
    corner_seen = corner_seen && mine(x);
  }
  return { code: card.getAttribute("data-code"), strip: best, corner: corner_seen };
})"""


def _melds(route: Any) -> None:
    """A websocket that passes every frame on, but each view with MELDS on the table."""
    server = route.connect_to_server()

    def to_page(message: str | bytes) -> None:
        if isinstance(message, str):
            frame = json.loads(message)
            if frame.get("view"):
                frame["view"]["melds"] = MELDS
                message = json.dumps(frame)
        route.send(message)

    route.on_message(server.send)
    server.on_message(to_page)


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_a_spectator_reads_every_meld_cards_rank(browser: Any, site: str, alice: Any,  # noqa: F811
                                                 screen: str) -> None:
    table = _seeded_table(alice)
    page, errors, watch = _tab(browser, site, None, screen)  # logged out: a spectator
    page.route_web_socket(re.compile(r"/ws/"), _melds)
    page.goto(f"{site}/tables/{table.pk}/")
    cards = page.locator(".meld-cards [data-code]")
    expect(cards).to_have_count(10)
    expect(page.get_by_role("img", name="10 of hearts")).to_be_visible()
    page.locator(".table-melds-box").scroll_into_view_if_needed()
    seen = page.evaluate(SEEN)
    unread = [card for card in seen if not card["corner"] or card["strip"] < LEAST_STRIP]
    assert unread == [], f"meld cards hard to read: {unread}"
    page.context.close()
    assert errors == [], f"JavaScript errors: {errors}"
    assert watch.violations == [], f"Content-Security-Policy violations: {watch.violations}"
