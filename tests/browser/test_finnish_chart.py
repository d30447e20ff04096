"""A Finnish visitor opens a player's rating chart: the browser accepts every coordinate (no
console errors) and each axis label stands whole at its tick, reading the rating there; on a
phone the chart drawn for it is shown, its labels as large as on a computer."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tournaments import services
from tournaments.models import Player, RatingEntry
from tournaments.ratings import Rating
from tournaments.views.charts import line_chart

from ..pages import LOSS_SHEET, play_round_with_sheets, swiss_cup
from . import TIMEOUT_MS, browser_fixture, expect  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def finnish_page(browser: Any) -> Iterator[tuple[Any, list[str]]]:
    """A Finnish tab, and the errors its console reports (an SVG attribute the browser
    rejects is a console error, not a script error)."""
    context = browser.new_context(locale="fi-FI", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text)
            if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page, errors
    context.close()


def test_a_finnish_rating_chart_draws_its_points_and_labels(
        finnish_page: tuple[Any, list[str]], live_server: Any) -> None:
    page, errors = finnish_page
    cup = swiss_cup()
    play_round_with_sheets(cup["tournament"], cup["user"], [LOSS_SHEET, LOSS_SHEET])
    services.ratings_rebuild()
    player = Player.objects.filter(rating_history__isnull=False).distinct().first()
    ratings = [Rating(e.mu, e.sigma).scaled for e in RatingEntry.objects.filter(player=player)]
    labels = [label for _y, label in line_chart(ratings, [""] * len(ratings)).y_ticks]

    page.goto(f"{live_server.url}/players/{player.pk}/")

    chart = page.locator("svg.chart-wide")
    expect(page.locator("svg.chart-phone")).to_be_hidden()
    expect(page.locator("html")).to_have_attribute("lang", "fi")
    expect(chart.locator("circle.dot")).to_have_count(len(ratings))
    ticks = chart.locator("text[text-anchor=end]")
    expect(ticks).to_have_text(labels)
    assert errors == [], f"console errors: {errors}"
    box = chart.bounding_box()
    for index in range(len(labels)):
        # a coordinate written "224,0" is a list: the first glyph at 224, the next at 0
        tick = ticks.nth(index).bounding_box()
        assert tick["height"] < 30 and tick["width"] < 60, (labels[index], tick)
        assert box["y"] <= tick["y"] <= box["y"] + box["height"]
    dot = chart.locator("circle.dot").first.bounding_box()
    assert dot["width"] > 0 and box["x"] < dot["x"] < box["x"] + box["width"]


def test_on_a_phone_the_charts_labels_keep_their_size(browser: Any, live_server: Any) -> None:
    cup = swiss_cup()
    play_round_with_sheets(cup["tournament"], cup["user"], [LOSS_SHEET, LOSS_SHEET])
    services.ratings_rebuild()
    player = Player.objects.filter(rating_history__isnull=False).distinct().first()
    context = browser.new_context(viewport={"width": 390, "height": 844},
                                  device_scale_factor=2, is_mobile=True, has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/players/{player.pk}/")
        chart = page.locator("svg.chart-phone")
        expect(chart).to_be_visible()
        expect(page.locator("svg.chart-wide")).to_be_hidden()
        labels = chart.locator("text")
        expect(labels.first).to_be_visible()
        for index in range(labels.count()):
            box = labels.nth(index).bounding_box()
            # 12 px text; the wide drawing scaled to the phone made it about 6 px
            assert box is not None and box["height"] >= 10, box
    finally:
        context.close()
