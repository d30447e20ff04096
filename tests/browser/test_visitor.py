"""A visitor follows a tournament in the browser: the tournament, its bracket, standings that
update by themselves, and a match replay stepped with the buttons and the keyboard."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tournaments import services

from ..pages import WIN_SHEET, bot_match, enter_sheet, knockout_cup, organiser, published_round
from ..tournaments.factories import tournament_with_teams
from . import browser_fixture, page_fixture  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_visitor_opens_a_tournament_its_bracket_and_standings(page: Any,
                                                                 live_server: Any) -> None:
    cup = knockout_cup()
    tournament = cup["tournament"]
    services.standings_rebuild(tournament=tournament)
    seeds = {e.seed: e.team.name for e in tournament.entries.select_related("team")}

    page.goto(live_server.url + "/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Tournaments").click()
    page.get_by_role("link", name="Knockout Cup").click()
    assert page.get_by_role("heading", level=1).inner_text() == "Knockout Cup"
    assert page.get_by_text("single-elimination knockout").first.is_visible()

    page.get_by_role("navigation", name="Tournament pages").get_by_role(
        "link", name="Bracket").click()
    bracket = page.get_by_role("region", name="Bracket")
    assert bracket.get_by_role("heading", name="Quarter-finals").is_visible()
    assert bracket.get_by_role("heading", name="Final", exact=True).is_visible()
    assert bracket.locator(".bracket-match.bye").count() == 2
    for seed in (1, 2):  # the top seeds' byes, and they go on to the semi-finals
        bye = bracket.locator(".bracket-match.bye", has_text=seeds[seed])
        assert "bye" in bye.inner_text()
    semis = bracket.locator(".bracket-round").nth(1)
    assert seeds[1] in semis.inner_text() and seeds[2] in semis.inner_text()

    page.get_by_role("link", name="Standings").click()
    table = page.get_by_role("table")
    assert table.locator("tbody tr").count() == 6
    assert page.get_by_text("ties are broken by").is_visible()

    # Sorting: by team name with the keyboard, then back by rank.
    team_heading = table.locator("thead th").nth(1)
    team_heading.get_by_role("button").focus()
    page.keyboard.press("Enter")
    assert team_heading.get_attribute("aria-sort") == "ascending"
    names = table.locator("tbody th").all_inner_texts()
    assert names == sorted(names)
    page.keyboard.press("Enter")
    assert team_heading.get_attribute("aria-sort") == "descending"
    assert table.locator("tbody th").all_inner_texts() == sorted(names, reverse=True)


def test_a_visitor_steps_through_a_match_replay(page: Any, live_server: Any) -> None:
    data = bot_match()
    record = data["result"].record
    actions = len(record["hands"][0]["actions"])

    page.goto(f"{live_server.url}/matches/{data['match'].pk}/")
    replay = page.locator("#replay")
    position = replay.locator("[data-position]")
    assert position.inner_text() == "Hand 1 of 5, the deal"
    assert "deals 6 cards each" in replay.locator("[data-action]").inner_text()
    assert replay.locator(".replay-seat .card").count() == 24  # all four hands, six cards each
    labels = replay.locator(".replay-seat .card").evaluate_all(
        "cards => cards.map(c => c.getAttribute('aria-label'))")
    assert all(re.fullmatch(r"(ace|\d+|jack|queen|king) of \w+|joker", label)
               for label in labels), labels
    red = replay.locator(".replay-seat .card.red").first
    assert red.evaluate("c => getComputedStyle(c).color") == "rgb(179, 0, 27)"
    assert re.search(r"[♥♦]", red.inner_text())
    back = replay.get_by_role("button", name="‹ Back")
    assert back.is_disabled()

    replay.get_by_role("button", name="Forward ›").click()
    assert position.inner_text() == f"Hand 1 of 5, action 1 of {actions}"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert position.inner_text() == f"Hand 1 of 5, action 3 of {actions}"
    page.keyboard.press("ArrowLeft")
    assert position.inner_text() == f"Hand 1 of 5, action 2 of {actions}"
    back.click()
    assert position.inner_text() == f"Hand 1 of 5, action 1 of {actions}"

    page.keyboard.press("End")
    assert position.inner_text() == f"Hand 1 of 5, action {actions} of {actions}"
    assert "Hand score" in replay.locator("[data-action]").inner_text()
    page.keyboard.press("ArrowRight")  # on into the next hand
    assert position.inner_text() == "Hand 2 of 5, the deal"
    assert replay.get_by_role("button", name="Hand 2").get_attribute("aria-pressed") == "true"
    replay.get_by_role("button", name="Hand 5").click()
    page.keyboard.press("End")
    assert replay.get_by_role("button", name="Forward ›").is_disabled()
    assert replay.locator("[data-outcome]").inner_text() != ""

    download = page.get_by_role("link", name="Download the game record (JSON)")
    assert download.get_attribute("href") == f"/matches/{data['match'].pk}/record.json"


def test_the_standings_update_by_themselves_when_a_result_lands(page: Any, live_server: Any,
                                                                settings: Any) -> None:
    settings.PUSH_LIVE_POLL_SECONDS = 0.5
    user = organiser()
    tournament = tournament_with_teams(4, name="Live Cup", organisers=[user])
    round = published_round(tournament)
    match = round.matches.order_by("table__number").first()

    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/standings/")
    assert page.get_by_text("No results yet").is_visible()
    page.evaluate("document.body.setAttribute('data-loaded-once', '1')")

    enter_sheet(match, WIN_SHEET, user)
    services.standings_rebuild(tournament=tournament, full=False)

    row = page.locator(f'tr[data-team="{match.team_a_id}"]')
    row.wait_for()
    assert match.team_a.name in row.inner_text()
    assert row.locator("td.points").inner_text() == "2"
    assert page.evaluate("document.body.getAttribute('data-loaded-once')") == "1"  # no reload
    assert "Updated at" in page.locator("[data-live-status]").inner_text()
