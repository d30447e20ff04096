"""A visitor follows a tournament in the browser: the tournament, its bracket, standings that
update by themselves, and a match replay stepped with the buttons and the keyboard (also
while its game is still on its way).

Every check is a waiting ``expect(...)``: the page may still be loading or running its
scripts right after a click or a key press."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tournaments import services

from ..pages import WIN_SHEET, bot_match, enter_sheet, knockout_cup, organiser, published_round
from ..tournaments.factories import tournament_with_teams
from . import browser_fixture, expect, page_fixture  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db(transaction=True)
CARD_LABEL = re.compile(r"^((ace|\d+|jack|queen|king) of \w+|joker)$")


def test_a_visitor_opens_a_tournament_its_bracket_and_standings(page: Any,
                                                                 live_server: Any) -> None:
    cup = knockout_cup()
    tournament = cup["tournament"]
    services.standings_rebuild(tournament=tournament)
    seeds = {e.seed: e.team.name for e in tournament.entries.select_related("team")}

    page.goto(live_server.url + "/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Tournaments").click()
    page.get_by_role("link", name="Knockout Cup").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Knockout Cup")
    expect(page.get_by_text("single-elimination knockout").first).to_be_visible()

    page.get_by_role("navigation", name="Tournament pages").get_by_role(
        "link", name="Bracket").click()
    bracket = page.get_by_role("region", name="Bracket")
    expect(bracket.get_by_role("heading", name="Quarter-finals")).to_be_visible()
    expect(bracket.get_by_role("heading", name="Final", exact=True)).to_be_visible()
    expect(bracket.locator(".bracket-match.bye")).to_have_count(2)
    for seed in (1, 2):  # the top seeds' byes, and they go on to the semi-finals
        expect(bracket.locator(".bracket-match.bye", has_text=seeds[seed])).to_contain_text("bye")
    semis = bracket.locator(".bracket-round").nth(1)
    expect(semis).to_contain_text(seeds[1])
    expect(semis).to_contain_text(seeds[2])

    page.get_by_role("link", name="Standings").click()
    table = page.get_by_role("table")
    rows = table.locator("tbody th")
    expect(rows).to_have_count(6)
    expect(page.get_by_text("ties are broken by")).to_be_visible()
    names = sorted(rows.all_inner_texts())

    # Sorting: by team name with the keyboard, then back. The script marks the table ready
    # once its headings listen, so no key press is lost to a page still loading.
    expect(table).to_have_attribute("data-sortable-ready", "")
    team_heading = table.locator("thead th").nth(1)
    team_heading.get_by_role("button").focus()
    page.keyboard.press("Enter")
    expect(team_heading).to_have_attribute("aria-sort", "ascending")
    expect(rows).to_have_text(names)
    page.keyboard.press("Enter")
    expect(team_heading).to_have_attribute("aria-sort", "descending")
    expect(rows).to_have_text(names[::-1])


def test_a_visitor_steps_through_a_match_replay(page: Any, live_server: Any) -> None:
    data = bot_match()
    record = data["result"].record
    actions = len(record["hands"][0]["actions"])

    page.goto(f"{live_server.url}/matches/{data['match'].pk}/")
    replay = page.locator("#replay")
    position = replay.locator("[data-position]")
    expect(position).to_have_text("Hand 1 of 5, the deal")
    expect(replay.locator("[data-action]")).to_contain_text("deals 6 cards each")
    cards = replay.locator(".replay-seat .card")
    expect(cards).to_have_count(24)  # all four hands, six cards each
    for card in cards.all():
        expect(card).to_have_attribute("aria-label", CARD_LABEL)
    red = replay.locator(".replay-seat .card.red").first
    expect(red).to_have_css("color", "rgb(179, 0, 27)")
    expect(red).to_have_text(re.compile("[♥♦]"))
    back = replay.get_by_role("button", name="‹ Back")
    expect(back).to_be_disabled()

    replay.get_by_role("button", name="Forward ›").click()
    expect(position).to_have_text(f"Hand 1 of 5, action 1 of {actions}")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(position).to_have_text(f"Hand 1 of 5, action 3 of {actions}")
    page.keyboard.press("ArrowLeft")
    expect(position).to_have_text(f"Hand 1 of 5, action 2 of {actions}")
    back.click()
    expect(position).to_have_text(f"Hand 1 of 5, action 1 of {actions}")

    page.keyboard.press("End")
    expect(position).to_have_text(f"Hand 1 of 5, action {actions} of {actions}")
    expect(replay.locator("[data-action]")).to_contain_text("Hand score")
    page.keyboard.press("ArrowRight")  # on into the next hand
    expect(position).to_have_text("Hand 2 of 5, the deal")
    expect(replay.get_by_role("button", name="Hand 2")).to_have_attribute("aria-pressed", "true")
    replay.get_by_role("button", name="Hand 5").click()
    expect(position).to_have_text("Hand 5 of 5, the deal")
    page.keyboard.press("End")
    expect(replay.get_by_role("button", name="Forward ›")).to_be_disabled()
    expect(replay.locator("[data-outcome]")).not_to_be_empty()

    download = page.get_by_role("link", name="Download the game record (JSON)")
    expect(download).to_have_attribute("href", f"/matches/{data['match'].pk}/record.json")


# The page's fetches wait until the test calls window.releaseFetches().
HOLD_FETCHES = """
const realFetch = window.fetch;
const gate = new Promise((resolve) => { window.releaseFetches = resolve; });
window.fetch = (...args) => gate.then(() => realFetch(...args));
"""


def test_the_replay_acts_on_what_was_pressed_while_its_game_was_loading(
        page: Any, live_server: Any) -> None:
    data = bot_match()
    actions = len(data["result"].record["hands"][1]["actions"])
    page.add_init_script(HOLD_FETCHES)
    page.goto(f"{live_server.url}/matches/{data['match'].pk}/")
    replay = page.locator("#replay")
    position = replay.locator("[data-position]")
    expect(replay).to_have_attribute("data-replay-ready", "")  # its script listens
    replay.get_by_role("button", name="Hand 2").click()
    page.keyboard.press("ArrowRight")
    expect(position).to_have_text("Loading the replay…")
    page.evaluate("window.releaseFetches()")
    # both, in the order they were pressed
    expect(position).to_have_text(f"Hand 2 of 5, action 1 of {actions}")
    expect(replay.get_by_role("button", name="Hand 2")).to_have_attribute("aria-pressed", "true")


def test_the_standings_update_by_themselves_when_a_result_lands(page: Any, live_server: Any,
                                                                settings: Any) -> None:
    settings.PUSH_LIVE_POLL_SECONDS = 0.5
    user = organiser()
    tournament = tournament_with_teams(4, name="Live Cup", organisers=[user])
    round = published_round(tournament)
    match = round.matches.order_by("table__number").first()

    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/standings/")
    expect(page.get_by_text("No results yet")).to_be_visible()
    page.evaluate("document.body.setAttribute('data-loaded-once', '1')")

    enter_sheet(match, WIN_SHEET, user)
    services.standings_rebuild(tournament=tournament, full=False)

    row = page.locator(f'tr[data-team="{match.team_a_id}"]')
    expect(row).to_contain_text(match.team_a.name)
    expect(row.locator("td.points")).to_have_text("2")
    expect(page.locator("body")).to_have_attribute("data-loaded-once", "1")  # no reload
    expect(page.locator("[data-live-status]")).to_contain_text("Updated at")


def test_a_link_to_a_hand_opens_the_replay_at_that_hand(page: Any, live_server: Any) -> None:
    # a duplicate board's traveller links each table's replay of it so
    data = bot_match()
    page.goto(f"{live_server.url}/matches/{data['match'].pk}/#replay-hand-3")
    replay = page.locator("#replay")
    expect(replay.locator("[data-position]")).to_have_text("Hand 3 of 5, the deal")
    expect(replay).to_be_focused()
    replay.get_by_role("button", name="Forward ›").click()
    expect(replay.locator("[data-position]")).to_contain_text("Hand 3 of 5")
