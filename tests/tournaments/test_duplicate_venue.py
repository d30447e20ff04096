"""A duplicate round at the venue, run from the console: every table is dealt the same five
boards (printed as such), the score sheets are entered, nothing of the round shows until
every table has finished (or an organiser releases the boards), and the standings rank on
matchpoints, then points, then Butler, worked out by hand below."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.models import Match, RatingEntry, Round, Standing, Tournament

from .factories import UserFactory, tournament_with_teams
from .test_admin import act, logged_in, said, sheet, url
from .test_console import do

pytestmark = pytest.mark.django_db

# Each table's sheet, (team A, team B, the seat that went out) per hand: team A holds
# direction 0 (seats 0 and 2), so its result on a board is team B's points minus its own.
SHEETS = {
    1: [(0, 50, 0), (0, 30, 0), (40, 0, 1), (0, 20, 2), (10, 0, 3)],  # 50 30 -40 20 -10
    2: [(0, 50, 0), (20, 0, 1), (0, 60, 0), (0, 20, 0), (0, 30, 2)],  # 50 -20 60 20 30
    3: [(0, 10, 0), (0, 40, 2), (0, 60, 0), (30, 0, 1), (0, 70, 0)],  # 10 40 60 -30 70
}
# Matchpoints in direction 0, board by board (top 4 with three tables):
#   board 1 [50 50 10]: 3 3 0;  2 [30 -20 40]: 2 0 4;  3 [-40 60 60]: 0 3 3;
#   4 [20 20 -30]: 3 3 0;  5 [-10 30 70]: 0 2 4  ->  8, 11, 11 of 20: 40%, 55%, 55%;
#   direction 1 holds the other side of each comparison: 60%, 45%, 45%.
# Butler: the datums (three results: the plain mean) add up to 340/3; table 1's team A
#   made 50 in all, so -190/3; table 2's 140, 80/3; table 3's 150, 110/3; team B the negation.
EXPECTED = {  # (table, side): (rank, matchpoint %, Butler)
    (1, "b"): (1, 60, Fraction(190, 3)),
    (3, "a"): (2, 55, Fraction(110, 3)),  # level with table 2's team A on matchpoints and
    (2, "a"): (3, 55, Fraction(80, 3)),   # on points (both won): Butler decides
    (2, "b"): (4, 45, Fraction(-80, 3)),
    (3, "b"): (5, 45, Fraction(-110, 3)),
    (1, "a"): (6, 40, Fraction(-190, 3)),
}


@pytest.fixture
def organiser() -> Any:
    return UserFactory()


@pytest.fixture
def tournament(organiser: Any) -> Any:
    return tournament_with_teams(6, organisers=[organiser], duplicate="matchpoints",
                                 tiebreaks=["butler"], rounds_planned=2)


def enter(client: Client, match: Match) -> None:
    response = client.post(url("match_score_sheet", match.pk),
                           sheet(*SHEETS[match.table.number]), follow=True)
    assert "is stored" in said(response), said(response)


HIDDEN = "its games and results stay hidden until every table has finished"


def public_scores(match: Match) -> str:
    return Client().get(reverse("tournaments:match_detail", args=[match.pk])).content.decode()


def test_a_venue_duplicate_round_of_six_teams_from_the_console(
        organiser: Any, tournament: Any) -> None:
    client = logged_in(organiser)
    do(client, tournament, "pair")
    round = Round.objects.get(tournament=tournament, number=1)
    do(client, tournament, "publish", round=round.pk)
    matches = list(round.matches.select_related("table", "team_a", "team_b")
                   .order_by("table__number"))
    assert len(matches) == 3 and round.seed is not None
    assert {match.seed for match in matches} == {round.seed}  # the same boards everywhere

    deals = client.get(reverse("admin:tournaments_round_deals", args=[round.pk])).content
    printed = deals.decode()
    assert printed.count("Board 1 (hand 1): seat") == 3  # one page a table, board numbers
    assert printed.count("Board 5 (hand 5): seat") == 3
    assert "every table plays the same boards" in printed

    enter(client, matches[0])
    enter(client, matches[1])
    # Two tables of three have finished: nothing of the round shows to the public, not
    # even to a player of a finished table, and the standings leave the round out.
    for match in matches[:2]:
        page = public_scores(match)
        assert HIDDEN in page and "Scores per hand" not in page
    api = Client().get(f"/api/v1/matches/{matches[0].pk}/").json()
    assert api["result"] is None
    assert client.get(f"/api/v1/matches/{matches[0].pk}/").json()["result"] is not None
    services.standings_rebuild(tournament=tournament)  # as the task after each result
    assert set(Standing.objects.filter(tournament=tournament, round_number=0)
               .values_list("played", flat=True)) == {0}

    services.ratings_rebuild()  # any organiser may ask for one: it leaves the round out
    assert not RatingEntry.objects.filter(match__round=round).exists()

    enter(client, matches[2])
    services.standings_rebuild(tournament=tournament)
    table = {row.team_id: row for row in Standing.objects.filter(tournament=tournament,
                                                                 round_number=0)}
    for (number, side), (rank, percentage, butler) in EXPECTED.items():
        match = matches[number - 1]
        team = match.team_a if side == "a" else match.team_b
        row = table[team.pk]
        assert (row.rank, row.values["matchpoints"]) == (rank, percentage), (number, side)
        assert row.values["butler"] == pytest.approx(float(butler))
    assert Client().get(f"/api/v1/matches/{matches[0].pk}/").json()["result"] is not None
    page = public_scores(matches[0])
    assert HIDDEN not in page and "Scores per hand" in page
    do(client, tournament, "complete", round=round.pk)
    services.ratings_rebuild()
    assert RatingEntry.objects.filter(match__round=round).count() == 12  # 4 players a table


def test_an_organiser_releases_a_round_before_every_table_has_finished(
        organiser: Any, tournament: Any) -> None:
    client = logged_in(organiser)
    do(client, tournament, "pair")
    round = Round.objects.get(tournament=tournament, number=1)
    do(client, tournament, "publish", round=round.pk)
    first = round.matches.select_related("table").get(table__number=1)
    enter(client, first)
    assert Client().get(f"/api/v1/matches/{first.pk}/").json()["result"] is None

    response = act(client, "round", "release_boards", round)
    assert "its boards and results are shown" in said(response)
    assert Client().get(f"/api/v1/matches/{first.pk}/").json()["result"] is not None
    # one table of three: Neuberg scales its boards against the three expected, 50% each
    row = Standing.objects.get(tournament=tournament, round_number=0, team=first.team_a)
    assert (row.played, row.values["matchpoints"]) == (1, 50)


def test_releasing_is_for_organisers_and_for_duplicate_rounds_only(
        organiser: Any, tournament: Any) -> None:
    round = services.round_pair_next(tournament=tournament, user=organiser)
    with pytest.raises(services.TournamentUserError, match="publish round 1"):
        services.round_release_boards(round=round, user=organiser)
    services.round_publish(round=round, user=organiser)
    with pytest.raises(PermissionDenied):
        services.round_release_boards(round=round, user=UserFactory())
    assert not Round.objects.get(pk=round.pk).boards_released
    plain = tournament_with_teams(2, organisers=[organiser])
    other = services.round_pair_next(tournament=plain, user=organiser)
    assert other.seed is None
    with pytest.raises(services.TournamentUserError, match="not a duplicate round"):
        services.round_release_boards(round=other, user=organiser)


def test_duplicate_is_for_a_table_of_teams_dealt_by_the_platform() -> None:
    for settings, field in (({"format": "knockout"}, "duplicate"),
                            ({"dealing": Tournament.Dealing.VENUE}, "duplicate"),
                            ({"tiebreaks": ["matchpoints"]}, "tiebreaks")):
        tournament = Tournament(name="Cup", duplicate="matchpoints", **settings)
        with pytest.raises(ValidationError) as refused:
            tournament.clean()
        assert field in refused.value.message_dict, settings
    Tournament(name="Cup", duplicate="butler", tiebreaks=["matchpoints"]).clean()
