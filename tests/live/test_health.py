"""The health check sees spinning work: a task running far past its usual time (asked of a
real worker over Redis, the task genuinely blocked) and a live table acted on many times a
second (from the database).

The worker test needs PostgreSQL and Redis: elsewhere it skips saying which is missing,
and in CI (PUSH_REQUIRE_SERVICES=1) it fails. The worker is Celery's default pool
(prefork, one child), as production runs it: a solo worker runs its task where it would
answer the health check's questions, so it answers none while it is busy."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis
from django.conf import settings
from django.db import connection
from django.utils import timezone

from config.environment import read
from config.worker_process import ROOT, database_url, sending_to, wait_ready
from games.live import service
from games.live.models import LiveAction, LiveTable
from tests.services import require
from tournaments.management.commands.health import Command as HealthCommand
from tournaments.services.health import (
    BUSY_TABLE_SECONDS,
    busy_table_limit,
    busy_tables_query,
    health_report,
    running_seconds,
    spinning_after,
)

from .conftest import FIRST, SEED

# seconds; only reached when something never comes (a failure)
TIMEOUT = 60


def _actions(table: LiveTable, count: int, *, ago: float = 0.0) -> None:
    """``count`` actions logged at ``table``, ``ago`` seconds ago (the rows as the service
    writes them; what the actions are does not matter to the rate)."""
    start = LiveAction.objects.filter(table=table).count()
    LiveAction.objects.bulk_create(
        LiveAction(table=table, seq=start + n + 1, seat=FIRST, action=f"{FIRST} take",
                   client_id=f"t{start + n}") for n in range(count))
    if ago:
        LiveAction.objects.filter(table=table, seq__gt=start).update(
            created=timezone.now() - timedelta(seconds=ago))


def _table(player: Any) -> LiveTable:
    return service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)


# ---- the thresholds ----

def test_the_thresholds_follow_the_tasks_and_the_bots_pause(settings: Any) -> None:
    assert spinning_after("games.live.tasks.live_turn_timeout") == 30
    assert spinning_after("games.live.tasks.live_bot_move") == 30
    assert spinning_after("tournaments.tasks.play_bot_match") == 120  # half of 240 s
    settings.CELERY_TASK_SOFT_TIME_LIMIT = 100
    assert spinning_after("anything.else") == 50
    settings.LIVE_BOT_PAUSE_SECONDS = 1.0
    assert busy_table_limit() == 20 and BUSY_TABLE_SECONDS == 10
    settings.LIVE_BOT_PAUSE_SECONDS = 0.5
    assert busy_table_limit() == 30
    settings.LIVE_BOT_PAUSE_SECONDS = 0
    assert busy_table_limit() == 210  # no pause: a move is still a task and a commit


def test_the_running_time_is_from_the_workers_wall_clock() -> None:
    now = time.time()
    assert running_seconds(now - 42.5, now) == 42.5
    assert running_seconds(now + 0.3, now) == 0.0  # the two clocks a little apart
    # not started yet, or an old Celery's monotonic clock (seconds since the worker booted)
    assert running_seconds(None, now) is None
    assert running_seconds(time.monotonic(), now) is None


# ---- tables acted on many times a second (the database only) ----

@pytest.mark.django_db
def test_a_table_acted_on_many_times_a_second_is_a_problem(
        player: Any, settings: Any, eager_tasks: None) -> None:
    settings.LIVE_BOT_PAUSE_SECONDS = 1.0  # the platform's default: at most 20 in 10 s
    busy, lively, earlier = _table(player), _table(player), _table(player)
    _actions(busy, 25)
    _actions(lively, 20)  # at the limit, not past it
    _actions(earlier, 200, ago=BUSY_TABLE_SECONDS + 5)  # a burst that is over
    report = health_report()
    assert report["busy_tables"] == [{"table": busy.pk, "actions": 25, "seconds": 10,
                                      "per_second": 2.5}]
    assert not report["healthy"] and report["problems"] == [
        f"live table {busy.pk} took 25 actions in the last 10 s (2.5 a second; a game takes "
        "at most 20): something acts in a loop"]


@pytest.mark.django_db
def test_a_game_at_the_bots_pace_is_not_reported(
        player: Any, act: Callable[..., int], settings: Any) -> None:
    """A person's turns with the bots answering at once (no pause, tests/live/conftest.py)
    is healthy; the same log with bots that pause a second between moves could not have
    been played that fast, and is reported."""
    table = _table(player)
    for n in range(8):
        view = service.update_since(table.pk, FIRST, 0).view
        legal = view["legal"]
        act(table.pk, FIRST, next((a for a in legal if " discard " not in a), legal[0]), f"h{n}")
    # as a quick machine plays them: all within the last second, however long they took here
    played = LiveAction.objects.filter(table=table).update(created=timezone.now())
    assert 20 < played < busy_table_limit()
    report = health_report()
    assert report["healthy"] and report["busy_tables"] == []
    settings.LIVE_BOT_PAUSE_SECONDS = 1.0
    assert [row["table"] for row in health_report()["busy_tables"]] == [table.pk]


@pytest.mark.django_db
def test_the_rate_query_reads_only_the_recent_actions(player: Any) -> None:
    """The question runs at every health check while tables play: on PostgreSQL it is a
    range of the index on the actions' time, not a scan of every action ever logged."""
    if connection.vendor != "postgresql":
        pytest.skip("the query plan is PostgreSQL's (set DATABASE_URL=postgres://...)")
    query = busy_tables_query(timezone.now() - timedelta(seconds=BUSY_TABLE_SECONDS), 20)
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # an empty table: ask what it can
        plan = query.explain()
    assert "live_action_created" in plan


