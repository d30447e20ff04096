"""A hand's summary at the live table, in chromium, at 1280x800 and 390x844: it covers none
of the controls, so a person whose turn comes while it is open reads it and plays on; it
does not close when their turn begins. The site runs in daphne as in ``test_live_table``."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from . import browser_fixture, expect  # noqa: F401  (fixtures)
from .test_live_card_table import SCREENS, screen, tab  # noqa: F401  (fixtures)
from .test_live_table import FIRST, _seeded_table, _view, alice, site  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db(transaction=True)


def _long_summary(route: Any) -> None:
    """A websocket that passes every frame on, but makes alice's discard end the hand with a
    summary meant to stay ten minutes: her next turn comes while it is open."""
    server = route.connect_to_server()

    def to_page(message: str | bytes) -> None:
        if isinstance(message, str):
            frame = json.loads(message)
            for event in frame.get("events") or []:
                if event.get("seat") == FIRST and (event.get("move") or {}).get("do") == "discard":
                    event["hand_result"] = {"hands": [["7H", "KS"], ["2C"], ["JK", "9D", "9S"], []],
                                            "penalties": [15, 20, 65, 0], "scores": [80, 20],
                                            "out_seat": (FIRST + 3) % 4}
                    frame["view"]["hand_pause"] = 600
            message = json.dumps(frame)
        route.send(message)

    route.on_message(server.send)
    server.on_message(to_page)


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and
            a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


@pytest.mark.parametrize("screen", sorted(SCREENS), indirect=True)
def test_the_summary_covers_no_control_and_stays_into_the_turn(
        tab: Any, site: str, alice: Any, screen: str) -> None:  # noqa: F811
    page = tab
    table = _seeded_table(alice)
    page.route_web_socket(re.compile(r"/ws/"), _long_summary)
    page.goto(f"{site}/tables/{table.pk}/")
    take = page.get_by_role("button", name="Take the discard")
    take.click()
    expect(page.locator("[data-turn]")).to_have_text(re.compile("^Your turn: lay down"))
    code = next(a.split()[-1] for a in _view(table)["legal"] if " discard " in a)
    page.locator(f'[data-hand] button[data-key="{code}#0"]').click()
    page.get_by_role("button", name="Discard the selected card").click()
    summary = page.get_by_role("dialog", name="Hand 1 is over")
    expect(summary).to_be_visible()
    expect(take).to_be_enabled()  # the bots have played round to alice: her turn
    expect(summary).to_be_visible()  # still open, in the screen, and over no control
    expect(summary.get_by_role("heading")).to_be_in_viewport(ratio=1)
    expect(summary).to_contain_text("Hand score:")
    box = summary.bounding_box()
    expect(page.locator(".meld-button").first).to_be_attached()  # the partner's, by now
    controls = page.locator(".your-hand button, .table-tools button, .table-tools input, "
                            ".meld-button")
    covered = [controls.nth(i).get_attribute("aria-label") or controls.nth(i).inner_text()
               for i in range(controls.count())
               if (part := controls.nth(i).bounding_box()) is not None and _overlap(box, part)]
    assert covered == [], f"the summary covers {covered}"
    # played with the summary open, from the keyboard: its opening took no focus away
    page.keyboard.press("t")
    expect(page.locator("[data-turn]")).to_have_text(re.compile("^Your turn: lay down"))
    expect(summary).to_be_visible()
    summary.get_by_role("button", name="Next hand").click()
    expect(summary).to_be_hidden()
