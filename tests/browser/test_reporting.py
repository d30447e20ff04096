"""Players report at the venue, on phones: one player enters the score sheet by taps
on a 390x844 screen, a player of the other team confirms it from their own phone, and the
result appears on the public match page."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.venue import OUT, SHEET, Venue, venue_match

from . import TIMEOUT_MS, browser_fixture, expect  # noqa: F401  (fixture)
from .axe import EVERY_IMPACT, assert_accessible
from .phones import log_in, phones_fixture  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def enter_sheet(page: Any, venue: Venue) -> None:
    seats = {seat.position: seat.player.name
             for seat in venue.match.seats.select_related("player")}
    teams = [venue.match.team_a.name, venue.match.team_b.name]
    for number, (scores, out) in enumerate(zip(SHEET, OUT, strict=True), start=1):
        hand = page.locator("fieldset.sheet-hand").nth(number - 1)
        hand.get_by_text(seats[out], exact=True).tap()
        out_team = out % 2
        expect(hand.get_by_label(teams[out_team])).to_have_value("0")  # filled by the tap
        hand.get_by_label(teams[1 - out_team]).fill(str(scores[1 - out_team]))
        expect(hand.locator("output[data-running='1']")).to_have_text(
            str(sum(s[1] for s in SHEET[:number])))


def test_a_player_enters_the_sheet_and_the_other_team_confirms_it(
        phones: Any, live_server: Any) -> None:
    venue = venue_match(name="Venue Cup")
    match_url = f"{live_server.url}/matches/{venue.match.pk}/"

    reporter = phones()
    log_in(reporter, match_url.replace("/matches/", "/accounts/login/?next=/matches/"),
           "seat0")
    reporter.get_by_role("link", name="Enter the score sheet").tap()
    expect(reporter.get_by_role("heading", name="Score sheet")).to_be_visible()
    expect(reporter.locator("html")).to_have_js_property("scrollWidth", 390)  # no sideways
    enter_sheet(reporter, venue)
    expect(reporter.locator("output[data-total='0']")).to_have_text("70")
    expect(reporter.locator("output[data-total='1']")).to_have_text("115")
    reporter.get_by_role("button", name="Send the score sheet").tap()
    expect(reporter.locator(".messages")).to_contain_text("Your score sheet is stored")
    expect(reporter.get_by_role("button", name="Confirm the result")).to_have_count(0)

    public = phones()
    public.goto(match_url)
    expect(public.locator(".live-body")).to_contain_text("waits to be confirmed")
    expect(public.locator(".result-line")).to_have_count(0)  # no score before it counts

    confirmer = phones()
    log_in(confirmer, match_url.replace("/matches/", "/accounts/login/?next=/matches/"),
           "seat1")
    expect(confirmer.locator(".report-box tfoot")).to_contain_text("115")
    confirmer.get_by_role("button", name="Confirm the result").tap()
    expect(confirmer.locator(".messages")).to_contain_text("You confirmed the result")

    public.goto(match_url)
    expect(public.locator(".result-line")).to_contain_text(f"{venue.match.team_a.name} won")
    expect(public.locator(".result-line")).to_contain_text("70–115")
    expect(public.locator("table.scores tbody tr")).to_have_count(5)


def test_the_players_pages_pass_axe_core(phones: Any, live_server: Any) -> None:
    """axe-core on what the players use at the venue, on a phone: the login page
    (also with its error), the score sheet (empty, then filled in), the match page's box as
    the reporter and as the confirmer sees it, and the confirmer's own page listing it."""
    venue = venue_match(name="Venue Cup")
    match_url = f"{live_server.url}/matches/{venue.match.pk}/"
    login_url = match_url.replace("/matches/", "/accounts/login/?next=/matches/")

    def check(page: Any) -> None:
        assert_accessible(page, EVERY_IMPACT)

    reporter = phones()
    reporter.goto(login_url)
    expect(reporter.get_by_role("heading", name="Log in")).to_be_visible()
    check(reporter)
    reporter.get_by_label("Username").fill("seat0")
    reporter.get_by_label("Password").fill("not-the-password")
    reporter.get_by_role("button", name="Log in").tap()
    expect(reporter.get_by_role("alert")).to_be_visible()
    check(reporter)
    log_in(reporter, login_url, "seat0")
    expect(reporter.get_by_role("link", name="Enter the score sheet")).to_be_visible()
    check(reporter)
    reporter.get_by_role("link", name="Enter the score sheet").tap()
    expect(reporter.get_by_role("heading", name="Score sheet")).to_be_visible()
    check(reporter)
    enter_sheet(reporter, venue)
    expect(reporter.locator("output[data-total='1']")).to_have_text("115")
    check(reporter)
    reporter.get_by_role("button", name="Send the score sheet").tap()
    expect(reporter.locator(".messages")).to_contain_text("Your score sheet is stored")
    check(reporter)

    confirmer = phones()
    log_in(confirmer, login_url, "seat1")
    expect(confirmer.get_by_role("button", name="Confirm the result")).to_be_visible()
    check(confirmer)
    confirmer.goto(f"{live_server.url}/players/{venue.match.seats.get(position=1).player_id}/")
    expect(confirmer.get_by_role("heading", name="Results to confirm")).to_be_visible()
    check(confirmer)
