"""An organiser swaps teams in a round robin's draft from the console: a swap that would pair
two teams a second time is refused, saying who met when, with the draw unchanged; a swap
that can be followed re-plans the rounds to come, and the next round paired from the console
follows the new plan, so no pair meets twice."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from tournaments import services
from tournaments.formats import PairingError
from tournaments.models import Match, Round, Tournament
from tournaments.selectors import tournament_format

from ..tournaments.factories import UserFactory, tournament_with_teams
from ..tournaments.test_draft import play_round
from ..tournaments.test_round_robin_plan import swapped
from ..tournaments.venue import hashed_password
from . import browser_fixture, expect, page_fixture  # noqa: F401  (fixtures)
from .phones import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def label(match: Match, side: int) -> str:
    team = match.team_b if side else match.team_a
    return f"{team} (table {match.table.number})"


def followable(tournament: Tournament, tables: list[Match]) -> list[tuple[Match, int]]:
    """The first two teams at different tables whose swap the format can re-plan after."""
    spec, data = tournament_format(tournament)
    rounds = list(data.rounds())
    places = [(match, side) for match in tables for side in (0, 1)]
    for (one, side_one), (two, side_two) in combinations(places, 2):
        teams = [(m.team_b_id if side else m.team_a_id) for m, side in ((one, side_one),
                                                                        (two, side_two))]
        if one == two or None in teams:
            continue
        try:
            spec.replanned(data, [*rounds[:-1], swapped(rounds, *teams)])
        except PairingError:
            continue
        return [(one, side_one), (two, side_two)]
    raise AssertionError("no swap of this draft can be followed")


def test_a_round_robin_swap_is_refused_or_re_plans_the_rounds_to_come(
        page: Any, live_server: Any) -> None:
    organiser = UserFactory(username="ines", password=hashed_password())
    tournament = tournament_with_teams(6, name="Swap Cup", format="round_robin",
                                       organisers=[organiser])
    play_round(services.round_pair_next(tournament=tournament, user=organiser), organiser)
    second = services.round_pair_next(tournament=tournament, user=organiser)
    first_round = {frozenset((m.team_a_id, m.team_b_id))
                   for m in Match.objects.filter(round__number=1, round__tournament=tournament)}
    tables = list(Match.objects.filter(round=second).select_related("table", "team_a", "team_b")
                  .order_by("table__number"))
    home = tables[0].team_a
    met = next(t for pair in first_round if home.pk in pair for t in pair if t != home.pk)
    where = next((m, side) for m in tables for side, team in enumerate((m.team_a_id,
                                                                      m.team_b_id))
                 if team == met)

    log_in(page, f"{live_server.url}/admin/tournaments/tournament/{tournament.pk}/console/",
           "ines")
    rows = page.locator(".console-table tbody tr")
    expect(rows).to_have_count(3)

    # the team that met table 1's home team in round 1 takes its opponent's place: refused
    page.get_by_label("Swap team", exact=True).select_option(label=label(tables[0], 1))
    page.get_by_label("with team", exact=True).select_option(label=label(*where))
    page.get_by_role("button", name="Swap teams").click()
    expect(page.locator(".messagelist .error")).to_contain_text("already met in round 1: in a "
                                                                "round robin every pair of "
                                                                "teams meets exactly once")
    for row, match in enumerate(tables):  # the draw is as it was
        expect(rows.nth(row)).to_contain_text(f"{match.team_a.name}0 ")
        expect(rows.nth(row)).to_contain_text(f"{match.team_b.name}1 ")

    # a swap the format can follow: the rounds to come are re-planned
    (one, side_one), (two, side_two) = followable(tournament, tables)
    page.get_by_label("Swap team", exact=True).select_option(label=label(one, side_one))
    page.get_by_label("with team", exact=True).select_option(label=label(two, side_two))
    page.get_by_role("button", name="Swap teams").click()
    expect(page.locator(".messagelist .success")).to_contain_text(
        "the schedule is re-planned so that every pair of teams still meets once")
    moved = one.team_b if side_one else one.team_a
    expect(rows.nth(two.table.number - 1)).to_contain_text(f"{moved.name}{side_two} ")

    play_round(Round.objects.get(pk=second.pk), organiser)
    page.reload()
    page.locator(".console-primary").click()  # pair the next round
    expect(page.locator(".messagelist")).to_contain_text("Round 3 is paired as a draft")
    meetings = [frozenset((m.team_a_id, m.team_b_id))
                for m in Match.objects.filter(round__tournament=tournament)]
    assert len(meetings) == 9 and len(set(meetings)) == 9  # no pair has met twice
