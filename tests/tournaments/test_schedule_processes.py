"""The scheduler across real processes on PostgreSQL: two ticks racing (two OS processes
ticking at the same moment) hand each step out once, so it is taken once; and a step's
worker killed with SIGKILL in the middle of the step leaves nothing of it, and the step is
handed out again once its lease is up and taken once. The ticking processes run the steps
they hand out themselves, after their commit, as a worker would (no broker: in-process)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections

from config.worker_process import ROOT, database_url
from tests.services import require
from tournaments import services
from tournaments.models import Match, Notification, Result, Round, Schedule, Seat, Tournament
from tournaments.schedule import RECHECK
from tournaments.selectors import tournament_players
from tournaments.services.schedule import LEASE

from .schedule_helpers import scheduled
from .test_celery_e2e import client_of, drain, gone, queue, workers  # noqa: F401 - fixtures

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


def race(env: dict[str, str], now: datetime) -> list[int]:
    """Two processes tick at ``now`` at the same moment; the steps each handed out."""
    with connection.cursor() as cursor:  # both wait here, and go at once
        cursor.execute("SELECT pg_advisory_lock(%s)", [BARRIER])
        processes = [ticker(env, now, barrier=True) for _ in range(2)]
        deadline = time.monotonic() + TIMEOUT
        while True:  # until both have started and wait at the barrier
            cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND "
                           "objid = %s AND NOT granted AND database = (SELECT oid FROM "
                           "pg_database WHERE datname = current_database())", [BARRIER])
            if cursor.fetchone()[0] == 2:
                break
            assert time.monotonic() < deadline, "the ticks never reached the barrier"
            time.sleep(0.1)
        cursor.execute("SELECT pg_advisory_unlock(%s)", [BARRIER])
    return [int(finish(process).split(":")[1]) for process in processes]


def test_two_ticks_racing_take_each_step_once(env: dict[str, str]) -> None:
    tournament, schedule = scheduled(4, check_in_opens_minutes=30)
    Tournament.objects.filter(pk=tournament.pk).update(check_in_required=True)
    user = with_person(tournament, "racer")
    services.schedule_replan(tournament=tournament)
    opens = schedule.starts_at - timedelta(minutes=30)
    # opening check-in; starting round 1, its bots' games played at once in the process that
    # started it (nobody checked in), so the other may find its completion due and hand that
    # out; completing it, unless that was done
    round_done = Round.objects.filter(tournament=tournament, status=Round.Status.COMPLETE)
    for now, step in ((opens, "check_in"), (schedule.starts_at, "start"),
                      (schedule.starts_at + RECHECK, "complete")):
        if step == "complete" and round_done.exists():
            continue
        assert Schedule.objects.get(tournament=tournament).next_step == step
        taken = race(env, now)
        done = 1 + (round_done.count() if step == "start" else 0)
        assert sum(taken) == done, (step, taken)  # each step handed out once
        assert Schedule.objects.get(tournament=tournament).under_way_since is None  # taken
    assert round_done.exists()
    # told once of each: check-in opening, and the bot in their seat (never checked in)
    told = Counter(Notification.objects.filter(user=user).values_list("kind", flat=True))
    assert told["check_in"] == 1 and told["substituted"] == 1 and set(told.values()) == {1}
    assert Round.objects.filter(tournament=tournament).count() == 1
    round = Round.objects.get(tournament=tournament)  # paired once, played once, complete
    assert Match.objects.filter(round=round).count() == 2
    assert Seat.objects.filter(round=round).count() == 8
    assert Result.objects.filter(match__round=round).count() == 2
    assert round.status == Round.Status.COMPLETE


def test_a_step_killed_midway_leaves_nothing_and_is_handed_out_again_and_taken_once(
        env: dict[str, str]) -> None:
    tournament, schedule = scheduled(4, check_in_opens_minutes=30)
    Tournament.objects.filter(pk=tournament.pk).update(check_in_required=True)
    user = with_person(tournament, "blocker")
    services.schedule_replan(tournament=tournament)
    opens = schedule.starts_at - timedelta(minutes=30)
    key = f"check_in:{tournament.pk}:1"
    blocker = telling_blocked(user.pk, key)
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
    # handed out (the tick committed that before its step began), and not again meanwhile
    schedule = Schedule.objects.get(tournament=tournament)
    assert (schedule.next_step, schedule.under_way_since, schedule.next_step_at) == \
        ("check_in", opens, opens + LEASE)
    assert finish(ticker(env, opens)).strip() == "steps handed out: 0"
    later = opens + LEASE
    deadline = time.monotonic() + TIMEOUT
    while finish(ticker(env, later)).strip() == "steps handed out: 0":
        # the killed step's backend lets go of the schedule once it finds its client gone
        assert time.monotonic() < deadline, "the killed step's lock was never released"
        time.sleep(0.5)
    assert finish(ticker(env, later)).strip() == "steps handed out: 0"
    assert list(Notification.objects.values_list("user_id", "key")) == [(user.pk, key)]
    assert Tournament.objects.get(pk=tournament.pk).check_in_closes is not None
    schedule = Schedule.objects.get(tournament=tournament)
    assert (schedule.check_in_round, schedule.next_step, schedule.last_error,
            schedule.under_way_since) == (1, "start", "", None)


def telling_blocked(user_id: int, key: str) -> Any:
    """A connection writing the notification ``key`` to the user, uncommitted: the check-in
    step blocks where it tells them (the tournament's window already opened in its
    transaction). Roll it back and close it."""
    blocker = connections.create_connection("default")
    blocker.set_autocommit(False)
    with blocker.cursor() as cursor:
        cursor.execute(f"INSERT INTO {Notification._meta.db_table} (user_id, kind, key, params, "
                       "link, created, mail, mail_tries) "
                       "VALUES (%s, 'check_in', %s, '{}', '', now(), '', 0)", [user_id, key])
    return blocker


def _wait_blocked() -> int:
    """Until a backend waits for a lock (the step's, on the notification being written);
    its server process id."""
    deadline = time.monotonic() + TIMEOUT
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute("SELECT pid FROM pg_stat_activity WHERE wait_event_type = "
                           "'Lock' AND datname = current_database()")
            row = cursor.fetchone()
            if row:
                return int(row[0])
            time.sleep(0.2)
    raise AssertionError("the step never blocked")


def test_a_celery_worker_killed_mid_step_strands_nothing(
        queue: str, workers: Callable[[], subprocess.Popen[bytes]]  # noqa: F811
) -> None:
    """The tick in this process hands the step to a real worker over Redis, which is killed
    (``kill -9``) in the middle of it; once the lease is up a tick hands it out again and
    another worker takes it, once (the broker's copy of the first task, unacknowledged,
    would find it taken)."""
    tournament, schedule = scheduled(4, check_in_opens_minutes=30)
    Tournament.objects.filter(pk=tournament.pk).update(check_in_required=True)
    user = with_person(tournament, "doomed")
    services.schedule_replan(tournament=tournament)
    opens = schedule.starts_at - timedelta(minutes=30)
    key = f"check_in:{tournament.pk}:1"
    doomed = workers()
    blocker = telling_blocked(user.pk, key)
    try:
        assert services.schedule_tick(now=opens) == 1
        pid = _wait_blocked()
        doomed.kill()  # SIGKILL: nothing runs in the worker after this
        doomed.wait(timeout=30)
    finally:
        blocker.rollback()
        blocker.close()
    gone(pid)
    assert Tournament.objects.get(pk=tournament.pk).check_in_closes is None
    assert not Notification.objects.exists()
    assert services.schedule_tick(now=opens) == 0  # under way: not handed out again yet
    workers()
    assert services.schedule_tick(now=opens + LEASE) == 1
    drain(client_of(queue))
    assert list(Notification.objects.values_list("user_id", "key")) == [(user.pk, key)]
    schedule = Schedule.objects.get(tournament=tournament)
    assert (schedule.check_in_round, schedule.next_step, schedule.last_error,
            schedule.under_way_since) == (1, "start", "", None)
