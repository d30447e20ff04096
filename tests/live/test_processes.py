"""Live tables across real processes: an ASGI server (uvicorn, the production one, and
daphne, ``make run``'s) killed mid-hand and started again, the client resuming from its
last sequence number; and two ASGI processes (one of each) serving one table through the
Redis pub/sub layer. The clients are real websockets (the
``websockets`` package), the bots a real Celery worker; nothing is mocked.

They need PostgreSQL and Redis (a broker): elsewhere they skip saying which is missing,
and in CI (PUSH_REQUIRE_SERVICES=1) they fail. Every wait is on a message, a log line or a
closed connection, each bounded by a timeout that only a failure reaches.
"""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import websockets
from django.conf import settings
from django.db import connection

from config.asgi_process import AsgiServer
from config.worker_process import database_url, start_worker, wait_ready
from games.live import service
from games.live.models import LiveAction, LiveTable
from tests.services import require

from .conftest import FIRST, SEED, _redis_url
from .sockets import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

# seconds: only reached when a message never comes (a failure); generous, as the bots'
# worker and two servers share a loaded machine with the test
TIMEOUT = 120


@pytest.fixture
def env(transactional_db: None) -> Iterator[dict[str, str]]:
    """The environment of this test's servers and worker: the test database, a Celery
    queue and a channel prefix of its own, bots without a pause."""
    redis_url = _redis_url()
    missing = (f"the database is {connection.vendor}, not PostgreSQL (set DATABASE_URL)"
               if connection.vendor != "postgresql" else
               "no Redis answers (set CELERY_BROKER_URL=redis://...)" if redis_url is None
               else "no Celery broker (set CELERY_BROKER_URL=redis://...)"
               if settings.CELERY_TASK_ALWAYS_EAGER else None)
    require(missing, "live tables across processes")
    assert redis_url is not None
    tag = f"push-test-live-{uuid.uuid4().hex[:8]}"
    yield {"DATABASE_URL": database_url(connection.settings_dict),
           "CELERY_BROKER_URL": settings.CELERY_BROKER_URL, "CELERY_QUEUE": tag,
           "CHANNEL_REDIS_URL": redis_url, "CHANNEL_PREFIX": tag,
           "LIVE_BOT_PAUSE_SECONDS": "0"}
    redis.Redis.from_url(settings.CELERY_BROKER_URL).delete(tag)


@pytest.fixture
def servers(env: dict[str, str]) -> Iterator[list[AsgiServer]]:
    """Start a server with ``servers.append(AsgiServer(env))``; all are stopped after."""
    started: list[AsgiServer] = []
    yield started
    for server in started:
        server.stop(kill=True)


@pytest.fixture
def bots(env: dict[str, str], tmp_path: Path) -> Iterator[Callable[[], None]]:
    """Start a real Celery worker playing the bots of this test's tables (until then
    their moves wait in the queue); it is stopped after."""
    started: list[subprocess.Popen[bytes]] = []

    def start() -> None:
        log = tmp_path / "worker.log"
        started.append(start_worker(queue=env["CELERY_QUEUE"], database=env["DATABASE_URL"],
                                    broker=env["CELERY_BROKER_URL"], backend="", log=log,
                                    env=env))
        wait_ready(log)

    yield start
    for worker in started:
        worker.terminate()
        worker.wait(timeout=60)


@pytest.fixture
def table(player: Any, env: dict[str, str]) -> LiveTable:
    # the person's seat moves first, so nothing is sent to the bots before a worker is up
    return service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)


class Client:
    """One browser tab: a websocket, the latest view, and every event received by number
    (an event received twice must be the same)."""

    def __init__(self, ws: Any, name: str) -> None:
        self.ws, self.name = ws, name
        self.view: dict[str, Any] = {}
        self.events: dict[int, dict[str, Any]] = {}
        self.sent = 0

    @classmethod
    async def join(cls, server: AsgiServer, table_id: int, cookie: str,
                   name: str = "tab") -> Client:
        client = cls(await _connect(server, table_id, cookie), name)
        await client.until(lambda: bool(client.view))  # the snapshot
        return client

    async def next(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), TIMEOUT))
        assert message["type"] != "error", message
        if message["type"] == "update":
            for event in message["events"]:
                assert self.events.setdefault(event["seq"], event) == event
            if message["view"]["seq"] >= self.view.get("seq", -1):
                self.view = message["view"]
        return message

    async def until(self, done: Any) -> None:
        while not done():
            await self.next()

    async def act(self) -> int:
        """Wait for this seat's turn, play its first legal action; its sequence number,
        once the update carrying it has come."""
        await self.until(lambda: bool(self.view["legal"]))
        self.sent += 1
        await self.ws.send(json.dumps({"type": "act", "id": f"{self.name}-{self.sent}",
                                       "action": self.view["legal"][0]}))
        while (message := await self.next())["type"] != "ack":
            pass
        seq: int = message["seq"]
        await self.until(lambda: self.view["seq"] >= seq)
        return seq

    def hand_ended(self) -> bool:
        return any("hand_result" in event for event in self.events.values())


