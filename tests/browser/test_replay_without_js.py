"""A match replay read in a browser without JavaScript: the viewer, which needs the script,
stays hidden, and the game is there in words, hand by hand, with each hand's score."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ..pages import bot_match
from . import TIMEOUT_MS, browser_fixture, expect  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def page_without_js(browser: Any) -> Iterator[Any]:
    context = browser.new_context(locale="en-US", java_script_enabled=False,
                                  viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    yield context.new_page()
    context.close()


def test_without_javascript_a_visitor_reads_the_game_in_words(page_without_js: Any,
                                                               live_server: Any) -> None:
    page = page_without_js
    data = bot_match()
    result, record = data["result"], data["result"].record

    page.goto(f"{live_server.url}/matches/{data['match'].pk}/")

    replay = page.get_by_role("region", name="Replay")
    expect(replay.get_by_role("button", name="Forward ›")).to_be_hidden()
    hands = replay.get_by_role("list", name="The game in words").locator("details")
    expect(hands).to_have_count(5)
    for number, scores in enumerate(result.hand_scores, start=1):
        expect(hands.nth(number - 1).locator("summary")).to_contain_text(
            f"Hand {number}: ")
        expect(hands.nth(number - 1).locator("summary")).to_contain_text(
            f"Hand score: {data['match'].team_a.name} {scores[0]}, "
            f"{data['match'].team_b.name} {scores[1]}.")
    second = hands.nth(1)
    second.locator("summary").click()  # a details element opens without script
    expect(second.get_by_text("deals 7 cards each")).to_be_visible()
    expect(second.locator("ol > li")).to_have_count(len(record["hands"][1]["actions"]))
    expect(second.locator("ol > li").first).to_be_visible()
