"""A knockout tournament run through the services: byes, advancing winners, third place,
and a drawn game decided by the tournament's tie rule."""

from __future__ import annotations

import pytest

from tournaments import selectors, services
from tournaments.models import Absence, Match, Round, Tournament

from .factories import UserFactory, tournament_with_teams

pytestmark = pytest.mark.django_db


def all_absent(tournament: Tournament, rounds: int) -> None:
    for entry in tournament.entries.select_related("team"):
        for number in range(1, rounds + 1):
            for player in (entry.team.player_a, entry.team.player_b):
                Absence.objects.create(tournament=tournament, round_number=number, player=player)


def test_six_teams_play_to_a_final_and_a_third_place_match() -> None:
    tournament = tournament_with_teams(6, format=Tournament.Format.KNOCKOUT,
                                       third_place_match=True)
    all_absent(tournament, 3)
    assert selectors.rounds_total(tournament) == 3
    seeds = dict(tournament.entries.values_list("seed", "team_id"))

    first = services.round_pair_next(tournament=tournament)
    byes = {m.team_a_id for m in first.matches.filter(is_bye=True)}
    assert byes == {seeds[1], seeds[2]}  # the top seeds have byes
    for _ in range(3):
        round = Round.objects.filter(tournament=tournament).order_by("-number").first()
        assert round is not None
        services.round_publish(round=round)
        for match_id in selectors.round_bot_match_ids(round):
            services.match_play_bots(match_id=match_id)
        services.round_complete(round=round)
        if round.number < 3:
            services.round_pair_next(tournament=tournament)

    last = tournament.rounds.get(number=3)
    assert sorted(last.matches.values_list("bracket_slot", flat=True)) == [0, 1]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_a_drawn_game_is_decided_by_the_tie_rule_and_the_rule_is_recorded() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(2, format=Tournament.Format.KNOCKOUT,
                                       knockout_tie_rule="most_hands_won_by_going_out",
                                       organisers=[organiser])
    round = services.round_pair_next(tournament=tournament)
    services.round_publish(round=round)
    match = round.matches.get()
    # Equal totals (a drawn game, R9.2); team B went out in three hands, team A in two.
    sheet = [[0, 40], [30, 0], [0, 50], [40, 0], [20, 0]]
    services.match_submit_score_sheet(match=match, hand_scores=sheet,
                                      out_seats=[0, 1, 2, 3, 1], user=organiser)
    services.round_complete(round=round, user=organiser)

    match = Match.objects.select_related("result").get(pk=match.pk)
    assert match.result.winner == "d"
    assert match.result.decided_by == "most_hands_won_by_going_out"
    spec, data = selectors.tournament_format(tournament)
    assert spec.decisions(data)[(1, 0)].winner == match.team_b_id
