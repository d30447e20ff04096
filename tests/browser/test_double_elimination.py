"""A six-team double elimination run from the organiser's console to its champion: round by
round the organiser pairs, publishes, enters every table's score sheet in the admin and
completes the round, until the console says the tournament is over. The better seed wins
every match but the grand final, which the losers' bracket team wins, so the bracket reset
is played too (seven rounds), and wins again. The public bracket then shows the winners' and
losers' brackets, the final and the champion; the standings the final places, 5th-6th
shared; and the bracket reads on a phone (its rounds one under the other, nothing wider
than the screen) and passes axe-core there and on a desktop."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments.models import Tournament

from ..tournaments.factories import UserFactory, tournament_with_teams
from ..tournaments.venue import hashed_password
from . import browser_fixture, expect, page_fixture  # noqa: F401  (fixtures)
from .axe import EVERY_IMPACT, axe_violations, describe
from .phones import log_in, phones_fixture  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db(transaction=True)

# The hands' penalty points of the team that did not go out; the team whose player went out
# scores 0 (R9.1), so the lower total, the winner's, is 0 (R9.2).
PENALTIES = [40, 30, 50, 20, 10]
# Six teams on eight lines: round 1 is the winners' first round (seeds 1 and 2 have byes),
# round 2 the winners' semi-finals and the losers' first round (two byes: the losers of the
# byes' matches do not exist), round 3 the winners' final and two losers' matches, rounds 4
# and 5 the losers' bracket's last two, round 6 the grand final and round 7 its reset.
TABLES = [2, 2, 3, 1, 1, 1, 1]
BYES = {1: (1, 2), 2: (5, 6)}
FINALS = (6, 7)
# Seed 2 loses the winners' final to seed 1, comes through the losers' bracket and beats
# seed 1 twice; the others go out in seed order, the last two in the same losers' round.
PLACES = [("1", 2), ("2", 1), ("3", 3), ("4", 4), ("5–6", 5), ("5–6", 6)]


def enter_sheet(page: Any, row: Any, winner_side: int) -> None:
    """From the console's row, enter a score sheet in the admin that ``winner_side`` (0 for
    team A, 1 for team B) wins: its seat 0 or 1 goes out in every hand."""
    row.get_by_role("link", name="enter the result").click()
    page.get_by_role("link", name="Enter score sheet").click()
    for hand, penalty in enumerate(PENALTIES):
        scores = [penalty, penalty]
        scores[winner_side] = 0
        page.locator(f'input[name="hand-{hand}-team_a"]').fill(str(scores[0]))
        page.locator(f'input[name="hand-{hand}-team_b"]').fill(str(scores[1]))
        page.locator(f'select[name="hand-{hand}-out_seat"]').select_option(str(winner_side))
    page.get_by_role("button", name="Submit result").click()
    expect(page.locator(".messagelist")).to_contain_text("is stored.")


def assert_no_axe_violations(page: Any) -> None:
    violations = axe_violations(page, EVERY_IMPACT)
    assert not violations, f"axe-core on {page.url}:\n{describe(violations)}"


def test_a_double_elimination_from_the_console_to_its_champion(page: Any, phones: Any,
                                                               live_server: Any) -> None:
    organiser = UserFactory(username="dora", password=hashed_password())
    tournament = tournament_with_teams(6, name="Second Chance Cup",
                                       format=Tournament.Format.DOUBLE_ELIMINATION,
                                       organisers=[organiser])
    team = {entry.seed: entry.team.name for entry in tournament.entries.select_related("team")}
    console = f"{live_server.url}/admin/tournaments/tournament/{tournament.pk}/console/"

    log_in(page, live_server.url + "/admin/login/?next=/admin/tournaments/tournament/", "dora")
    page.get_by_role("link", name="Console: run the rounds").click()
    expect(page.locator(".console-status")).to_contain_text("No round is paired yet.")
    primary, messages = page.locator(".console-primary"), page.locator(".messagelist")
    rows = page.locator(".console-table tbody tr")

    for number, tables in enumerate(TABLES, start=1):
        expect(primary).to_have_text("Pair next round")
        primary.click()
        expect(messages).to_contain_text(f"Round {number} is paired as a draft")
        expect(page.locator(".console-status")).to_contain_text(f"Round {number} of 7: draft.")
        expect(rows).to_have_count(tables)
        byes = page.locator(".console-tables p", has_text="Byes:")
        if number in BYES:
            for seed in BYES[number]:
                expect(byes).to_contain_text(f"{team[seed]} (bye)")
        else:
            expect(byes).to_have_count(0)
        expect(primary).to_have_text("Publish")
        primary.click()
        expect(messages).to_contain_text(f"Round {number} is published.")

        for table in range(tables):
            row = rows.nth(table)
            expect(row).to_have_class("console-missing")
            # team A is the better seed (the format puts it home): it wins, but for the
            # finals; the places at the end show each match went to the side chosen here
            enter_sheet(page, row, winner_side=1 if number in FINALS else 0)
            page.goto(console)
        expect(page.locator(".console-status")).to_contain_text(
            f"Results in: {tables} of {tables} table")
        expect(primary).to_have_text("Complete round")
        primary.click()
        expect(messages).to_contain_text(f"Round {number} is complete")

    expect(primary).to_have_count(0)
    expect(page.locator(".console-next")).to_contain_text(
        "All 7 rounds are played: the tournament is over.")
    expect(page.locator(".console-steps")).to_have_count(0)

    champion = team[PLACES[0][1]]
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/bracket/")
    expect(page.locator(".champion")).to_have_text(f"Winner: {champion}")
    sections = page.locator(".bracket-section")
    expect(sections.locator(":scope > h2")).to_have_text(
        ["Winners' bracket", "Losers' bracket", "Final"])
    winners, losers, final = (sections.nth(n) for n in range(3))
    expect(winners.locator(".bracket-round h3")).to_have_text(
        ["Winners' round 1", "Winners' round 2", "Winners' final"])
    expect(losers.locator(".bracket-round h3")).to_have_text(
        ["Losers' round 1", "Losers' round 2", "Losers' round 3", "Losers' final"])
    expect(final.locator(".bracket-round h3")).to_have_text(["Grand final", "Bracket reset"])
    expect(winners.locator(".bracket-match.bye")).to_have_count(2)
    expect(losers.locator(".bracket-match.bye")).to_have_count(2)
    # every match has the team that went through ticked, byes too: 7 + 6 + 2
    expect(page.locator(".bracket-slot.won")).to_have_count(15)
    expect(final.locator(".bracket-slot.won")).to_contain_text([champion, champion])
    assert_no_axe_violations(page)

    page.get_by_role("link", name="Standings").click()
    places = page.locator(".final-places tbody tr")
    expect(places).to_have_count(len(PLACES))
    expect(places.locator("td")).to_have_text([place for place, _seed in PLACES])
    expect(places.locator("th a")).to_have_text([team[seed] for _place, seed in PLACES])
    expect(places.first.locator(".badge-champion")).to_have_text("champion")
    page.get_by_role("link", name="Overview").click()
    expect(page.locator(".lead")).to_have_text("Double elimination · Finished")
    expect(page.locator(".final-places tbody th a")).to_have_text(
        [team[seed] for _place, seed in PLACES])

    phone = phones()
    phone.goto(f"{live_server.url}/tournaments/{tournament.pk}/bracket/")
    expect(phone.locator(".champion")).to_have_text(f"Winner: {champion}")
    expect(phone.locator("html")).to_have_js_property("scrollWidth", 390)  # no sideways
    expect(phone.locator(".bracket")).to_have_count(3)
    for bracket in phone.locator(".bracket").all():
        expect(bracket).to_have_css("flex-direction", "column")
    # each round under the one before, and no match wider than the screen
    phone.wait_for_function("""() => [...document.querySelectorAll('.bracket')].every(bracket => {
        const rounds = [...bracket.querySelectorAll(':scope > .bracket-round')]
          .map(round => round.getBoundingClientRect());
        return rounds.every((box, n) => n === 0 || box.top >= rounds[n - 1].bottom);
      }) && [...document.querySelectorAll('.bracket-match')].every(match =>
        match.getBoundingClientRect().right <= document.documentElement.clientWidth)""")
    assert_no_axe_violations(phone)
