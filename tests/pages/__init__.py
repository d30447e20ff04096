"""Tests of the public pages, and the tournaments they are tried on (built through the
services, as an organiser would build them)."""

from __future__ import annotations

from typing import Any

from tournaments import services
from tournaments.models import Absence, Match, Player, Result, Round, Team, Tournament
from tournaments.services import standings_rebuild

from ..tournaments.factories import UserFactory, tournament_with_teams

WIN_SHEET = ([[0, 40]] * 5, [0] * 5)  # team A goes out every hand: 0 - 200
LOSS_SHEET = ([[40, 0]] * 5, [1] * 5)  # team B goes out every hand: 200 - 0


def organiser() -> Any:
    return UserFactory(is_superuser=True)


def published_round(tournament: Tournament) -> Round:
    round = services.round_pair_next(tournament=tournament)
    services.round_publish(round=round)
    return round


def enter_sheet(match: Match, sheet: tuple[list[list[int]], list[int]], user: Any) -> None:
    services.match_submit_score_sheet(match=match, hand_scores=sheet[0], out_seats=sheet[1],
                                      user=user)


def play_round_with_sheets(tournament: Tournament, user: Any,
                           sheets: list[tuple[list[list[int]], list[int]]] | None = None) -> Round:
    """Pair, publish and score every table of the next round (team A wins unless ``sheets``
    say otherwise), then complete it."""
    round = published_round(tournament)
    for i, match in enumerate(round.matches.filter(is_bye=False).order_by("table__number")):
        enter_sheet(match, sheets[i] if sheets else WIN_SHEET, user)
    return services.round_complete(round=round, user=user)


def swiss_cup() -> dict[str, Any]:
    """Four teams, round 1 played (both home teams won 0-200, so the winners share rank 1
    and the losers rank 3), round 2 paired as a draft."""
    user = organiser()
    tournament = tournament_with_teams(4, name="Sheet Cup", organisers=[user],
                                       tiebreaks=["score_diff", "buchholz"])
    round_1 = play_round_with_sheets(tournament, user)
    draft = services.round_pair_next(tournament=tournament, user=user)
    return {"user": user, "tournament": tournament, "round": round_1, "draft": draft}


def bot_match() -> dict[str, Any]:
    """Two teams whose four players all miss round 1: bots play it and store the record."""
    user = organiser()
    tournament = tournament_with_teams(2, name="Bot Cup", organisers=[user])
    for team in Team.objects.filter(entries__tournament=tournament):
        for player in (team.player_a, team.player_b):
            Absence.objects.create(tournament=tournament, round_number=1, player=player)
    round = published_round(tournament)
    match = round.matches.get()
    result = services.match_play_bots(match_id=match.pk)
    if result is None:  # tasks in-process after commit (SQLite, a transactional test): the
        result = Result.objects.get(match=match)  # publish played it already
    services.round_complete(round=round, user=user)
    services.ratings_rebuild()
    return {"user": user, "tournament": tournament, "round": round, "match": match,
            "result": result}


def knockout_cup() -> dict[str, Any]:
    """Six teams: seeds 1 and 2 have byes in round 1, whose two matches are played."""
    user = organiser()
    tournament = tournament_with_teams(6, name="Knockout Cup", organisers=[user],
                                       format=Tournament.Format.KNOCKOUT,
                                       third_place_match=True)
    round_1 = play_round_with_sheets(tournament, user)
    return {"user": user, "tournament": tournament, "round": round_1}


def finished_knockout() -> Tournament:
    """Six teams with a third-place match, played to the end: the better seed (team A of
    each match) wins every game, so seeds 1, 2, 3, 4 end in that order."""
    cup = knockout_cup()
    tournament = cup["tournament"]
    for _round in (2, 3):
        play_round_with_sheets(tournament, cup["user"])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return tournament


def round_robin_cup() -> dict[str, Any]:
    user = organiser()
    tournament = tournament_with_teams(4, name="Robin Cup", organisers=[user],
                                       format=Tournament.Format.ROUND_ROBIN)
    round_1 = play_round_with_sheets(tournament, user)
    standings_rebuild(tournament=tournament)
    return {"user": user, "tournament": tournament, "round": round_1}


def player_named(name: str) -> Player:
    return Player.objects.get(name=name)