async def _connect(server: AsgiServer, table_id: int, cookie: str) -> Any:
    return await websockets.connect(
        server.url(f"/ws/tables/{table_id}/"), open_timeout=TIMEOUT, ping_interval=None,
        additional_headers={"Origin": "http://127.0.0.1", "Cookie": f"sessionid={cookie}"})


@pytest.mark.parametrize("server", ["uvicorn", "daphne"])
@pytest.mark.parametrize("kill", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_a_server_killed_mid_hand_loses_nothing(
        kill: signal.Signals, server: str, table: LiveTable, player: Any,
        env: dict[str, str], servers: list[AsgiServer], bots: Callable[[], None]) -> None:
    """The person plays a turn; the server is killed; the bots play on meanwhile (their
    worker starts only now, so they certainly act while no server runs); a new server
    starts, the client resumes from its last number and plays to the end of the hand."""
    cookie = session_cookie(player)
    servers.append(AsgiServer(env, server=server))

    async def play() -> tuple[Client, int]:
        client = await Client.join(servers[0], table.pk, cookie)
        while client.view["to_move"] == FIRST:  # a whole turn: draw ... discard
            await client.act()
        before = max(client.events)
        await asyncio.to_thread(servers[0].stop, kill == signal.SIGKILL)
        with pytest.raises(websockets.ConnectionClosed):
            await client.until(lambda: False)  # the server has gone: the socket closes
        await asyncio.to_thread(bots)
        servers.append(await asyncio.to_thread(AsgiServer, env, server=server))
        client.ws = await _connect(servers[1], table.pk, cookie)
        await client.ws.send(json.dumps({"type": "resume", "since": before}))
        while not client.hand_ended():  # play on to the end of the hand
            await client.act() if client.view["legal"] else await client.next()
        await client.ws.close()
        return client, before

    client, before = asyncio.run(play())
    # the bots play on meanwhile: the table's number first, then the log (maybe longer)
    seq = LiveTable.objects.get(pk=table.pk).seq
    log = list(LiveAction.objects.filter(table=table).order_by("seq")
               .values_list("seq", "action"))
    assert [seq for seq, _ in log] == list(range(1, len(log) + 1))  # no gap, no repeat
    assert seq <= len(log)
    # every action up to the end of the hand reached the client, the missed ones too
    end = next(seq for seq, event in client.events.items() if "hand_result" in event)
    assert sorted(client.events)[:end] == list(range(1, end + 1))
    assert all(client.events[seq]["action"] == action for seq, action in log[:end])
    assert 0 < before < end and client.events[before + 1]["seat"] != FIRST


def test_two_server_processes_serve_one_table(
        table: LiveTable, player: Any, env: dict[str, str],
        servers: list[AsgiServer]) -> None:
    """Two tabs of one seat, each on its own ASGI process (one uvicorn, one daphne): what
    one plays, the other sees (the notice crosses processes through Redis pub/sub)."""
    cookie = session_cookie(player)
    servers.extend([AsgiServer(env, server="uvicorn"), AsgiServer(env, server="daphne")])

    async def play() -> None:
        one, two = [await Client.join(server, table.pk, cookie, name)
                    for server, name in zip(servers, ("one", "two"), strict=True)]
        first = await one.act()
        await two.until(lambda: two.view["seq"] >= first)
        second = await two.act()
        assert (first, second) == (1, 2)
        await one.until(lambda: one.view["seq"] >= second)
        for client in (one, two):
            assert [client.events[s]["action"] for s in (first, second)] == [
                one.events[first]["action"], two.events[second]["action"]]
            await client.ws.close()

    asyncio.run(play())
    assert list(LiveAction.objects.filter(table=table).values_list("seq", flat=True)) == [1, 2]
    for server in servers:  # as in production: the database work in threads of its own
        environ = Path(f"/proc/{server.process.pid}/environ").read_bytes().split(b"\0")
        threads = [int(v.split(b"=")[1]) for v in environ if v.startswith(b"LIVE_DB_THREADS=")]
        assert threads and threads[0] > 0