# ---- a task running far past its usual time (a real worker) ----

@pytest.fixture
def queue(transactional_db: None) -> Iterator[str]:
    """A queue of this test's own, where what this process sends goes meanwhile."""
    broker = read().CELERY_BROKER_URL
    missing = (f"the database is {connection.vendor}, not PostgreSQL (set DATABASE_URL)"
               if connection.vendor != "postgresql" else
               "no Celery broker (set CELERY_BROKER_URL=redis://...)"
               if settings.CELERY_TASK_ALWAYS_EAGER or not broker.startswith("redis") else None)
    if missing is None:
        try:
            redis.Redis.from_url(broker, socket_connect_timeout=2).ping()
        except redis.RedisError as exc:
            missing = f"Redis does not answer at {broker}: {exc}"
    require(missing, "the health check's view of running tasks")
    name = f"push-test-health-{uuid.uuid4().hex[:8]}"
    try:
        with sending_to(name):
            yield name
    finally:
        redis.Redis.from_url(broker).delete(name)


def _env(queue: str) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": database_url(connection.settings_dict),
            "CELERY_QUEUE": queue, "CHANNEL_PREFIX": queue, "LIVE_BOT_PAUSE_SECONDS": "0",
            "DJANGO_DEBUG": "true"}


@pytest.fixture
def prefork_worker(queue: str, tmp_path: Path) -> Iterator[Callable[[], str]]:
    """Starts a real worker of Celery's default pool on ``queue``; its name. Stopped after
    (the test releases what its task waits for first)."""
    started: list[subprocess.Popen[bytes]] = []

    def start() -> str:
        log = tmp_path / "worker.log"
        name = f"health-{queue}"
        started.append(subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=prefork",
             "--concurrency=1", "-Q", queue, "--without-gossip", "--without-mingle",
             "--without-heartbeat", "-l", "info", "-n", f"{name}@%h", f"--logfile={log}"],
            cwd=ROOT, env=_env(queue), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        wait_ready(log, started[-1])
        return name

    yield start
    for process in started:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _ours(report: dict[str, Any], worker: str) -> list[dict[str, Any]]:
    return [task for task in report.get("spinning_tasks", [])
            if task["worker"].startswith(f"{worker}@")]


def _until(check: Callable[[], Any], what: str) -> Any:
    deadline = time.monotonic() + TIMEOUT
    while not (found := check()):
        assert time.monotonic() < deadline, f"{what} did not happen within {TIMEOUT} s"
        time.sleep(0.2)
    return found


def test_a_task_stuck_on_a_lock_is_reported_until_it_moves_on(
        queue: str, player: Any, prefork_worker: Callable[[], str],
        capsys: pytest.CaptureFixture[str]) -> None:
    """A bot's move waits for its table's row, which another connection holds locked (as a
    task looping on a table would keep it busy): the worker runs it and answers; health
    reports it, with its running time, once past the threshold (here lowered to 1 s, the
    command's --spinning-after: the default is 30 s for a live table's task) and exits 1;
    once the row is free the bot moves and health is good again."""
    bot_first = (FIRST + 1) % 4  # the person sits after the first mover: a bot moves first
    table = service.create_practice_table(player, "greedy", seat=bot_first, seed=SEED)
    service.begin(table.pk)  # the person opened it: the bot's move is sent
    locker = psycopg.connect(database_url(connection.settings_dict))
    try:
        locker.execute(f"SELECT id FROM {LiveTable._meta.db_table} WHERE id = %s FOR UPDATE",
                       [table.pk])
        before_start = time.time()
        worker = prefork_worker()  # the bot's move, sent at the commit, waits in the queue
        running = _until(lambda: _ours(health_report(spinning=0.0), worker), "the task")
        seen = time.time()
        [task] = running
        assert task["name"] == "games.live.tasks.live_bot_move"
        assert task["args"] == repr((table.pk, 0))
        # seconds running: not yet past the default threshold for a live table's task
        report = health_report()
        assert report["healthy"], report["problems"]
        assert report["workers"]["consuming"] == [f"{worker}@{task['worker'].split('@')[1]}"]

        time.sleep(max(0.0, 1.5 - (time.time() - seen)))
        asked = time.time()
        report = health_report(spinning=1.0)
        [spinning] = _ours(report, worker)
        assert spinning["id"] == task["id"] and spinning["limit"] == 1.0
        # accepted after the worker started and before we first saw it running
        assert asked - seen <= spinning["seconds"] <= time.time() - before_start
        assert not report["healthy"] and any(
            f"task games.live.tasks.live_bot_move[{task['id']}] has run" in problem
            for problem in report["problems"])

        # the command as manage.py runs it (its argv, its exit status), in this process:
        # a second interpreter starting Django only to ask the same question took seconds
        capsys.readouterr()
        with pytest.raises(SystemExit) as exited:
            HealthCommand().run_from_argv(
                ["manage.py", "health", "--timeout=1", "--spinning-after=1"])
        out, err = capsys.readouterr()
        assert exited.value.code == 1, err
        printed = json.loads(out)
        assert [t["id"] for t in _ours(printed, worker)] == [task["id"]]
        assert f"live_bot_move[{task['id']}]" in err
    finally:
        locker.close()  # the lock goes with the connection: the bot's move goes on

    _until(lambda: LiveTable.objects.get(pk=table.pk).seq > 0, "the bot's move")
    report = _until(lambda: (r := health_report(spinning=1.0))["healthy"] and r,
                    "a healthy report")
    assert _ours(report, worker) == []
