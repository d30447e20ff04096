"""Who the services tell, of what, inside their own step: an online round's tables ready, a
bot in an absent person's seat (marked so before the round was paired or after, or gone
from their live table past its grace), a result waiting for the other team, a round and a
tournament ended, a team going up or down a division. A step repeated tells no one twice."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.live import presence
from games.live.models import LiveSeat, LiveTable
from tournaments import services
from tournaments.models import Absence, Notification, Player, Tournament
from tournaments.services.leagues import season_confirm, season_draft_next

from .factories import UserFactory, tournament_with_teams
from .leagues import league_with_divisions, played_out

pytestmark = pytest.mark.django_db

Kind = Notification.Kind


def with_logins(tournament: Tournament) -> dict[int, Any]:
    """A login for every player of the tournament: player id -> user."""
    users = {}
    for entry in tournament.entries.select_related("team"):
        for player in (entry.team.player_a, entry.team.player_b):
            player.user = users[player.pk] = UserFactory()
            player.save(update_fields=["user"])
    return users


def told(kind: str) -> dict[int, Notification]:
    return {n.user_id: n for n in Notification.objects.filter(kind=kind)}


def test_an_online_rounds_tables_tell_each_person_seated_where_to_go() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(4, play=Tournament.Play.ONLINE, bot_level="greedy",
                                       organisers=[organiser], name="Net cup")
    users = with_logins(tournament)
    round = services.round_pair_next(tournament=tournament, user=organiser)
    services.round_publish(round=round, user=organiser)
    services.round_publish(round=round, user=organiser)  # again: nobody told twice
    ready = told(Kind.TABLE_READY)
    assert set(ready) == {user.pk for user in users.values()}
    assert Notification.objects.filter(kind=Kind.TABLE_READY).count() == 8
    for match in round.matches.select_related("table"):
        table = LiveTable.objects.get(match=match)
        for seat in match.seats.select_related("player"):
            notification = ready[seat.player.user_id]
            assert notification.link == f"/tables/{table.pk}/"
            assert notification.key == f"table:{match.pk}"
            assert notification.params == {"tournament": "Net cup", "round": 1,
                                           "table": match.table.number}


def test_a_round_at_the_venue_opens_no_table_and_tells_no_one_of_one() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    with_logins(tournament)
    round = services.round_pair_next(tournament=tournament, user=organiser)
    services.round_publish(round=round, user=organiser)
    assert not Notification.objects.exists()


def test_a_bot_taking_an_absent_persons_seat_tells_them() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser], name="Club night")
    users = with_logins(tournament)
    round = services.round_pair_next(tournament=tournament, user=organiser)
    services.round_publish(round=round, user=organiser)
    match = round.matches.select_related("table").get()
    absent = Player.objects.get(pk=match.team_b.player_a_id)
    Absence.objects.create(tournament=tournament, round_number=1, player=absent)
    assert services.round_fill_seats(round=round, user=organiser) == 1
    assert services.round_fill_seats(round=round, user=organiser) == 0
    (notification,) = told(Kind.SUBSTITUTED).values()
    assert notification.user == users[absent.pk]
    assert notification.params == {"tournament": "Club night", "round": 1,
                                   "table": match.table.number}
    assert notification.link == f"/matches/{match.pk}/"


SHEET = [[0, 40], [30, 0], [0, 50], [40, 0], [0, 25]]
OUT = [0, 1, 2, 3, 0]


def test_a_result_a_player_entered_asks_the_other_team_to_confirm_it() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser], name="Club night")
    users = with_logins(tournament)
    round = services.round_pair_next(tournament=tournament, user=organiser)
    services.round_publish(round=round, user=organiser)
    match = round.matches.get()
    entering = users[match.team_a.player_a_id]
    result = services.match_submit_score_sheet(match=match, hand_scores=SHEET,
                                               out_seats=OUT, user=entering)
    asked = told(Kind.CONFIRM_RESULT)
    assert set(asked) == {users[match.team_b.player_a_id].pk,
                          users[match.team_b.player_b_id].pk}
    assert next(iter(asked.values())).params == {"tournament": "Club night", "round": 1,
                                                 "team": match.team_a.name}
    assert next(iter(asked.values())).key == f"confirm:{result.pk}"


def test_a_result_an_organiser_entered_asks_no_player() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser], confirm_score_sheets=True)
    with_logins(tournament)
    round = services.round_pair_next(tournament=tournament, user=organiser)
    services.round_publish(round=round, user=organiser)
    result = services.match_submit_score_sheet(match=round.matches.get(), hand_scores=SHEET,
                                               out_seats=OUT, user=organiser)
    assert not result.confirmed and not Notification.objects.exists()


def test_completing_rounds_tells_their_players_and_the_last_the_whole_field() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(4, organisers=[organiser], rounds_planned=2,
                                       name="Two-rounder")
    users = with_logins(tournament)
    played_out(tournament, organiser)
    ended = Notification.objects.filter(kind=Kind.ENDED)
    rounds = list(tournament.rounds.order_by("number"))
    for round in rounds:
        assert set(ended.filter(key=f"round-ended:{round.pk}").values_list(
            "user_id", flat=True)) == {user.pk for user in users.values()}
    finished = ended.filter(key=f"tournament-ended:{tournament.pk}")
    assert finished.count() == 8
    assert finished.first().params == {"tournament": "Two-rounder", "what": "tournament"}
    assert finished.first().link == f"/tournaments/{tournament.pk}/standings/"
    assert ended.count() == 8 * 3
    services.round_complete(round=rounds[-1], user=organiser)  # again: nothing more
    assert ended.count() == 8 * 3


def test_confirming_a_season_tells_the_teams_that_went_up_or_down() -> None:
    league, season, teams, organiser = league_with_divisions([3, 3])
    users = {}
    for division in teams:
        for team in division:
            for player in (team.player_a, team.player_b):
                player.user = users[player.pk] = UserFactory()
                player.save(update_fields=["user"])
    draft = season_draft_next(season=season, user=organiser)
    assert not Notification.objects.exists()  # a draft tells no one
    season_confirm(season=draft, user=organiser)
    moved = Notification.objects.filter(kind=Kind.DIVISION)
    down, up = teams[0][-1], teams[1][0]  # the top division's last, the second's first
    assert {(n.user_id, n.params["direction"], n.params["division"]) for n in moved} == {
        (users[down.player_a_id].pk, "down", 2), (users[down.player_b_id].pk, "down", 2),
        (users[up.player_a_id].pk, "up", 1), (users[up.player_b_id].pk, "up", 1)}
    assert moved.first().link == f"/leagues/{league.slug}/seasons/2/"


def test_the_director_seating_a_bot_for_good_tells_the_person_once() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(2, play=Tournament.Play.ONLINE, bot_level="greedy",
                                       organisers=[organiser], name="Net cup")
    users = with_logins(tournament)
    round = services.round_pair_next(tournament=tournament, user=organiser)
    services.round_publish(round=round, user=organiser)
    match = round.matches.select_related("table").get()
    table = LiveTable.objects.get(match=match)
    bob = users[match.seats.get(position=1).player_id]
    pin = {"round": round, "user": organiser, "table_id": table.pk, "seat": 1}
    assert services.director_table_act(action="pin", **pin)
    services.director_table_act(action="give_back", **pin)
    services.director_table_act(action="pin", **pin)
    (notification,) = told(Kind.SUBSTITUTED).values()
    assert notification.user == bob and notification.link == f"/tables/{table.pk}/"
    assert notification.params == {"tournament": "Net cup", "round": 1,
                                   "table": match.table.number}


def test_a_player_absent_when_the_round_is_paired_is_told_when_it_is_published() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(2, play=Tournament.Play.ONLINE, bot_level="greedy",
                                       organisers=[organiser], name="Net cup")
    users = with_logins(tournament)
    team = tournament.entries.first().team
    Absence.objects.create(tournament=tournament, round_number=1, player=team.player_b)
    round = services.round_pair_next(tournament=tournament, user=organiser)
    assert not told(Kind.SUBSTITUTED)  # a draft's seats are no one's yet
    services.round_publish(round=round, user=organiser)
    services.round_publish(round=round, user=organiser)
    (notification,) = told(Kind.SUBSTITUTED).values()
    match = round.matches.select_related("table").get()
    assert notification.user == users[team.player_b_id]
    assert notification.key == f"substituted:{match.pk}"
    assert notification.params == {"tournament": "Net cup", "round": 1,
                                   "table": match.table.number}
    # the three others are told where their table is; the absent player is not
    assert set(told(Kind.TABLE_READY)) == {user.pk for pk, user in users.items()
                                           if pk != team.player_b_id}


def test_a_person_gone_from_their_table_past_its_grace_is_told_once() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(2, play=Tournament.Play.ONLINE, bot_level="greedy",
                                       organisers=[organiser], name="Net cup",
                                       grace_seconds=60)
    users = with_logins(tournament)
    round = services.round_pair_next(tournament=tournament, user=organiser)
    services.round_publish(round=round, user=organiser)
    match = round.matches.select_related("table").get()
    table = LiveTable.objects.get(match=match)
    others = [seat.seat for seat in LiveSeat.objects.filter(table=table) if seat.seat != 2]
    now = timezone.now()
    LiveSeat.objects.filter(table=table, seat__in=others).update(seen=now)
    LiveSeat.objects.filter(table=table, seat=2).update(seen=now - timedelta(seconds=61))
    assert presence.check_away(table.pk) == [2]
    presence.heard(table.pk, 2)  # back: the seat is theirs again
    LiveSeat.objects.filter(table=table, seat=2).update(seen=now - timedelta(seconds=61))
    assert presence.check_away(table.pk) == [2]  # gone again: no news
    (notification,) = told(Kind.SUBSTITUTED).values()
    assert notification.user == users[match.seats.get(position=2).player_id]
    assert notification.link == f"/tables/{table.pk}/"
    assert notification.params == {"tournament": "Net cup", "round": 1,
                                   "table": match.table.number}
