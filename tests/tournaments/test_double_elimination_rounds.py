"""A double elimination run through the services, like any other format: every round paired
from the bracket, byes stored, results in, the grand final (and its reset when the losers'
bracket team wins it), the champion and the places."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tournaments import selectors, services
from tournaments.models import Match, Round, Tournament

from .factories import UserFactory, tournament_with_teams

pytestmark = pytest.mark.django_db

HOME_WINS = [[0, 40], [0, 30], [0, 50], [0, 20], [0, 10]]
AWAY_WINS = [[40, 0], [30, 0], [50, 0], [20, 0], [10, 0]]


def losses_of(tournament: Tournament) -> dict[int, int]:
    losses: dict[int, int] = {}
    for match in Match.objects.filter(round__tournament=tournament, is_bye=False,
                                      result__isnull=False).select_related("result"):
        loser = match.team_b_id if match.result.winner == "a" else match.team_a_id
        losses[loser] = losses.get(loser, 0) + 1
    return losses


def play_round(round: Round, organiser: object, *, winner: Callable[[Match], int]) -> None:
    services.round_publish(round=round, user=organiser)
    for match in round.matches.filter(is_bye=False):
        home_wins = winner(match) == match.team_a_id
        services.match_submit_score_sheet(
            match=match, hand_scores=HOME_WINS if home_wins else AWAY_WINS,
            out_seats=[0, 0, 0, 0, 0] if home_wins else [1, 1, 1, 1, 1], user=organiser)
    services.round_complete(round=round, user=organiser)


def home(match: Match) -> int:
    return match.team_a_id


@pytest.mark.parametrize("reset", [False, True])
def test_six_teams_play_until_two_losses_and_get_their_places(reset: bool) -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(6, format=Tournament.Format.DOUBLE_ELIMINATION,
                                       organisers=[organiser])
    assert selectors.rounds_total(tournament) == 7  # 8 lines: 2k + 1 with k = 3
    seeds = dict(tournament.entries.values_list("seed", "team_id"))
    played = 0
    while True:
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED:
            break
        round = services.round_pair_next(tournament=tournament, user=organiser)
        if round.number == 1:  # the top two seeds have byes, as in a knockout
            assert {m.team_a_id for m in round.matches.filter(is_bye=True)} == {seeds[1],
                                                                                seeds[2]}
        lost = losses_of(tournament)

        def winner(match: Match, number: int = round.number,
                   lost: dict[int, int] = lost) -> int:
            """The better seed, except that with ``reset`` the losers' bracket team (the
            one that has lost once) wins the grand final, round 6."""
            if reset and number == 6:
                assert match.team_b_id is not None
                return min((match.team_a_id, match.team_b_id), key=lambda t: -lost.get(t, 0))
            return match.team_a_id

        play_round(round, organiser, winner=winner)
        played += 1
        assert played <= 7
    assert played == (7 if reset else 6)  # the reset is round 7, played only when needed
    losses = losses_of(tournament)
    places = selectors.final_places_of(tournament)
    champion = places[0].team.pk
    assert all(count == 2 for team, count in losses.items() if team != champion)
    assert losses.get(champion, 0) <= 1
    assert [(p.first, p.last) for p in places] == [(1, 1), (2, 2), (3, 3), (4, 4), (5, 6),
                                                   (5, 6)]
    assert {p.team.pk for p in places} == set(seeds.values())
    if not reset:
        assert champion == seeds[1]


def test_its_draft_rounds_keep_the_bracket_and_its_pages_show_it(client) -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(4, format=Tournament.Format.DOUBLE_ELIMINATION,
                                       organisers=[organiser])
    round = services.round_pair_next(tournament=tournament, user=organiser)
    first, second = round.matches.values_list("team_a_id", flat=True)[:2]
    with pytest.raises(services.TournamentUserError, match="follows its bracket"):
        services.draft_swap_teams(round=round, team_1=first, team_2=second, user=organiser)
    play_round(round, organiser, winner=home)
    page = client.get(f"/tournaments/{tournament.pk}/bracket/")
    text = page.content.decode()
    assert page.status_code == 200
    for heading in ("Winners&#x27; bracket", "Losers&#x27; bracket", "Grand final",
                    "Bracket reset"):
        assert heading in text
    assert client.get(f"/tournaments/{tournament.pk}/crosstable/").status_code == 404
