"""A whole season of a league, as its organiser and its players live it: two divisions
taking entries (partners accepting, a waiting list, a withdrawal moving a team up), each
run by the scheduler with time moved forward (check-in windows, bots substituting for
players who did not check in, a person's table settled by bots at its deadline, rounds
completing by themselves), a series table over the season's events, and the next season
drafted from the final places with one team up and one down."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.utils import timezone

from tournaments import services
from tournaments.models import (
    Division,
    Entry,
    EntryRequest,
    League,
    Notification,
    Schedule,
    Season,
    Seat,
    SeriesEvent,
    Tournament,
)
from tournaments.selectors import final_places_of
from tournaments.selectors.leagues import season_series_table
from tournaments.services.leagues import season_draft_next

from .entering import enter_team, player_with_login
from .factories import TournamentFactory, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]
MINUTE = timedelta(minutes=1)


@pytest.fixture(autouse=True)
def _fast_bots(settings: Any) -> None:
    settings.LIVE_BOT_PAUSE_SECONDS = 0
    settings.LIVE_HAND_PAUSE_SECONDS = 0


def division(season: Season, level: int, organiser: Any, starts: Any) -> Tournament:
    """An online round robin of four teams open for entries, with a waiting list, check-in
    and a one-hour deadline that bots settle; its schedule starts at ``starts``."""
    now = timezone.now()
    tournament = TournamentFactory(
        format=Tournament.Format.ROUND_ROBIN, play=Tournament.Play.ONLINE, bot_level="greedy",
        organisers=[organiser], entry_mode=Tournament.EntryMode.OPEN,
        entries_open=now - timedelta(hours=1), entries_close=starts - 30 * MINUTE,
        capacity=4, waiting_list=True, check_in_required=True)
    Division.objects.create(season=season, tournament=tournament, level=level)
    return tournament


def test_a_season_runs_itself_from_the_entries_to_the_next_seasons_draft(
        django_capture_on_commit_callbacks: Any) -> None:
    capture = django_capture_on_commit_callbacks
    organiser = UserFactory()
    league = League.objects.create(name="Whole league", slug="whole", promote=1, relegate=1)
    league.organisers.add(organiser)
    season = Season.objects.create(league=league, number=1, name="Season 1")
    # the league's players also follow a series over every division's tournament
    cup = League.objects.create(name="Whole series", slug="whole-series")
    series = Season.objects.create(league=cup, number=1, name="Season 1 series",
                                   kind=Season.Kind.SERIES, place_points=[8, 4, 2, 1])
    starts = timezone.now() + timedelta(hours=2)
    divisions = [division(season, level, organiser, starts) for level in (1, 2)]
    for tournament in divisions:
        SeriesEvent.objects.create(season=series, tournament=tournament)

    # Entries: five teams ask for four places in each division; the fifth waits, and when
    # a team withdraws before the start the waiting team moves up and is told.
    people = {t.pk: [(player_with_login(), player_with_login()) for _ in range(5)]
              for t in divisions}
    for tournament in divisions:
        requests = [enter_team(tournament, a, b) for a, b in people[tournament.pk]]
        assert [r.state for r in requests] == [EntryRequest.State.ENTERED] * 4 + [
            EntryRequest.State.WAITING]
    first = divisions[1]
    services.entry_withdraw(tournament=first, user=people[first.pk][0][0][1])
    moved = EntryRequest.objects.get(pk=requests[4].pk)
    assert moved.state == EntryRequest.State.ENTERED
    waiting_user = people[first.pk][4][0][1]
    assert Notification.objects.filter(user=waiting_user, kind="entry").count() == 2
    assert [Entry.objects.filter(tournament=t).count() for t in divisions] == [4, 4]

    # The schedules: check-in opens 30 minutes before each round and closes 5 minutes
    # before; each next round 10 minutes after the last table of the one before finished.
    for tournament in divisions:
        schedule = Schedule(tournament=tournament, starts_at=starts, interval_minutes=10,
                            check_in_opens_minutes=30, check_in_closes_minutes=5,
                            round_minutes=60, at_deadline=Schedule.AtDeadline.BOTS)
        services.schedule_save(schedule=schedule, user=organiser)
    # One person checks in for division 1's first round and never moves: a bot settles
    # their table at the deadline. Everyone else stays away: bots substitute for them.
    keen_player, keen_user = people[divisions[0].pk][0][0]

    now = starts - 31 * MINUTE
    for _ in range(60):
        due = [s.next_step_at for s in Schedule.objects.filter(tournament__in=divisions)
               if s.next_step_at is not None]
        if not due:
            break
        now = max(now, min(due))
        with capture(execute=True):
            services.schedule_tick(now=now)
        tournament = divisions[0]
        tournament.refresh_from_db()
        if tournament.check_in_closes and not tournament.rounds.exists():
            services.check_in_self(tournament=tournament, user=keen_user)
    for tournament in divisions:
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.FINISHED, tournament
        assert set(tournament.rounds.values_list("status", flat=True)) == {"complete"}
        # every absent player had a bot in their seat, told so; the keen one sat round 1
        assert Seat.objects.filter(round__tournament=tournament, substitute=True).exists()
    assert Seat.objects.filter(round__tournament=divisions[0], round__number=1,
                               player=keen_player, substitute=False).exists()
    told = set(Notification.objects.filter(user=keen_user).values_list("kind", flat=True))
    assert {"check_in", "table_ready", "ended"} <= told

    # The series table ranks every team of both events on points per place.
    table = season_series_table(series, "team")
    assert len(table.lines) == 8 and table.lines[0].rank == 1
    # each team the mean of the points of the places it holds (two level at the top of a
    # round robin of random deals share 8 and 4)
    scored = {line.key: line.points for line in table.lines}
    for tournament in divisions:
        for place in final_places_of(tournament):
            held = [8, 4, 2, 1][place.first - 1:place.last]
            assert scored[place.team.pk] == Decimal(sum(held)) / len(held), place

    # The next season: division 1's last goes down, division 2's winner up.
    draft = season_draft_next(season=season, user=organiser)
    places = [[place.team.pk for place in final_places_of(t)] for t in divisions]
    drafted = {d.level: set(Entry.objects.filter(tournament=d.tournament)
                            .values_list("team_id", flat=True)) for d in draft.divisions.all()}
    assert drafted == {1: set(places[0][:3]) | {places[1][0]},
                       2: {places[0][3]} | set(places[1][1:])}
