"""An online tournament: publishing a round opens a live table per match, dealt from the
match's seed and seated as paired (bots for the absent and for players without a login),
and the finished game arrives as the match's result, with nobody entering it."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.bots import make_bot
from games.engine import play_game
from games.live.models import LiveSeat, LiveTable
from games.live.service import WatchRefused, seat_of
from games.live.state import replay
from tournaments import services
from tournaments.models import LIVE_TABLE_KIND, Absence, Match, Result, Standing, Tournament
from tournaments.services.deals import match_deals
from tournaments.services.online import record_live_result
from tournaments.services.results import match_store_live_record

from .factories import UserFactory, tournament_with_teams

pytestmark = pytest.mark.django_db


def online(teams: int = 2, **kwargs: Any) -> Tournament:
    return tournament_with_teams(teams, play=Tournament.Play.ONLINE, bot_level="greedy",
                                 **kwargs)


def publish_first_round(tournament: Tournament, organiser: Any) -> Match:
    round = services.round_pair_next(tournament=tournament, user=organiser)
    services.round_publish(round=round, user=organiser)
    return round.matches.get(is_bye=False)


def test_publishing_opens_a_table_per_match_seated_as_paired_and_dealt_from_its_seed() -> None:
    organiser = UserFactory()
    tournament = online(organisers=[organiser])
    alice = get_user_model().objects.create_user("alice", password="pw-alice-123")
    bob = get_user_model().objects.create_user("bob", password="pw-bob-12345")
    home, away = (entry.team for entry in tournament.entries.order_by("seed"))
    home.player_a.user, away.player_a.user = alice, bob
    home.player_a.save(), away.player_a.save()
    away.player_b.user = UserFactory(username="carol")  # absent: a bot from the start
    away.player_b.save()
    Absence.objects.create(tournament=tournament, round_number=1, player=away.player_b)

    match = publish_first_round(tournament, organiser)
    table = LiveTable.objects.get(match=match)
    assert (table.seed, table.reports_to, table.result_ref) == (match.seed, LIVE_TABLE_KIND,
                                                                str(match.pk))
    assert replay(table.seed, []).decks == replay(match.seed, []).decks
    seats = {seat.seat: seat for seat in LiveSeat.objects.filter(table=table)}
    # seats 0 and 2 are the home team (team A), 1 and 3 the away team, as the match seats
    assert seats[0].user == alice and seats[1].user == bob
    assert seats[2].user is None and seats[2].bot == "greedy"  # no login to play with
    assert seats[3].user is None and seats[3].bot == "greedy"  # marked absent
    services.round_publish(round=match.round, user=organiser)  # again: nothing more
    assert LiveTable.objects.count() == 1


def test_a_tournament_at_the_venue_opens_no_live_table() -> None:
    organiser = UserFactory()
    tournament = tournament_with_teams(2, organisers=[organiser])
    publish_first_round(tournament, organiser)
    assert not LiveTable.objects.exists()


def test_the_finished_game_is_the_matchs_result_and_the_standings_follow(
        eager_tasks: None, django_capture_on_commit_callbacks: Any, settings: Any) -> None:
    settings.LIVE_BOT_PAUSE_SECONDS = 0
    organiser = UserFactory()
    tournament = online(organisers=[organiser])  # no player has a login: bots play them all
    with django_capture_on_commit_callbacks(execute=True):
        match = publish_first_round(tournament, organiser)
    table = LiveTable.objects.get(match=match)
    assert table.status == LiveTable.Status.FINISHED and table.reported
    result = Result.objects.get(match=match)
    assert result.source == Result.Source.ONLINE and result.confirmed
    assert result.record == table.record and result.entered_by is None
    assert Match.objects.get(pk=match.pk).status == Match.Status.DONE
    points = dict(Standing.objects.filter(tournament=tournament, round_number=0)
                  .values_list("team_id", "points"))
    assert sorted(points.values()) in ([0, 2], [1, 1])  # a win and a loss, or a draw


def test_a_removed_match_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    organiser = UserFactory()
    tournament = online(organisers=[organiser])
    match = publish_first_round(tournament, organiser)
    table = LiveTable.objects.get(match=match)
    table.result_ref = "0"
    with caplog.at_level(logging.WARNING, logger="tournaments.services.online"):
        record_live_result(table)
    assert "was removed" in caplog.text


def test_a_record_of_other_deals_is_refused_as_the_bug_it_would_be() -> None:
    organiser = UserFactory()
    first = online(organisers=[organiser])
    second = online(organisers=[organiser])
    match = publish_first_round(first, organiser)
    other = publish_first_round(second, organiser)
    record = play_game([make_bot("random", seat) for seat in range(4)],
                       *match_deals(other)).to_json()
    with pytest.raises(services.ResultRejected, match="pack"):
        match_store_live_record(match=match, record=record)
    assert not Result.objects.filter(match=match).exists()


def test_a_player_finds_their_table_on_the_home_page_and_their_own_page(client: Any) -> None:
    organiser = UserFactory()
    tournament = online(organisers=[organiser], name="Autumn Online")
    alice = get_user_model().objects.create_user("alice", password="pw-alice-123")
    home = tournament.entries.order_by("seed").first().team
    home.player_a.user = alice
    home.player_a.save()
    match = publish_first_round(tournament, organiser)
    table = LiveTable.objects.get(match=match)

    assert "Your table" not in client.get("/").content.decode()  # nobody logged in
    client.force_login(alice)
    for page in ("/", f"/players/{home.player_a.pk}/"):
        text = client.get(page).content.decode()
        assert f'href="/tables/{table.pk}/"' in text, page
        assert "Autumn Online, round 1, table 1: take your seat" in text
        # no login: a bot holds the seat, and plays it for the partner, named
        partner = home.player_b.name
        assert f'Partner: {partner} <span class="badge">bot for {partner}</span>.' in text
        assert "bot (" not in text  # every seat here is a person's, whoever plays it
    other = get_user_model().objects.create_user("dave", password="pw-dave-12345")
    client.force_login(other)
    assert f'href="/tables/{table.pk}/"' not in client.get(
        f"/players/{home.player_a.pk}/").content.decode()


def test_the_round_page_links_each_table_being_played_for_anyone_to_watch(client: Any) -> None:
    organiser = UserFactory()
    tournament = online(organisers=[organiser])
    match = publish_first_round(tournament, organiser)
    table = LiveTable.objects.get(match=match)
    page = client.get(f"/tournaments/{tournament.pk}/rounds/1/").content.decode()
    assert "being played online" in page and f'href="/tables/{table.pk}/"' in page
    watching = client.get(f"/tables/{table.pk}/")  # a spectator: the public view only
    assert watching.status_code == 200
    hand = replay(table.seed, []).decks[0][:8]
    assert " ".join(card.code for card in hand) not in watching.content.decode()


@pytest.mark.parametrize(("spectators", "may_watch"), [
    ("anyone", {"anonymous": True, "outsider": True, "player": True, "organiser": True}),
    ("players", {"anonymous": False, "outsider": False, "player": True, "organiser": True}),
    ("nobody", {"anonymous": False, "outsider": False, "player": False, "organiser": True}),
])
def test_who_may_watch_a_table_in_play_is_the_tournaments_setting(
        spectators: str, may_watch: dict[str, bool]) -> None:
    organiser = UserFactory()
    tournament = online(4, organisers=[organiser], spectators=spectators)
    entries = list(tournament.entries.order_by("seed").select_related("team__player_a"))
    seated = get_user_model().objects.create_user("seated", password="pw-seated-123")
    player = get_user_model().objects.create_user("player", password="pw-player-123")
    for entry, user in ((entries[0], seated), (entries[1], player)):
        entry.team.player_a.user = user
        entry.team.player_a.save()
    round = services.round_pair_next(tournament=tournament, user=organiser)
    services.round_publish(round=round, user=organiser)
    table = LiveTable.objects.get(match__team_a=entries[0].team)  # seed 1 v seed 3
    assert not LiveSeat.objects.filter(table=table, user=player).exists()  # at table 2
    people = {"anonymous": None, "outsider": UserFactory(is_staff=False), "player": player,
              "organiser": organiser}
    for who, allowed in may_watch.items():
        client = Client()
        if people[who] is not None:
            client.force_login(people[who])
        page = client.get(f"/tables/{table.pk}/")
        assert page.status_code == (200 if allowed else 403), (spectators, who)
        if not allowed:  # said in words, on the site's error page
            assert "watch" in page.content.decode()
            with pytest.raises(WatchRefused):
                seat_of(table.pk, people[who])
    seated_client = Client()
    seated_client.force_login(seated)
    assert seated_client.get(f"/tables/{table.pk}/").status_code == 200  # their own seat
