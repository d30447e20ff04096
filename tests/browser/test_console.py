"""A whole round of a six-team round robin, run from the organiser's console: the
organiser pairs, swaps two teams in the draft, publishes; at each table a player enters the
score sheet by taps on a phone and a player of the other team confirms it from their own
phone; the console shows the results in, the organiser completes the round, and the public
standings count the three results. axe-core checks the console with a draft and with a round
being played, and the draft round's admin page."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments.models import Match, Round

from ..tournaments.factories import UserFactory, tournament_with_teams
from ..tournaments.venue import OUT, SHEET, hashed_password
from . import TIMEOUT_MS, browser_fixture, expect, page_fixture  # noqa: F401  (fixtures)
from .axe import assert_accessible
from .phones import log_in, phones_fixture  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db(transaction=True)
# On the round's admin page, Django's own breadcrumbs fail axe's link-in-text-block (white
# links on light blue, told apart by colour alone): not ours to fix, so axe checks that page's
# content (the round's form) alone. The console, breadcrumbs and all, is checked whole.
ADMIN_CONTENT = "#content"


def report_on_phones(phones: Any, url: str, match: Match) -> None:
    """A player of team A enters the sheet by taps; a player of team B confirms it."""
    seats = {seat.position: seat.player for seat in match.seats.select_related("player__user")}
    teams = [match.team_a.name, match.team_b.name]
    login = url + f"/accounts/login/?next=/matches/{match.pk}/"

    reporter = phones()
    log_in(reporter, login, seats[0].user.username)
    reporter.get_by_role("link", name="Enter the score sheet").tap()
    for number, (scores, out) in enumerate(zip(SHEET, OUT, strict=True), start=1):
        hand = reporter.locator("fieldset.sheet-hand").nth(number - 1)
        hand.get_by_text(seats[out].name, exact=True).tap()
        expect(hand.get_by_label(teams[out % 2])).to_have_value("0")  # filled by the tap
        hand.get_by_label(teams[1 - out % 2]).fill(str(scores[1 - out % 2]))
    expect(reporter.locator("output[data-total='1']")).to_have_text("115")
    reporter.get_by_role("button", name="Send the score sheet").tap()
    expect(reporter.locator(".messages")).to_contain_text("Your score sheet is stored")

    confirmer = phones()
    log_in(confirmer, login, seats[1].user.username)
    expect(confirmer.locator(".report-box tfoot")).to_contain_text("115")
    confirmer.get_by_role("button", name="Confirm the result").tap()
    expect(confirmer.locator(".messages")).to_contain_text("You confirmed the result")
    reporter.context.close()
    confirmer.context.close()


def test_a_round_robin_round_from_pairing_to_standings(page: Any, phones: Any,
                                                       live_server: Any) -> None:
    organiser = UserFactory(username="ines", password=hashed_password())
    tournament = tournament_with_teams(6, name="Console Cup", format="round_robin",
                                       organisers=[organiser])
    for entry in tournament.entries.select_related("team__player_a", "team__player_b"):
        for player in (entry.team.player_a, entry.team.player_b):
            player.user = UserFactory(username=f"player{player.pk}", is_staff=False,
                                      password=hashed_password())
            player.save()

    log_in(page, live_server.url + "/admin/login/?next=/admin/tournaments/tournament/", "ines")
    page.get_by_role("link", name="Console: run the rounds").click()
    expect(page.locator(".console-status")).to_contain_text("No round is paired yet.")
    expect(page.get_by_role("button", name="Publish")).to_be_disabled()

    page.locator(".console-primary").click()  # the one next step: pair
    expect(page.locator(".messagelist")).to_contain_text("Round 1 is paired as a draft")
    expect(page.locator(".console-status")).to_contain_text("Round 1 of 5: draft.")
    expect(page.locator(".console-table tbody tr")).to_have_count(3)
    round = Round.objects.get(tournament=tournament)
    one, two = (Match.objects.select_related("team_a").get(round=round, table__number=n)
                for n in (1, 2))

    page.get_by_label("Swap team", exact=True).select_option(label=f"{one.team_a} (table 1)")
    page.get_by_label("with team", exact=True).select_option(label=f"{two.team_a} (table 2)")
    page.get_by_role("button", name="Swap teams").click()
    expect(page.locator(".messagelist")).to_contain_text(
        f"swapped {one.team_a} (table 1) and {two.team_a} (table 2)")
    expect(page.locator(".console-note")).to_contain_text("ines")
    expect(page.locator(".console-table tbody tr").first).to_contain_text(str(two.team_a))
    assert_accessible(page)

    page.locator(".console-status").get_by_role("link", name="round page").click()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert_accessible(page, include=ADMIN_CONTENT)
    page.go_back()

    expect(page.locator(".console-primary")).to_have_text("Publish")
    page.locator(".console-primary").click()
    expect(page.locator(".messagelist")).to_contain_text("Round 1 is published.")
    expect(page.locator(".console-next")).to_contain_text("Waiting for 3 result(s)")
    expect(page.get_by_role("button", name="Complete round")).to_be_disabled()
    assert_accessible(page)

    matches = list(Match.objects.filter(round=round).select_related("team_a", "team_b")
                   .order_by("table__number"))
    assert matches[0].team_a == two.team_a  # the swap is what was published
    for match in matches:
        report_on_phones(phones, live_server.url, match)

    page.reload()
    expect(page.locator(".console-status")).to_contain_text("Results in: 3 of 3 tables.")
    expect(page.locator(".console-table tbody tr.console-in")).to_have_count(3)
    expect(page.locator(".console-primary")).to_have_text("Complete round")
    page.locator(".console-primary").click()
    expect(page.locator(".messagelist")).to_contain_text(
        "Round 1 is complete; the standings are updated.")
    expect(page.locator(".console-primary")).to_have_text("Pair next round")

    page.get_by_role("link", name="Public standings").click()
    expect(page.locator("#standings-table tbody tr")).to_have_count(6)
    for match in matches:  # team A's 70 beat team B's 115 at every table (R9.1)
        for team, won in ((match.team_a, "1"), (match.team_b, "0")):
            cells = page.locator(f'#standings-table tr[data-team="{team.pk}"] td')
            expect(cells.nth(2)).to_have_text("1")  # played
            expect(cells.nth(3)).to_have_text(won)  # wins
