"""A long hand at the live table, in chromium: forty cards fit the felt at 1280x800 and at
390x844, each with a strip at least 24 px wide that takes a click or a tap, with a card
selected (raised) and another focused by the keyboard; the moves stay on the screen.

No deal gives forty cards, so the hand is made between the server and the page (every view
the server sends holds forty cards); the page draws it with its own code. The site runs
in daphne as in ``test_live_table``."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from . import browser_fixture, expect  # noqa: F401  (fixtures)
from .test_live_card_table import SCREENS, screen, tab  # noqa: F401  (fixtures)
from .test_live_table import _seeded_table, alice, site  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db(transaction=True)

FORTY = ["JK", "JK"] + [rank + suit for suit in "SHDC" for rank in "A23456789TJQK"][:38]
MIN_STRIP = 24  # px: a target's least width (WCAG 2.5.8)

# Each card's widest strip that a press at it reaches (document.elementFromPoint over its
# face, row by row of pixels), in the hand's order.
STRIPS = """() => [...document.querySelectorAll("[data-hand] .card-button")].map((button) => {
  const face = button.querySelector(".pcard").getBoundingClientRect();
  let best = 0;
  for (let y = Math.ceil(face.top) + 1; y < face.bottom - 1; y += 3) {
    let run = 0;
    for (let x = Math.ceil(face.left); x < face.right; x++) {
      const hit = document.elementFromPoint(x, y);
      run = hit && button.contains(hit) ? run + 1 : 0;
      best = Math.max(best, run);
    }
  }
  return best;
})"""


def _forty_cards(route: Any) -> None:
    """A websocket between the page and the server that passes every frame on, but the
    views of alice's seat with forty cards in her hand."""
    server = route.connect_to_server()

    def to_page(message: str | bytes) -> None:
        if isinstance(message, str):
            frame = json.loads(message)
            if "hand" in (frame.get("view") or {}):
                frame["view"]["hand"] = FORTY
                message = json.dumps(frame)
        route.send(message)

    route.on_message(server.send)
    server.on_message(to_page)


@pytest.mark.parametrize("screen", sorted(SCREENS), indirect=True)
def test_forty_cards_fit_and_each_can_be_pressed(
        tab: Any, site: str, alice: Any, screen: str) -> None:  # noqa: F811
    page = tab
    table = _seeded_table(alice)
    page.route_web_socket(re.compile(r"/ws/"), _forty_cards)
    page.goto(f"{site}/tables/{table.pk}/")
    cards = page.locator("[data-hand] .card-button")
    expect(cards).to_have_count(40)
    expect(page.get_by_role("button", name="Take the discard")).to_be_enabled()
    cards.nth(20).click()  # a card in the middle, pressed at its button's centre
    expect(cards.nth(20)).to_have_attribute("aria-pressed", "true")
    for _ in range(4):
        page.keyboard.press("ArrowRight")  # the keyboard's cursor, from the pressed card
    expect(cards.nth(24)).to_be_focused()  # in the middle of a row, at either size
    strips = page.evaluate(STRIPS)
    narrow = {i: px for i, px in enumerate(strips) if px < MIN_STRIP}
    assert narrow == {}, f"cards that show under {MIN_STRIP} px to press: {narrow}"
    # the fan stays on the felt, its moves on the screen
    hand = page.locator(".your-hand").bounding_box()
    faces = [box for box in (cards.nth(i).locator(".pcard").bounding_box() for i in range(40))
             if box is not None]
    assert len(faces) == 40
    assert min(box["x"] for box in faces) >= hand["x"]
    assert max(box["x"] + box["width"] for box in faces) <= hand["x"] + hand["width"]
    moves = page.get_by_role("group", name="Your moves").get_by_role("button")
    for i in range(5):
        expect(moves.nth(i)).to_be_in_viewport(ratio=1)
