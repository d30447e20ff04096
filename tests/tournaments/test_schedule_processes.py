"""The scheduler across real processes on PostgreSQL: two ticks racing (two OS processes
ticking at the same moment) take each step once, and a tick killed with SIGKILL in the middle
of a step leaves nothing of it, so the next tick takes it, once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections

from config.worker_process import ROOT, database_url
from tests.services import require
from tournaments import services
from tournaments.models import Match, Notification, Result, Round, Schedule, Seat, Tournament
from tournaments.selectors import tournament_players

from .schedule_helpers import scheduled

pytestmark = pytest.mark.django_db(transaction=True)
BARRIER = 73_310_033  # the advisory lock the ticking processes wait on together
TIMEOUT = 60


@pytest.fixture
def env(transactional_db: None) -> dict[str, str]:
    require(None if connection.vendor == "postgresql" else
            f"the database is {connection.vendor}, not PostgreSQL (set DATABASE_URL)",
            "ticks in real processes")
    return {**os.environ, "DATABASE_URL": database_url(connection.settings_dict),
            "DJANGO_SETTINGS_MODULE": "tests.settings", "CELERY_BROKER_URL": "",
            "CELERY_EAGER_DELAYS": "false", "LIVE_BOT_PAUSE_SECONDS": "0"}


def ticker(env: dict[str, str], now: datetime, barrier: bool = False) -> subprocess.Popen[str]:
    command = [sys.executable, "manage.py", "schedule_tick", "--now", now.isoformat()]
    if barrier:
        command += ["--barrier", str(BARRIER)]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def finish(process: subprocess.Popen[str]) -> str:
    out, err = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 0, err
    return out


def with_person(tournament: Tournament, username: str) -> Any:
    player = tournament_players(tournament).first()
    assert player is not None
    player.user = get_user_model().objects.create(username=username)
    player.save(update_fields=["user"])
    return player.user


def test_two_ticks_racing_take_each_step_once(env: dict[str, str]) -> None:
    tournament, schedule = scheduled(4, check_in_opens_minutes=30)
    Tournament.objects.filter(pk=tournament.pk).update(check_in_required=True)
    user = with_person(tournament, "racer")
    services.schedule_replan(tournament=tournament)
    opens = schedule.starts_at - timedelta(minutes=30)
    for now, step in ((opens, "check-in"), (schedule.starts_at, "start")):
        with connection.cursor() as cursor:  # both wait here, and go at once
            cursor.execute("SELECT pg_advisory_lock(%s)", [BARRIER])
            processes = [ticker(env, now, barrier=True) for _ in range(2)]
            time.sleep(2)  # both started and waiting at the barrier
            cursor.execute("SELECT pg_advisory_unlock(%s)", [BARRIER])
        taken = [int(finish(process).split(":")[1]) for process in processes]
        # each step once, whichever process took it: opening check-in; then starting round 1
        # and (its bots' games played at once in the process that started it, nobody having
        # checked in) completing it, which either process may take once the results are in
        done = 1 if step == "check-in" else 1 + Round.objects.filter(
            tournament=tournament, status=Round.Status.COMPLETE).count()
        assert sum(taken) == done, (step, taken)
    # told once of each: check-in opening, and the bot in their seat (never checked in)
    told = Counter(Notification.objects.filter(user=user).values_list("kind", flat=True))
    assert told["check_in"] == 1 and told["substituted"] == 1 and set(told.values()) == {1}
    assert Round.objects.filter(tournament=tournament).count() == 1
    round = Round.objects.get(tournament=tournament)  # paired once, played once, complete
    assert Match.objects.filter(round=round).count() == 2
    assert Seat.objects.filter(round=round).count() == 8
    assert Result.objects.filter(match__round=round).count() == 2
    assert round.status == Round.Status.COMPLETE


def test_a_tick_killed_mid_step_leaves_nothing_and_the_next_takes_it_once(
        env: dict[str, str]) -> None:
    tournament, schedule = scheduled(4, check_in_opens_minutes=30)
    Tournament.objects.filter(pk=tournament.pk).update(check_in_required=True)
    user = with_person(tournament, "blocker")
    services.schedule_replan(tournament=tournament)
    opens = schedule.starts_at - timedelta(minutes=30)
    key = f"check_in:{tournament.pk}:1"
    # The step blocks where it tells the player (the tournament's window already opened in
    # its transaction): this connection is writing the same notification, uncommitted.
    blocker = connections.create_connection("default")
    blocker.set_autocommit(False)
    with blocker.cursor() as cursor:
        cursor.execute(f"INSERT INTO {Notification._meta.db_table} (user_id, kind, key, params, "
                       "link, created, mail, mail_tries) "
                       "VALUES (%s, 'check_in', %s, '{}', '', now(), '', 0)", [user.pk, key])
    process = ticker(env, opens)
    try:
        _wait_blocked()
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=TIMEOUT)
    finally:
        blocker.rollback()
        blocker.close()
    assert process.returncode == -signal.SIGKILL
    assert Tournament.objects.get(pk=tournament.pk).check_in_closes is None  # rolled back
    assert not Notification.objects.exists()
    deadline = time.monotonic() + TIMEOUT
    while finish(ticker(env, opens)).strip() == "steps taken: 0":
        # the killed tick's backend lets go of the tournament once it finds its client gone
        assert time.monotonic() < deadline, "the killed tick's lock was never released"
        time.sleep(0.5)
    assert finish(ticker(env, opens)).strip() == "steps taken: 0"
    assert list(Notification.objects.values_list("user_id", "key")) == [(user.pk, key)]
    assert Tournament.objects.get(pk=tournament.pk).check_in_closes is not None
    schedule = Schedule.objects.get(tournament=tournament)
    assert (schedule.check_in_round, schedule.next_step, schedule.last_error) == \
        (1, "start", "")


def _wait_blocked() -> None:
    """Until a backend waits for a lock (the tick's, on the notification being written)."""
    deadline = time.monotonic() + TIMEOUT
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = "
                           "'Lock' AND datname = current_database()")
            if cursor.fetchone()[0]:
                return
            time.sleep(0.2)
    raise AssertionError("the tick never blocked")
