"""Live tables across real processes: an ASGI server (uvicorn, the production one, and
daphne, ``make run``'s) killed mid-hand and started again, the client resuming from its
last sequence number; and two ASGI processes (one of each) serving one table through the
Redis pub/sub layer, to two tabs of one seat, and to four people playing a whole hand
together, two on each. The clients are real websockets (the
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
from django.contrib.auth import get_user_model
from django.db import connection

from config.asgi_process import AsgiServer
from config.worker_process import database_url, start_worker, wait_ready
from games.live import service
from games.live.models import LiveAction, LiveTable
from games.live.state import events_since, replay, seat_view
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
        wait_ready(log, started[-1])

    yield start
    for worker in started:
        worker.terminate()
        worker.wait(timeout=60)


@pytest.fixture
def table(player: Any, env: dict[str, str]) -> LiveTable:
    # the person's seat moves first, so nothing is sent to the bots before a worker is up
    return service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)


class Client:
    """One browser tab: a websocket, the latest view, every event received by number (an
    event received twice must be the same) and in the order they first came, and every
    update's view."""

    def __init__(self, ws: Any, name: str) -> None:
        self.ws, self.name = ws, name
        self.view: dict[str, Any] = {}
        self.events: dict[int, dict[str, Any]] = {}
        self.arrived: list[int] = []
        self.views: list[dict[str, Any]] = []
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
                if event["seq"] not in self.events:
                    self.arrived.append(event["seq"])
                assert self.events.setdefault(event["seq"], event) == event
            self.views.append(message["view"])
            if message["view"]["seq"] >= self.view.get("seq", -1):
                self.view = message["view"]
        return message

    async def until(self, done: Any) -> None:
        while not done():
            await self.next()

    async def act(self, choose: Callable[[list[str]], str] = lambda legal: legal[0]) -> int:
        """Wait for this seat's turn, play the legal action ``choose`` picks (the first by
        default); its sequence number, once the update carrying it has come."""
        await self.until(lambda: bool(self.view["legal"]))
        self.sent += 1
        await self.ws.send(json.dumps({"type": "act", "id": f"{self.name}-{self.sent}",
                                       "action": choose(self.view["legal"])}))
        while "ack" not in (message := await self.next()):
            pass
        seq: int = message["ack"]["seq"]
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


def _pushing(legal: list[str]) -> str:
    """Push whenever the seat may, else discard: nobody melds, so nobody goes out, and
    each push takes two stock cards, so the hand ends soon (R6.4) in about 80 actions."""
    return next((a for a in legal if a.endswith(" push")), None) or next(
        (a for a in legal if " discard " in a), legal[0])


def test_four_people_two_servers_play_a_hand(
        player: Any, env: dict[str, str], servers: list[AsgiServer]) -> None:
    """Four people at one table, seats 0 and 2 on a uvicorn process and 1 and 3 on a
    daphne one, play the whole first hand, each on its own turns: every action is logged
    once, in order; every client sees every event of the hand in order; and every view and
    event a client gets is exactly its own seat's (no other seat's hand, no stock card
    pushed to another, R6.3)."""
    people = [player, *(get_user_model().objects.create_user(f"person-{seat}")
                        for seat in range(1, 4))]
    # no clock, so no stand-in plays a turn: every action is a client's
    table = service.create_table([service.SeatPlan(user=user) for user in people], seed=SEED,
                                 move_seconds=None)
    cookies = [session_cookie(user) for user in people]
    servers.extend([AsgiServer(env, server="uvicorn"), AsgiServer(env, server="daphne")])

    async def play() -> list[Client]:
        clients = [await Client.join(servers[seat % 2], table.pk, cookies[seat], f"seat{seat}")
                   for seat in range(4)]

        async def hand(client: Client) -> None:
            while not client.hand_ended():
                await client.act(_pushing) if client.view["legal"] else await client.next()
            await client.ws.close()

        await asyncio.gather(*(hand(client) for client in clients))
        return clients

    clients = asyncio.run(play())
    log = list(LiveAction.objects.filter(table=table).order_by("seq")
               .values_list("seq", "seat", "action", "client_id"))
    end = LiveTable.objects.get(pk=table.pk).seq
    assert [seq for seq, *_ in log] == list(range(1, end + 1))  # once each, no gap
    assert sorted(client_id for *_, client_id in log) == sorted(
        f"seat{seat}-{n}" for seat, client in enumerate(clients)
        for n in range(1, client.sent + 1))
    assert all(client_id.startswith(f"seat{seat}-") for _, seat, _, client_id in log)
    actions = [action for _, _, action, _ in log]
    games = [replay(SEED, actions[:seq]) for seq in range(end + 1)]  # after each number
    assert games[end].game.results[0].ended_by == "stock"  # the hand played out (R6.4)
    for seat, client in enumerate(clients):
        assert client.arrived == list(range(1, end + 1)), client.name  # all, in order
        events = events_since(SEED, actions, 0, seat)[0]
        assert [client.events[seq] for seq in client.arrived] == events  # its own seat's
        assert "hand_result" in client.events[end] and client.view["hand_no"] == 2
        # the stock cards pushed to this seat, and no other's (R6.3)
        private = [event for event in events if "private" in event]
        assert private and all((event["seat"] + 1) % 4 == seat for event in private)
        for view in client.views:  # each its own seat's view at that number, no other's
            assert view["seat"] == seat
            # all but the table row's own fields (its number, status, clocks, message) and
            # a full update's hand so far (its log: the events checked above)
            shown = {k: v for k, v in view.items() if k not in (
                "table", "seq", "status", "deadline", "paused", "time_left", "turn_left",
                "reserve_left", "resigned", "rematch", "seats", "message", "log",
                "last_hand", "hand_pause")}
            assert shown == seat_view(games[view["seq"]], seat), (client.name, view["seq"])
