"""An organiser runs a round of a six-team round robin from the console: pair, swap two
teams in the draft, publish, enter the results, complete, and the standings are shown."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments import services
from tournaments.models import Match, Round

from ..tournaments.factories import UserFactory, tournament_with_teams
from . import browser_fixture, expect, page_fixture  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "a-long-test-password-2"
SHEET = [(0, 50, "0")] * 5  # team A goes out every hand (seat 0)


def test_an_organiser_runs_a_round_robin_round_from_the_console(page: Any,
                                                                live_server: Any) -> None:
    organiser = UserFactory(username="ines")
    organiser.set_password(PASSWORD)
    organiser.save()
    tournament = tournament_with_teams(6, name="Console Cup", format="round_robin",
                                       organisers=[organiser])

    page.goto(live_server.url + "/admin/")
    page.get_by_label("Username").fill("ines")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(live_server.url + "/admin/tournaments/tournament/")
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
    first_row = page.locator(".console-table tbody tr").first
    expect(first_row).to_contain_text(str(two.team_a))

    expect(page.locator(".console-primary")).to_have_text("Publish")
    page.locator(".console-primary").click()
    expect(page.locator(".messagelist")).to_contain_text("Round 1 is published.")
    expect(page.locator(".console-next")).to_contain_text("Waiting for 3 result(s)")
    expect(page.get_by_role("button", name="Complete round")).to_be_disabled()

    first_row.get_by_role("link", name="enter the result").click()
    page.get_by_role("link", name="Enter score sheet").click()
    for hand, (a, b, out) in enumerate(SHEET):
        page.locator(f'[name="hand-{hand}-team_a"]').fill(str(a))
        page.locator(f'[name="hand-{hand}-team_b"]').fill(str(b))
        page.locator(f'[name="hand-{hand}-out_seat"]').select_option(out)
    page.get_by_role("button", name="Submit result").click()
    expect(page.locator(".messagelist")).to_contain_text("is stored")
    for match in round.matches.exclude(table__number=1):  # the other two: narrow wins
        services.match_submit_score_sheet(match=match, hand_scores=[[10, 0]] * 5,
                                          out_seats=[1] * 5, user=organiser)

    page.goto(f"{live_server.url}/admin/tournaments/tournament/{tournament.pk}/console/")
    expect(page.locator(".console-status")).to_contain_text("Results in: 3 of 3 tables.")
    expect(page.locator(".console-primary")).to_have_text("Complete round")
    page.locator(".console-primary").click()
    expect(page.locator(".messagelist")).to_contain_text(
        "Round 1 is complete; the standings are updated.")
    expect(page.locator(".console-primary")).to_have_text("Pair next round")

    page.get_by_role("link", name="Public standings").click()
    winner = Match.objects.select_related("team_a").get(round=round, table__number=1).team_a
    expect(page.locator("table tbody tr")).to_have_count(6)
    expect(page.locator("table tbody tr").first).to_contain_text(str(winner))
