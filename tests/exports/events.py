"""Finished tournaments to write to files and read back: ``teams`` teams (an odd number has
a bye each round) played through with score sheets that differ by table, so that the
standings are not all level."""

from __future__ import annotations

import datetime
from typing import Any

from tests.tournaments.factories import UserFactory, tournament_with_teams
from tournaments import services
from tournaments.models import Tournament


def sheet(table: int, round_number: int) -> tuple[list[list[int]], list[int | None]]:
    """Five hands: team A goes out in the hands the table's and round's numbers pick."""
    hands, outs = [], []
    for hand in range(1, 6):
        a_out = (hand + table + round_number) % 3 != 0
        penalty = 10 * (hand + table)
        hands.append([0, penalty] if a_out else [penalty, 0])
        outs.append(0 if a_out else 1)
    return hands, outs


def finished_swiss(teams: int = 5, rounds: int = 3, **settings: Any) -> Tournament:
    return finished(teams, rounds_planned=rounds, **settings)


def finished(teams: int, **settings: Any) -> Tournament:
    """A tournament of ``teams`` teams (a Swiss one unless ``settings`` say otherwise)
    played round after round until it is finished."""
    organiser = UserFactory()
    tournament = tournament_with_teams(
        teams, organisers=[organiser], name=f"Results Open {teams}",
        starts_on=datetime.date(2026, 5, 2), ends_on=datetime.date(2026, 5, 3), **settings)
    while tournament.status != Tournament.Status.FINISHED:
        round = services.round_pair_next(tournament=tournament, user=organiser)
        services.round_publish(round=round, user=organiser)
        for match in round.matches.filter(is_bye=False).select_related("table"):
            hands, outs = sheet(match.table.number, round.number)
            services.match_submit_score_sheet(match=match, hand_scores=hands, out_seats=outs,
                                              user=organiser)
        services.round_complete(round=round, user=organiser)
        tournament.refresh_from_db()
    return tournament
