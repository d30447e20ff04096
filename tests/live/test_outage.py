"""A Redis outage under a live table heals by itself: a Redis of the test's own (broker and
channel layer) is stopped for 10 s while a real Celery worker holds the table's delayed
tasks (a bot's pause, the person's turn timer), with beat and a uvicorn server running
beside it; once Redis is back, every seat moves again within a minute, with no process
restarted, and a websocket opened during the outage was served and then follows the play.

It needs PostgreSQL and the ``redis-server`` program: elsewhere it skips saying which is
missing, and in CI (PUSH_REQUIRE_SERVICES=1) it fails. The 10 s outage is the scenario's
own time; every other wait is on the database, a message or a log, each bounded.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import pytest
import websockets
from celery import Celery
from django.db import connection, connections
from django.utils import timezone

from config.asgi_process import AsgiServer
from config.worker_process import ROOT, database_url, start_worker, wait_ready
from games.live import service
from games.live.models import LiveAction, LiveTable
from tests.services import require

from .conftest import FIRST, SEED
from .redis_server import RedisServer, no_redis_server, until
from .sockets import next_frame, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

OUTAGE = 10  # seconds Redis is away
HEALED = 60  # seconds within which every seat must move again once Redis is back
TIMEOUT = 60  # seconds: only reached when something never happens (a failure)
T = TypeVar("T")


@pytest.fixture
def own_redis(transactional_db: None, tmp_path: Path) -> Iterator[RedisServer]:
    require(f"the database is {connection.vendor}, not PostgreSQL (set DATABASE_URL)"
                    if connection.vendor != "postgresql" else no_redis_server(),
                    "a Redis outage under a live table")
    server = RedisServer(tmp_path)
    yield server
    if server.process is not None and server.process.poll() is None:
        server.stop()


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for process in started:
        process.terminate()
    for process in started:
        process.wait(timeout=TIMEOUT)


def _beat(env: dict[str, str], directory: Path) -> subprocess.Popen[bytes]:
    log = directory / "beat.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "beat", "-l", "info",
         "-s", str(directory / "beat-schedule"), f"--logfile={log}"],
        cwd=ROOT, env={**os.environ, **env}, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    until(lambda: log.exists() and "beat: Starting" in log.read_text(), "beat to start")
    return process


def _holds_timer(scheduled: dict[str, Any] | None) -> bool:
    return any(entry["request"]["name"] == "games.live.tasks.live_turn_timeout"
               for entries in (scheduled or {}).values() for entry in entries)


def _closing(work: Callable[[], T]) -> Callable[[], T]:
    """``work`` for a thread of its own: it closes the database connection it opened."""
    def run() -> T:
        try:
            return work()
        finally:
            connections.close_all()
    return run


def _moved_since(table: LiveTable, since: datetime) -> set[int]:
    return set(LiveAction.objects.filter(table=table, created__gt=since)
               .values_list("seat", flat=True))


def test_every_seat_moves_again_after_redis_comes_back(
        own_redis: RedisServer, processes: list[subprocess.Popen[bytes]], player: Any,
        settings: Any, tmp_path: Path) -> None:
    tag = f"push-test-outage-{uuid.uuid4().hex[:8]}"
    env = {"DATABASE_URL": database_url(connection.settings_dict),
           "CELERY_BROKER_URL": own_redis.url, "CELERY_QUEUE": tag,
           "CHANNEL_REDIS_URL": own_redis.url, "CHANNEL_PREFIX": tag,
           "LIVE_BOT_PAUSE_SECONDS": "1"}
    # a person who lets every turn run out, so the stand-in plays them on timers: delayed
    # tasks the worker holds for a few seconds
    settings.LIVE_MOVE_SECONDS = 8
    table = service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)
    service.begin(table.pk)  # the person opened it, and lets their turns run out
    log = tmp_path / "worker.log"
    worker = start_worker(queue=tag, database=env["DATABASE_URL"], broker=own_redis.url,
                          backend="", log=log, env=env)
    processes.append(worker)
    wait_ready(log, worker)
    processes.append(_beat(env, tmp_path))
    server = AsgiServer(env)
    try:
        client = Celery("outage-test", set_as_current=False)
        client.conf.update(broker_url=own_redis.url, broker_read_url=own_redis.url,
                           broker_write_url=own_redis.url,
                           broker_transport="config.broker:Transport")
        deadline = LiveTable.objects.get(pk=table.pk).deadline
        assert deadline is not None  # the person's turn: its timer starts the play
        client.send_task("games.live.tasks.live_turn_timeout",
                         (table.pk, deadline.isoformat()), eta=deadline, queue=tag)
        started = timezone.now()
        until(lambda: _moved_since(table, started) == {0, 1, 2, 3}, "every seat to play")
        # Redis goes away while the worker holds the person's timer, a delayed task
        until(lambda: LiveTable.objects.get(pk=table.pk).deadline is not None,
               "the person's turn")
        inspect = client.control.inspect(timeout=1)
        until(lambda: _holds_timer(inspect.scheduled()), "the timer in the worker")
        own_redis.stop()

        cookie = session_cookie(player)

        async def open_during_outage() -> Any:
            return await websockets.connect(
                server.url(f"/ws/tables/{table.pk}/"), open_timeout=TIMEOUT,
                ping_interval=None,
                additional_headers={"Origin": "http://127.0.0.1",
                                    "Cookie": f"sessionid={cookie}"})

        async def outage_then_follow() -> int:
            ws = await open_during_outage()  # accepted: the game is in the database
            snapshot = await next_frame(ws)
            assert snapshot["type"] == "update", snapshot
            await asyncio.sleep(OUTAGE)
            assert worker.poll() is None, "the worker died during the outage"
            await asyncio.to_thread(own_redis.start)
            back = timezone.now()
            await asyncio.to_thread(_closing(lambda: until(
                lambda: _moved_since(table, back) == {0, 1, 2, 3},
                "every seat to move again", HEALED)))
            # the connection opened during the outage has followed the play meanwhile
            now = await asyncio.to_thread(_closing(
                lambda: LiveTable.objects.get(pk=table.pk).seq))
            seen = snapshot["view"]["seq"]
            while seen < now:
                message = await next_frame(ws)
                assert message["type"] == "update", message
                seen = message["view"]["seq"]
            await ws.close()
            return seen

        seen = asyncio.run(outage_then_follow())
        assert seen > 0 and worker.poll() is None  # the same worker, never restarted
        seqs = list(LiveAction.objects.filter(table=table).order_by("seq")
                    .values_list("seq", flat=True))
        assert seqs == list(range(1, len(seqs) + 1))  # no gap, no repeat
        assert "Unrecoverable error" not in log.read_text()
    finally:
        server.stop(kill=True)
        print("".join(server.log[-80:]))  # shown when the test fails
