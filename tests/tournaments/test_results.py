"""Results from game records and score sheets; rejected ones leave the database as it was."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from django.apps import apps
from django.core.exceptions import PermissionDenied

from games.bots import make_bot
from games.engine.play import deal_from_seed, play_game
from tournaments import services
from tournaments.models import Match, Player, RatingEntry, Result

from .factories import PlayerFactory, UserFactory, tournament_with_teams

pytestmark = pytest.mark.django_db


def database_state() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every tournament model, to compare before and after."""
    return {model.__name__: sorted(map(tuple, model.objects.values_list()), key=repr)
            for model in apps.get_app_config("tournaments").get_models()}


@pytest.fixture
def setting() -> dict[str, Any]:
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    round = services.round_pair_next(tournament=tournament)
    services.round_publish(round=round)
    match = round.matches.get()
    record = play_game([make_bot("random", s) for s in range(4)],
                       *deal_from_seed(match.seed)).to_json()  # on the match's own deals
    return {"organiser": organiser, "tournament": tournament, "match": match, "record": record}


def test_a_verified_record_becomes_the_result(setting: dict[str, Any]) -> None:
    result = services.match_submit_record(match=setting["match"], record=setting["record"],
                                          user=setting["organiser"])
    claimed = setting["record"]["result"]
    assert [result.total_a, result.total_b] == claimed["totals"]
    assert result.hand_scores == claimed["hands"]
    assert result.source == Result.Source.RECORD and result.confirmed
    assert Match.objects.get(pk=setting["match"].pk).status == Match.Status.DONE


def _seat_names(match: Match) -> list[str]:
    """The names a record gives the seats: the players' names (a bot's seat, its level)."""
    return [seat.player.name if seat.player else str(seat)
            for seat in match.seats.order_by("position")]


def test_a_record_naming_the_match_players_in_their_seats_is_accepted(
        setting: dict[str, Any]) -> None:
    record = {**setting["record"], "players": [f" {n.upper()} " for n in
                                               _seat_names(setting["match"])]}
    result = services.match_submit_record(match=setting["match"], record=record,
                                          user=setting["organiser"])
    assert result.record["players"] == record["players"]


def test_a_record_with_the_teams_seats_turned_is_refused(setting: dict[str, Any]) -> None:
    # Seats 0 and 2 are team A: a record seating team B there would credit the wrong team.
    names = _seat_names(setting["match"])
    record = {**setting["record"], "players": names[1:] + names[:1]}
    before = database_state()
    with pytest.raises(services.ResultRejected,
                       match=re.escape(f"players[0]: the record seats {names[1]!r} where "
                                       f"the match seats {names[0]!r}")):
        services.match_submit_record(match=setting["match"], record=record,
                                     user=setting["organiser"])
    assert database_state() == before


@pytest.mark.parametrize("damage, status", [
    (lambda r: r["hands"][0]["actions"].insert(0, {"seat": 3, "do": "take"}), "illegal"),
    (lambda r: r["hands"][1]["deck"].pop(), "malformed"),
    (lambda r: (r["hands"].pop(), r.pop("result")), "incomplete"),
    # Reversed totals could be equal ones; a total off by five never is the sum of the hands.
    (lambda r: r["result"]["totals"].__setitem__(0, r["result"]["totals"][0] + 5), "illegal"),
])
def test_a_rejected_record_says_why_and_stores_nothing(setting: dict[str, Any], damage: Any,
                                                       status: str) -> None:
    record = copy.deepcopy(setting["record"])
    damage(record)
    before = database_state()
    with pytest.raises(services.ResultRejected) as rejected:
        services.match_submit_record(match=setting["match"], record=record,
                                     user=setting["organiser"])
    assert rejected.value.verdict == status
    if status == "illegal":
        assert rejected.value.hand is not None and rejected.value.action is not None
        assert rejected.value.reason.startswith("R")
    assert database_state() == before


def test_not_json_is_rejected_without_storing(setting: dict[str, Any]) -> None:
    before = database_state()
    with pytest.raises(services.ResultRejected, match="not JSON"):
        services.match_submit_record(match=setting["match"], record="{oops",
                                     user=setting["organiser"])
    assert database_state() == before


SHEET = [[0, 40], [30, 0], [0, 50], [40, 0], [0, 25]]
OUT = [0, 1, 2, 3, 0]


