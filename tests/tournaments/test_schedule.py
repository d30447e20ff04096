"""Rounds on a schedule (services/schedule.py), run by the tick with time moved forward (the
tick takes ``now``): check-in windows opening and telling the players, rounds paired,
published and completed by themselves, a substitute for a player who did not check in, the
hard deadline's rules, and the organiser's pause, move and run-by-hand."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from games.live.director import hands_so_far
from games.live.models import LiveTable
from tournaments import services, tasks
from tournaments.models import Notification, Result, Round, Schedule, Seat, Tournament
from tournaments.schedule import RECHECK
from tournaments.selectors import tournament_players
from tournaments.services.schedule import RETRY

from .factories import UserFactory
from .schedule_helpers import scheduled

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]
MINUTE = timedelta(minutes=1)


@pytest.fixture(autouse=True)
def _fast_bots(settings: Any) -> None:
    settings.LIVE_BOT_PAUSE_SECONDS = 0
    settings.LIVE_HAND_PAUSE_SECONDS = 0


# Each table of a round is a whole game of bots: a test that needs no second table (nor a
# round 2) is played with two teams (three), at one table a round.


def tick(capture: Any, now: Any) -> int:
    with capture(execute=True):  # the steps' follow-ups (bots' games, results) done
        return services.schedule_tick(now=now)


def test_beat_runs_the_tick() -> None:
    from django.conf import settings
    entry = settings.CELERY_BEAT_SCHEDULE["schedule-tick"]
    assert entry["task"] == tasks.schedule_tick.name and entry["schedule"] <= 60


def test_a_whole_tournament_runs_by_itself_with_check_in_and_a_substitute(
        django_capture_on_commit_callbacks: Any) -> None:
    organiser = UserFactory()
    tournament, schedule = scheduled(organiser=organiser, interval_minutes=10,
                                     check_in_opens_minutes=30, check_in_closes_minutes=5)
    Tournament.objects.filter(pk=tournament.pk).update(check_in_required=True)
    players = list(tournament_players(tournament))
    away = players[0]  # has a login, and never checks in: a bot plays for them
    away.user = get_user_model().objects.create(username="away")
    away.save(update_fields=["user"])
    schedule = services.schedule_replan(tournament=tournament)
    assert (schedule.next_step, schedule.next_round) == ("check_in", 1)
    assert schedule.next_step_at == schedule.starts_at - 30 * MINUTE

    assert tick(django_capture_on_commit_callbacks, schedule.starts_at - 31 * MINUTE) == 0
    windows = []
    for _ in range(20):  # time moves on to each next step (a tick may take a few at once)
        schedule.refresh_from_db()
        if schedule.next_step_at is None:
            break
        now = schedule.next_step_at
        assert tick(django_capture_on_commit_callbacks, now) >= 1
        schedule.refresh_from_db()
        if schedule.check_in_round > len(windows):
            number = schedule.check_in_round
            tournament.refresh_from_db()
            assert tournament.check_in_closes is not None
            windows.append(number)
            assert tick(django_capture_on_commit_callbacks, now) == 0  # repeated: no more
            services.check_in_roster(tournament=tournament, number=number, user=organiser,
                                     present={p.pk for p in players[1:]})
    assert windows == [1, 2, 3]
    assert tick(django_capture_on_commit_callbacks, now + timedelta(days=1)) == 0
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert list(Round.objects.filter(tournament=tournament).values_list("status", flat=True)) \
        == [Round.Status.COMPLETE] * 3
    # the player who never checked in had a bot in each round, was told each window, that
    # a bot took their seat each round, and that the tournament ended (the rounds' ends are
    # told to those who played them)
    stood_in = Seat.objects.filter(round__tournament=tournament, player=None, substitute=True)
    assert stood_in.count() == 3
    assert sorted(Notification.objects.filter(user=away.user).values_list("kind", "key")) \
        == sorted([*(("check_in", f"check_in:{tournament.pk}:{n}") for n in (1, 2, 3)),
                   ("ended", f"tournament-ended:{tournament.pk}"),
                   *(("substituted", f"substituted:{seat.match_id}") for seat in stood_in)])
    # each told of check-in is sent to the check-in on their own page
    assert set(Notification.objects.filter(user=away.user, kind="check_in")
               .values_list("link", flat=True)) \
        == {reverse("tournaments:player_detail", args=[away.pk]) + "#check-in"}
    schedule.refresh_from_db()
    assert schedule.next_step == "" and schedule.last_error == ""


def test_round_two_starts_the_interval_after_round_one_last_table_finished(
        django_capture_on_commit_callbacks: Any) -> None:
    tournament, schedule = scheduled(interval_minutes=15)
    tick(django_capture_on_commit_callbacks, schedule.starts_at)
    schedule.refresh_from_db()
    finished = Result.objects.filter(match__round__tournament=tournament).latest("created")
    assert (schedule.next_step, schedule.next_round) == ("complete", 1)
    tick(django_capture_on_commit_callbacks, schedule.next_step_at)
    schedule.refresh_from_db()
    assert (schedule.next_step, schedule.next_round) == ("start", 2)
    assert schedule.next_step_at == finished.created + 15 * MINUTE


def test_a_result_nudges_the_schedule_to_look_at_once(
        django_capture_on_commit_callbacks: Any) -> None:
    tournament, schedule = scheduled(2)
    with django_capture_on_commit_callbacks(execute=False):
        assert services.schedule_tick(now=schedule.starts_at) == 1  # handed out
    with django_capture_on_commit_callbacks(execute=False) as later:
        # the worker's step: published, the games not yet played
        assert services.schedule_take_step(tournament_id=tournament.pk, now=schedule.starts_at)
    schedule.refresh_from_db()
    assert schedule.next_step == "complete" and schedule.next_step_at > schedule.starts_at
    with django_capture_on_commit_callbacks(execute=True):
        for callback in later:
            callback()  # the bots play; each result's nudge follows it
    schedule.refresh_from_db()
    assert schedule.next_step_at is not None and schedule.next_step_at <= \
        schedule.starts_at + 10 * MINUTE  # the real clock's now, not the regular look


def test_a_step_handed_out_is_taken_once_by_twin_tasks_and_not_after_the_organiser(
        django_capture_on_commit_callbacks: Any) -> None:
    organiser = UserFactory()
    tournament, schedule = scheduled(3, organiser=organiser)  # a round 2 to come
    now = schedule.starts_at
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert services.schedule_tick(now=now) == 1
        assert services.schedule_tick(now=now) == 0  # repeated: handed out already
    assert len(sent) == 1
    # the task twice (the outbox sent it again, the broker redelivered it)
    with django_capture_on_commit_callbacks(execute=True):  # its bots' games played after
        assert services.schedule_take_step(tournament_id=tournament.pk, now=now)
    assert not services.schedule_take_step(tournament_id=tournament.pk, now=now)
    assert Round.objects.filter(tournament=tournament).count() == 1
    schedule.refresh_from_db()
    assert schedule.next_step == "complete" and schedule.under_way_since is None

    # the round played: its look handed out, and the organiser completes it first
    with django_capture_on_commit_callbacks(execute=False):
        assert services.schedule_tick(now=now + RECHECK) == 1
        services.schedule_run_now(tournament=tournament, user=organiser, now=now + RECHECK)
        assert not services.schedule_take_step(tournament_id=tournament.pk, now=now + RECHECK)
    assert Round.objects.get(tournament=tournament).status == Round.Status.COMPLETE
    schedule.refresh_from_db()
    assert (schedule.next_step, schedule.next_round, schedule.under_way_since) == \
        ("start", 2, None)


def test_a_paused_schedule_takes_no_step_until_resumed(
        django_capture_on_commit_callbacks: Any) -> None:
    organiser = UserFactory()
    tournament, schedule = scheduled(2, organiser=organiser)
    services.schedule_pause(tournament=tournament, paused=True, user=organiser)
    assert tick(django_capture_on_commit_callbacks, schedule.starts_at + MINUTE) == 0
    assert not Round.objects.filter(tournament=tournament).exists()
    schedule.refresh_from_db()
    assert schedule.next_step_at is None and schedule.next_step == "start"
    services.schedule_pause(tournament=tournament, paused=False, user=organiser)
    assert tick(django_capture_on_commit_callbacks, schedule.starts_at + MINUTE) >= 1
    assert Round.objects.filter(tournament=tournament, number=1).exists()


def test_a_moved_round_starts_at_its_new_time(
        django_capture_on_commit_callbacks: Any) -> None:
    organiser = UserFactory()
    tournament, schedule = scheduled(2, organiser=organiser)
    later = schedule.starts_at + timedelta(hours=2)
    services.schedule_move_round(tournament=tournament, number=1, at=later, user=organiser)
    schedule.refresh_from_db()
    assert schedule.next_step_at == later
    assert tick(django_capture_on_commit_callbacks, schedule.starts_at) == 0
    assert tick(django_capture_on_commit_callbacks, later) >= 1
    with pytest.raises(services.TournamentUserError, match="has started already"):
        services.schedule_move_round(tournament=tournament, number=1, at=later, user=organiser)


def test_a_step_run_by_hand_is_taken_now_and_not_again_at_its_time(
        django_capture_on_commit_callbacks: Any) -> None:
    organiser = UserFactory()
    tournament, schedule = scheduled(2, organiser=organiser)
    with django_capture_on_commit_callbacks(execute=True):
        said = services.schedule_run_now(tournament=tournament, user=organiser,
                                         now=schedule.starts_at - timedelta(minutes=50))
    assert "Round 1" in said
    assert Round.objects.get(tournament=tournament, number=1).status != Round.Status.DRAFT
    tick(django_capture_on_commit_callbacks, schedule.starts_at)
    assert Round.objects.filter(tournament=tournament).count() <= 2
    assert Round.objects.filter(tournament=tournament, number=1).count() == 1


def test_only_an_organiser_changes_the_schedule() -> None:
    tournament, _schedule = scheduled()
    stranger = UserFactory()
    for change in (lambda: services.schedule_pause(tournament=tournament, paused=True,
                                                   user=stranger),
                   lambda: services.schedule_run_now(tournament=tournament, user=stranger)):
        with pytest.raises(PermissionDenied):
            change()
    assert not Schedule.objects.get(tournament=tournament).paused


def test_a_venue_tournament_has_no_schedule() -> None:
    organiser = UserFactory()
    tournament, _ = scheduled(organiser=organiser)
    Tournament.objects.filter(pk=tournament.pk).update(play=Tournament.Play.VENUE)
    tournament.refresh_from_db()
    with pytest.raises(services.TournamentUserError, match="played at the venue"):
        services.schedule_save(schedule=Schedule.objects.get(tournament=tournament),
                               user=organiser)


def person_at_a_table(rule: str, capture: Any) -> tuple[Tournament, Schedule, LiveTable]:
    """Round 1 published with a person (who never moves) at one table, due its deadline."""
    tournament, schedule = scheduled(2, round_minutes=60, at_deadline=rule)
    player = tournament_players(tournament).first()
    assert player is not None
    player.user = get_user_model().objects.create(username=f"person-{rule}")
    player.save(update_fields=["user"])
    tick(capture, schedule.starts_at)
    table = LiveTable.objects.get(match__round__tournament=tournament)
    assert table.status == LiveTable.Status.PLAYING  # waiting for the person
    schedule.refresh_from_db()
    assert schedule.next_step == "complete"  # looked at again now and then till the deadline
    return tournament, schedule, table


def test_at_the_deadline_bots_finish_a_table_and_the_round_completes(
        django_capture_on_commit_callbacks: Any) -> None:
    tournament, schedule, table = person_at_a_table("bots", django_capture_on_commit_callbacks)
    # a look before the deadline settles nothing
    tick(django_capture_on_commit_callbacks, schedule.starts_at + 59 * MINUTE)
    table.refresh_from_db()
    assert table.status == LiveTable.Status.PLAYING
    deadline = schedule.starts_at + 60 * MINUTE
    assert tick(django_capture_on_commit_callbacks, deadline) >= 1
    table.refresh_from_db()
    assert table.status == LiveTable.Status.FINISHED
    result = Result.objects.get(match__live_table=table)
    assert result.source == Result.Source.ONLINE
    tick(django_capture_on_commit_callbacks, deadline + MINUTE)
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.COMPLETE


def test_at_the_deadline_an_adjudicated_table_ends_with_its_finished_hands(
        django_capture_on_commit_callbacks: Any) -> None:
    tournament, schedule, table = person_at_a_table("adjudicate",
                                                    django_capture_on_commit_callbacks)
    deadline = schedule.starts_at + 60 * MINUTE
    played = hands_so_far(table.pk)  # the bots may have finished a hand or more meanwhile
    taken = tick(django_capture_on_commit_callbacks, deadline)
    schedule.refresh_from_db()
    assert taken >= 1, schedule.last_error
    table.refresh_from_db()
    assert table.status == LiveTable.Status.ENDED
    result = Result.objects.get(match__live_table=table)
    assert result.source == Result.Source.ENDED and "deadline" in result.reason
    unplayed = 5 - len(played)
    assert unplayed >= 1  # the person never moved: the game was not over
    assert result.hand_scores == [list(scores) for scores, _out in played] + [[0, 0]] * unplayed
    assert result.out_seats == [out for _scores, out in played] + [None] * unplayed
    assert tick(django_capture_on_commit_callbacks, deadline) == 0 or \
        Round.objects.get(tournament=tournament, number=1).status == Round.Status.COMPLETE
    assert Result.objects.filter(match__round__tournament=tournament).count() == 1


@pytest.mark.django_db(transaction=True)
def test_an_all_bot_online_round_plays_at_the_bots_full_speed(settings: Any) -> None:
    """Its players have no logins: nobody to wait for, so no bot pauses (a person's table
    would wait LIVE_BOT_PAUSE_SECONDS before each bot's move, in the timer thread)."""
    from config import in_process
    settings.LIVE_BOT_PAUSE_SECONDS = 30
    settings.LIVE_HAND_PAUSE_SECONDS = 30
    settings.CELERY_EAGER_DELAYS = True
    try:
        tournament, schedule = scheduled(4)
        services.schedule_tick(now=schedule.starts_at)
        tables = LiveTable.objects.filter(match__round__tournament=tournament)
        assert tables.count() == 2
        assert set(tables.values_list("status", flat=True)) == {LiveTable.Status.FINISHED}
        assert in_process.pending() == 0  # no bot's move waiting for a pause
    finally:
        in_process.clear()


def test_a_step_that_fails_is_said_and_taken_again_later(
        django_capture_on_commit_callbacks: Any) -> None:
    from tournaments.models import Entry

    from .factories import TeamFactory
    tournament, schedule = scheduled(2)
    Entry.objects.filter(tournament=tournament).exclude(seed=1).delete()  # one team: no pairing
    assert tick(django_capture_on_commit_callbacks, schedule.starts_at) == 1  # handed out
    schedule.refresh_from_db()
    assert schedule.last_error  # why, for the organiser
    assert schedule.under_way_since is None  # no longer under way: due again
    assert schedule.next_step_at == schedule.starts_at + RETRY
    assert not Round.objects.filter(tournament=tournament).exists()  # nothing of it stands
    Entry.objects.create(tournament=tournament, team=TeamFactory(), seed=2)
    assert tick(django_capture_on_commit_callbacks, schedule.starts_at) == 0  # not yet again
    assert tick(django_capture_on_commit_callbacks, schedule.next_step_at) >= 1
    schedule.refresh_from_db()
    assert schedule.last_error == ""
    assert Round.objects.filter(tournament=tournament, number=1).exists()
