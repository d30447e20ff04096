"""axe-core (Deque's engine, not ours) on every public page: no violation of any impact
(minor to critical), in English and, for the pages with words of their own, in Finnish. The
pages are opened on tournaments of each kind (a finished knockout with its bracket and final
places, a Swiss tournament with a round being played, a bot match with its replay), and
checked once their scripts have run. On a phone, the standings and the crosstable keep the
team column in view while the rest scrolls, and round links are big enough to tap."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

import pytest

from tournaments import services
from tournaments.models import Team, Tournament

from ..pages import (
    LOSS_SHEET,
    bot_match,
    enter_sheet,
    finished_knockout,
    organiser,
    play_round_with_sheets,
    swiss_cup,
)
from ..tournaments.factories import TournamentFactory, tournament_with_teams
from ..tournaments.test_board_pages import venue_round
from . import TIMEOUT_MS, browser_fixture, expect, page_fixture  # noqa: F401  (fixtures)
from .axe import EVERY_IMPACT, axe_violations, describe

pytestmark = pytest.mark.django_db(transaction=True)
def site() -> dict[str, str]:
    """Every kind of public page, by name, on a site with something of everything."""
    knockout = finished_knockout()
    cup = swiss_cup()
    swiss, user = cup["tournament"], cup["user"]
    services.round_publish(round=cup["draft"], user=user)  # round 2 is being played
    enter_sheet(cup["draft"].matches.filter(is_bye=False).first(), LOSS_SHEET, user)
    services.standings_rebuild(tournament=swiss, full=False)
    entry = swiss.entries.first()
    entry.withdrawn = True
    entry.save()
    TournamentFactory(name="Spring Open", starts_on=datetime.date(2027, 1, 15))
    match = bot_match()["match"]
    team = Team.objects.get(pk=match.team_a_id)
    duplicate = venue_round()[0]
    services.standings_rebuild(tournament=duplicate.round.tournament)
    board_tournament = duplicate.round.tournament_id
    return {
        "home": "/", "rules": "/rules/", "tournament list": "/tournaments/",
        "knockout": f"/tournaments/{knockout.pk}/",
        "knockout standings": f"/tournaments/{knockout.pk}/standings/",
        "bracket": f"/tournaments/{knockout.pk}/bracket/",
        "knockout round": f"/tournaments/{knockout.pk}/rounds/3/",
        "swiss": f"/tournaments/{swiss.pk}/",
        "standings": f"/tournaments/{swiss.pk}/standings/",
        "standings after round 1": f"/tournaments/{swiss.pk}/standings/?round=1",
        "bad standings round": f"/tournaments/{swiss.pk}/standings/?round=x",
        "crosstable": f"/tournaments/{swiss.pk}/crosstable/",
        "round being played": f"/tournaments/{swiss.pk}/rounds/2/",
        "match": f"/matches/{match.pk}/",
        "team": f"/teams/{team.pk}/", "player": f"/players/{team.player_a_id}/",
        "duplicate board": f"/tournaments/{board_tournament}/boards/1/",
        "duplicate standings": f"/tournaments/{board_tournament}/standings/",
        "duplicate team": f"/teams/{duplicate.team_a_id}/",
    }


@pytest.fixture(name="finnish_page")
def finnish_page_fixture(browser: Any) -> Iterator[Any]:
    context = browser.new_context(locale="fi-FI", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    yield context.new_page()
    context.close()


def check(page: Any, base: str, pages: dict[str, str], language: str = "en") -> list[str]:
    found = []
    for name, path in pages.items():
        page.goto(base + path)
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        if page.locator("table[data-sortable]").count():  # its script has made the buttons
            expect(page.locator("table[data-sortable-ready]")).to_have_count(1)
        if name == "match":
            expect(page.locator("#replay")).to_have_attribute("data-replay-ready", "")
        violations = axe_violations(page, EVERY_IMPACT)
        if violations:
            found.append(f"{name} ({path}):\n{describe(violations)}")
    return found


def test_every_public_page_passes_axe_core(page: Any, finnish_page: Any,
                                           live_server: Any) -> None:
    pages = site()

    found = check(page, live_server.url, pages)
    found += [f"in Finnish: {text}" for text in check(finnish_page, live_server.url, {
        name: pages[name] for name in ("home", "rules", "standings", "bracket", "team",
                                    "duplicate board")}, "fi")]

    assert not found, "axe-core found violations:\n\n" + "\n\n".join(found)


def phone(browser: Any) -> Any:
    context = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844},
                                  is_mobile=True, has_touch=True, device_scale_factor=2)
    context.set_default_timeout(TIMEOUT_MS)
    return context


def wide_tournament() -> Tournament:
    """Eight teams and every tie-break: tables much wider than a phone."""
    user = organiser()
    tournament = tournament_with_teams(
        8, name="Wide Cup", format=Tournament.Format.ROUND_ROBIN, organisers=[user],
        tiebreaks=["score_diff", "fewest_penalty", "head_to_head", "buchholz",
                   "sonneborn_berger", "out_hands"])
    for _round in range(2):
        play_round_with_sheets(tournament, user)
    return tournament


@pytest.mark.parametrize("table, path", [
    ("standings", "/tournaments/{}/standings/"), ("crosstable", "/tournaments/{}/crosstable/")])
def test_on_a_phone_the_team_column_stays_while_the_table_scrolls(
        browser: Any, live_server: Any, table: str, path: str) -> None:
    tournament = wide_tournament()
    context = phone(browser)
    page = context.new_page()
    page.goto(live_server.url + path.format(tournament.pk))
    scroller = page.locator(".table-scroll").first
    first_row = scroller.locator("tbody tr").first
    team = first_row.locator("th")
    leftmost = first_row.locator("td").first if table == "standings" else None
    last = first_row.locator("td").last
    expect(team).to_be_in_viewport(ratio=1)
    expect(last).not_to_be_in_viewport()  # the table is wider than the phone

    scroller.evaluate("element => { element.scrollLeft = element.scrollWidth; }")

    expect(last).to_be_in_viewport(ratio=1)
    expect(team).to_be_in_viewport(ratio=1)  # it stayed
    if leftmost is not None:
        expect(leftmost).not_to_be_in_viewport()  # the rank scrolled away under it
    context.close()


def test_on_a_phone_round_links_are_big_enough_to_tap(browser: Any, live_server: Any) -> None:
    tournament = wide_tournament()
    context = phone(browser)
    page = context.new_page()

    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/")
    links = page.get_by_role("navigation", name="Rounds").get_by_role("link")
    expect(links).to_have_count(1)  # round 2 (round 1 is this page)
    page.wait_for_function("""() => [...document.querySelectorAll(
        '.round-links a, .round-links strong')].every(element => {
          const box = element.getBoundingClientRect();
          return box.width >= 44 && box.height >= 44; })""")
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    expect(page.locator(".round-list a")).to_have_count(2)
    page.wait_for_function("""() => [...document.querySelectorAll('.round-list a')]
        .every(element => element.getBoundingClientRect().height >= 44)""")
    # and axe's own target-size rule (WCAG 2.5.8, 24 px; off by default) on the phone pages
    team = tournament.entries.first().team_id
    for path in (f"/tournaments/{tournament.pk}/", f"/tournaments/{tournament.pk}/rounds/1/",
                 f"/tournaments/{tournament.pk}/standings/", f"/teams/{team}/"):
        page.goto(live_server.url + path)
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        violations = axe_violations(page, EVERY_IMPACT, only=("target-size",))
        assert not violations, describe(violations)
    context.close()