@pytest.mark.parametrize("sheet, out, message", [
    ([[5, 40], *SHEET[1:]], OUT, "hand 1: {team_a} went out (seat 0), so it scores 0, not 5"),
    ([[0, 42], *SHEET[1:]], OUT, "hand 1: {team_b} scored 42, which is not a sum of card "
                                 "values"),
    ([[0, 5], *SHEET[1:]], OUT, "at least 10"),
    (SHEET[:4], OUT[:4], "5 hands"),
    (SHEET, [0, 1, 2, 3, 4], "hand 5: the seat that went out must be 0, 1, 2 or 3"),
    ([[0, 40], *SHEET[1:4], [0, 970]], OUT, "more than the whole pack is worth"),
])
def test_an_impossible_score_sheet_says_where_and_stores_nothing(
        setting: dict[str, Any], sheet: Any, out: Any, message: str) -> None:
    match = setting["match"]
    message = message.format(team_a=match.team_a.name, team_b=match.team_b.name)
    before = database_state()
    with pytest.raises(services.ResultRejected, match=re.escape(message)):
        services.match_submit_score_sheet(match=match, hand_scores=sheet,
                                          out_seats=out, user=setting["organiser"])
    assert database_state() == before


def test_a_score_sheet_can_wait_for_a_second_organiser(setting: dict[str, Any]) -> None:
    tournament, first = setting["tournament"], setting["organiser"]
    tournament.confirm_score_sheets = True
    tournament.save()
    second = UserFactory()
    tournament.organisers.add(second)
    result = services.match_submit_score_sheet(match=setting["match"], hand_scores=SHEET,
                                               out_seats=OUT, user=first)
    assert not result.confirmed
    assert Match.objects.get(pk=setting["match"].pk).status == Match.Status.AWAITING
    with pytest.raises(services.TournamentUserError, match="another organiser"):
        services.result_confirm(result=result, user=first)
    services.result_confirm(result=result, user=second)
    result.refresh_from_db()
    assert result.confirmed and result.confirmed_by == second
    assert (result.total_a, result.total_b, result.winner) == (70, 115, "a")


def test_a_match_has_one_result(setting: dict[str, Any]) -> None:
    services.match_submit_score_sheet(match=setting["match"], hand_scores=SHEET,
                                      out_seats=OUT, user=setting["organiser"])
    before = database_state()
    with pytest.raises(services.ResultExists, match="already has a result"):
        services.match_submit_record(match=setting["match"], record=setting["record"],
                                     user=setting["organiser"])
    assert database_state() == before


def test_players_of_the_match_may_submit_and_others_may_not(setting: dict[str, Any]) -> None:
    match = setting["match"]
    outsider = UserFactory(is_staff=False)
    PlayerFactory(user=outsider)
    with pytest.raises(PermissionDenied):
        services.match_submit_score_sheet(match=match, hand_scores=SHEET, out_seats=OUT,
                                          user=outsider)
    seated = match.seats.first().player
    seated.user = UserFactory(is_staff=False)
    seated.save()
    result = services.match_submit_score_sheet(match=match, hand_scores=SHEET,
                                               out_seats=OUT, user=seated.user)
    assert result.entered_by == seated.user


def test_ratings_rebuild_twice_gives_the_same_ratings(setting: dict[str, Any]) -> None:
    services.match_submit_record(match=setting["match"], record=setting["record"],
                                 user=setting["organiser"])
    assert services.ratings_rebuild() == 1
    first = sorted(Player.objects.values_list("pk", "rating_mu", "rating_sigma"))
    assert RatingEntry.objects.count() == 4
    assert services.ratings_rebuild() == 1
    assert sorted(Player.objects.values_list("pk", "rating_mu", "rating_sigma")) == first
    assert RatingEntry.objects.count() == 4
    winners = setting["match"].team_a if setting["record"]["result"]["totals"][0] < \
        setting["record"]["result"]["totals"][1] else setting["match"].team_b
    assert Player.objects.get(pk=winners.player_a_id).rating_mu > 25


def test_withdrawing_a_result_reopens_its_match_and_only_an_organiser_may(
        setting: dict[str, Any]) -> None:
    result = services.match_submit_record(match=setting["match"], record=setting["record"],
                                          user=setting["organiser"])
    before = database_state()
    with pytest.raises(PermissionDenied):
        services.result_withdraw(result=result, user=UserFactory())
    assert database_state() == before

    match = services.result_withdraw(result=result, user=setting["organiser"])

    assert match.status == Match.Status.PENDING
    assert not Result.objects.filter(match=match).exists()
    with pytest.raises(services.TournamentUserError, match="has no result to withdraw"):
        services.result_withdraw(result=result, user=setting["organiser"])
