"""Live table speed for ``manage.py bench_tables`` (a benchmark, not a test).

N practice tables play at once on a real ASGI server process (uvicorn, as in production,
or daphne; started here on a free port) with the Redis pub/sub channel layer, PostgreSQL
and greedy bots run by real Celery worker processes (at a lower CPU priority, as the
manual advises where they share a machine with the server). Each table seats one to four
simulated people (the seat that moves first always one of them, bots in the rest), each
over a websocket of its own and beginning at a random moment in the first seconds of the
run (the ramp, as people arrive): when its seat may act it thinks a random 0.5 to 1.5 s,
then sends one of the view's legal actions; the time from sending it to receiving the
``update`` that carries its sequence number (after its ``ack``) is measured. Beside each
table a bare websocket echo on the same server (``LIVE_BENCH_ECHO``) is timed under the
same load, so the game's own cost shows apart from the transport's. Everything the bench
creates (users, sessions, tables, its Celery queue, its channel prefix) is named after
one run tag and removed afterwards.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import random
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import redis
import websockets
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client

from config.asgi_process import AsgiServer
from config.worker_process import (
    database_url,
    lower_priority,
    sending_to,
    start_worker,
    wait_ready,
)
from games.live import service
from games.live.models import LiveAction, LiveTable
from games.live.state import replay

ORIGIN = "http://127.0.0.1"


def missing_services() -> str | None:
    """What the bench needs and lacks (``None``: all there)."""
    if connection.vendor != "postgresql":
        return (f"the database is {connection.vendor}; bench_tables needs PostgreSQL "
                f"(set DATABASE_URL=postgres://...)")
    if not settings.CELERY_BROKER_URL.startswith("redis"):
        return ("no Celery broker is configured; bench_tables runs the bots in real "
                "Celery workers (set CELERY_BROKER_URL=redis://...)")
    if settings.CHANNEL_LAYERS["default"]["BACKEND"] == "channels.layers.InMemoryChannelLayer":
        return "the channel layer is not Redis (set CHANNEL_REDIS_URL or the broker)"
    for url in channel_redis_urls():
        try:
            redis.Redis.from_url(url, socket_connect_timeout=2).ping()
        except redis.RedisError as exc:
            return f"Redis does not answer at {url}: {exc}"
    return None


def channel_redis_urls() -> list[str]:
    """The channel layer's Redis servers, in the settings' order (its shards)."""
    return [str(url) for url in settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]]


def p(values: list[float], share: float) -> float:
    """The ``share`` quantile (nearest rank) of ``values``, in milliseconds."""
    ordered = sorted(values)
    return 1000 * ordered[max(0, math.ceil(share * len(ordered)) - 1)] if ordered else math.nan


@dataclass(frozen=True)
class Person:
    """A simulated person: the table, the seat and the session (its cookie's value)."""

    table: int
    seat: int
    session: str


@dataclass
class Figures:
    tables: int
    clients: int  # simulated people, each over a websocket of its own
    latencies: list[float] = field(default_factory=list)  # seconds, one per human action
    sent: list[float] = field(default_factory=list)  # when each was sent (perf_counter)
    began: float = 0.0  # when the clients began to play (perf_counter)
    echoes: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    # the people's chat (``--chat-per-minute``): each line's round trip to its answer, and
    # the lines the others' pages were given; the refusals
    chats: list[float] = field(default_factory=list)
    chats_heard: int = 0
    chat_errors: list[str] = field(default_factory=list)
    pings: int = 0  # heartbeats sent (``--heartbeat``)
    finished: set[int] = field(default_factory=set)  # tables whose game ended meanwhile
    played: int = 0  # actions while the clients played, bots' included
    # CPU seconds meanwhile (None where /proc does not say): the server, the bots' workers,
    # this process's simulated clients, and the whole machine (all cores, everything)
    server_cpu: float | None = None
    workers_cpu: float | None = None
    clients_cpu: float | None = None
    machine_cpu: float | None = None
    wall: float = 0.0  # seconds they played
    # the actions logged, by who sent them (``_sender``), at the people's seats and the bots'
    at_people: Counter[str] = field(default_factory=Counter)
    at_bots: Counter[str] = field(default_factory=Counter)
    people_acted: int = 0  # of the people, how many sent an action that was logged
    # CPU seconds meanwhile of the other processes a ``watch`` samples, by kind (its keys)
    kinds: dict[str, float | None] = field(default_factory=dict)

    def line(self) -> str:
        return (f"tables {self.tables}, clients {self.clients}, "
                f"human actions {len(self.latencies)}, "
                f"p50 {p(self.latencies, 0.5):.1f} ms, p95 {p(self.latencies, 0.95):.1f} ms")

    def logged_line(self) -> str:
        """Who played at whose seats: a bot at a person's seat, or a client at a bot's, is
        the bench seating them wrong; a stand-in at a person's seat, a person's time run
        out."""
        def senders(counts: Counter[str]) -> str:
            return ", ".join(f"{counts[who]} by {who}" for who in sorted(counts)) or "none"

        return (f"actions logged at the people's seats: {senders(self.at_people)} "
                f"({self.people_acted} of {self.clients} people acted); "
                f"at the bots' seats: {senders(self.at_bots)}")

    def cpu_line(self) -> str:
        if self.server_cpu is None or not self.played:
            return "the server's CPU time: not known here (no /proc)"
        per_action = 1000 * self.server_cpu / self.played
        return (f"the server's CPU while they played: {self.server_cpu:.1f} s for "
                f"{self.played} actions (bots' included), {per_action:.2f} ms an action, "
                f"so about {1000 / per_action:.0f} actions/s on a core of its own")

    def machine_line(self) -> str:
        """Where the machine's CPU went meanwhile, in cores busy on average."""
        shares = {"server": self.server_cpu, "bot workers": self.workers_cpu,
                  "simulated clients": self.clients_cpu, "whole machine": self.machine_cpu}
        if None in shares.values() or not self.wall:
            return "cores busy: not known here (no /proc)"
        parts = [f"{name} {seconds / self.wall:.2f}" for name, seconds in shares.items()
                 if seconds is not None]
        return (f"cores busy on average over {self.wall:.0f} s: " + ", ".join(parts)
                + f" (of {os.cpu_count()})")

    def windows_line(self, width: float = 10) -> str:
        """The p95 of the actions sent in each ``width`` seconds of the run, in order: whether
        the slow ones came together (the start, when every table begins at once) or not."""
        windows: dict[int, list[float]] = {}
        for sent, latency in zip(self.sent, self.latencies, strict=True):
            windows.setdefault(int((sent - self.began) // width), []).append(latency)
        return (f"p95 in each {width:g} s of the run: "
                + ", ".join(f"{p(windows[w], 0.95):.0f}" for w in sorted(windows)) + " ms")

    def talk_line(self) -> str:
        """The chat and the heartbeats beside the game, when the people sent any."""
        if not self.chats and not self.pings and not self.chat_errors:
            return "no chat, no heartbeats"
        return (f"chat: {len(self.chats)} lines said, p50 {p(self.chats, 0.5):.1f} ms, "
                f"p95 {p(self.chats, 0.95):.1f} ms to the sender's answer, "
                f"{self.chats_heard} delivered to the others, "
                f"{len(self.chat_errors)} refused; heartbeats sent: {self.pings}")

    def echo_line(self) -> str:
        echo = p(self.echoes, 0.95)
        return (f"bare websocket echo on the same server under the same load: "
                f"{len(self.echoes)} echoes, p95 {echo:.1f} ms; "
                f"table p95 / echo p95 {p(self.latencies, 0.95) / echo:.1f}")


def run(tables: int, seconds: float, *, workers: int, bot_pause: float, seed: int | None,
        servers: int, asgi: str, ramp: float, worker_nice: int, humans: int = 1,
        talk: Talk | None = None, watch: Watch | None = None) -> Figures:
    """Play ``tables`` tables of ``humans`` people each for ``seconds`` and measure;
    everything created is removed. Each person begins at a random moment in the first
    ``ramp`` seconds (0: all at once), and chats and sends heartbeats as ``talk`` says
    (None: neither); the bots' workers run ``worker_nice`` below the
    server's CPU priority (they also run the people's turn timers, so they start even
    where no bot plays). The defaults are ``bench_tables``'s, the one caller. ``watch``
    (``bench.capacity``) is told when the play begins and ends."""
    tag = uuid.uuid4().hex[:8]
    queue = prefix = f"push-bench-{tag}"
    env = {"DATABASE_URL": database_url(connection.settings_dict),
           "CELERY_BROKER_URL": settings.CELERY_BROKER_URL, "CELERY_QUEUE": queue,
           "CHANNEL_REDIS_URL": ",".join(channel_redis_urls()), "CHANNEL_PREFIX": prefix,
           "LIVE_BOT_PAUSE_SECONDS": str(bot_pause), "LIVE_BENCH_ECHO": "true"}
    rng = random.Random(seed)
    created: list[int] = []
    sessions: list[str] = []
    try:
        with _workers(workers, queue, env, worker_nice) as bots, sending_to(queue):
            started: list[AsgiServer] = []
            try:
                started.extend(AsgiServer(env, server=asgi) for _ in range(servers))
                people = _tables(tag, tables, humans, rng, created, sessions)
                figures = Figures(tables, len(people))
                asyncio.run(_drive(started, bots, people, seconds, ramp, rng, figures,
                                   lambda: _actions(created), talk or Talk(), watch))
            finally:
                for one in started:
                    one.stop()
        _count_logged(people, created, figures)
        return figures
    finally:
        _clean(tag, created, sessions, queue)


def _tables(tag: str, count: int, humans: int, rng: random.Random, created: list[int],
            sessions: list[str]) -> list[Person]:
    """``count`` tables (their ids into ``created``) as practice tables are, each seating
    ``humans`` bench users of its own, logged in (the session keys into ``sessions``), and
    greedy bots: the seat that moves first and others drawn at random are the people's, so
    every table waits for a person's first action (with ``--ramp 0``, all in one moment,
    as at a round's start); the people, table by table."""
    people = []
    for index in range(count):
        seed = rng.getrandbits(62)
        first = replay(seed, []).game.to_move
        assert first is not None  # a new game's first hand is on
        seats = {first, *rng.sample([s for s in range(4) if s != first], humans - 1)}
        users = {seat: get_user_model().objects.create_user(f"bench-{tag}-{index}-{seat}")
                 for seat in sorted(seats)}
        table = service.create_table(
            [service.SeatPlan(user=users[s]) if s in users else service.SeatPlan(bot="greedy")
             for s in range(4)], seed=seed).pk
        created.append(table)
        for seat, user in users.items():
            client = Client()
            client.force_login(user)
            sessions.append(client.cookies["sessionid"].value)
            people.append(Person(table, seat, sessions[-1]))
    return people


def _actions(tables: list[int]) -> int:
    return sum(LiveTable.objects.filter(pk__in=tables).values_list("seq", flat=True))


def _sender(client_id: str) -> str:
    """Who sent a logged action, from its id: ``stand-ins`` or ``bots`` (the server's own
    ids, ``ids.server_id``), else ``clients``."""
    if client_id.startswith("!stand-in-"):
        return "stand-ins"
    return "bots" if client_id.startswith("!") else "clients"


def _count_logged(people: list[Person], tables: list[int], figures: Figures) -> None:
    """Into ``figures``: the actions logged at ``tables``, by sender, at the people's
    seats and the bots', and how many people acted."""
    seats = {(person.table, person.seat) for person in people}
    acted = set()
    for table, seat, client_id in LiveAction.objects.filter(table__in=tables).values_list(
            "table", "seat", "client_id"):
        by = _sender(client_id)
        (figures.at_people if (table, seat) in seats else figures.at_bots)[by] += 1
        if by == "clients" and (table, seat) in seats:
            acted.add((table, seat))
    figures.people_acted = len(acted)


def _clean(tag: str, created: list[int], sessions: list[str], queue: str) -> None:
    LiveTable.objects.filter(pk__in=created).delete()
    Session.objects.filter(pk__in=sessions).delete()
    get_user_model().objects.filter(username__startswith=f"bench-{tag}-").delete()
    redis.Redis.from_url(settings.CELERY_BROKER_URL).delete(queue)


@contextmanager
def _workers(count: int, queue: str, env: dict[str, str], nice: int) -> Iterator[list[int]]:
    """``count`` Celery worker processes on ``queue`` (``nice``), started and ready; their
    pids."""
    broker = settings.CELERY_BROKER_URL
    with tempfile.TemporaryDirectory() as folder:
        logs = [Path(folder) / f"worker{i}.log" for i in range(count)]
        processes = [start_worker(queue=queue, database=env["DATABASE_URL"], broker=broker,
                                  backend="", log=log, env=env) for log in logs]
        try:
            # started at our priority and lowered once ready: niced from the start, a
            # worker on a busy machine took minutes over its imports
            for log, process in zip(logs, processes, strict=True):
                wait_ready(log, process)
            for process in processes:
                lower_priority(process.pid, nice)
            yield [process.pid for process in processes]
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                process.wait(timeout=60)


async def _drive(servers: list[AsgiServer], bots: list[int], people: list[Person],
                 seconds: float, ramp: float, rng: random.Random, figures: Figures,
                 actions: Callable[[], int], talk: Talk, watch: Watch | None = None) -> None:
    """Connect every client first (table by table to the servers in turn, all of a table's
    people to the same one, and each table's echo beside them), then let them all play for
    ``seconds``, each person from a random moment in the first ``ramp`` seconds; the
    actions and the CPU time meanwhile (of the servers, the ``bots`` workers, the clients
    here and the machine)."""
    tables = list(dict.fromkeys(person.table for person in people))
    places = {table: servers[index % len(servers)] for index, table in enumerate(tables)}
    humans = [await _connect(places[person.table].url(f"/ws/tables/{person.table}/"),
                             person.session) for person in people]
    echoes = [await _connect(places[table].url("/ws/bench-echo/"), None) for table in tables]
    pids = [server.process.pid for server in servers]
    try:
        if watch:  # before the play's clock starts (a watch may wait for a process to
            # start), in a thread: the connections answer the servers' pings meanwhile
            await asyncio.to_thread(watch.begin, servers, bots)
        deadline = time.monotonic() + seconds
        figures.began = time.perf_counter()
        count = sync_to_async(_closing(actions), thread_sensitive=True)
        start = await count()
        before = _cpu(pids, bots)
        await asyncio.gather(
            *(_human(ws, person.table, time.monotonic() + rng.uniform(0, ramp), deadline,
                     random.Random(rng.random()), figures, talk)
              for ws, person in zip(humans, people, strict=True)),
            *(_echo(ws, deadline, random.Random(rng.random()), figures) for ws in echoes))
        after = _cpu(pids, bots)
        figures.kinds = watch.end() if watch else {}
        figures.played = await count() - start
        (figures.server_cpu, figures.workers_cpu, figures.clients_cpu, figures.machine_cpu,
         wall) = (None if b is None or a is None else a - b
                  for b, a in zip(before, after, strict=True))
        assert wall is not None  # the clock always answers, unlike /proc
        figures.wall = wall
    finally:
        for ws in humans + echoes:
            await ws.close()


class Watch(Protocol):
    """What else a run watches while the people play (``bench.capacity``): ``begin`` as
    they start, given the servers and the bots' workers' pids; ``end`` as they stop,
    answering CPU seconds meanwhile by kind of process."""

    def begin(self, servers: list[AsgiServer], bots: list[int]) -> None: ...

    def end(self) -> dict[str, float | None]: ...


def _cpu(servers: list[int], bots: list[int]) -> tuple[float | None, ...]:
    """CPU seconds so far of the servers together, the bots' workers together, this
    process and the machine (all its cores), and the wall clock; ``None`` for what /proc
    does not say."""
    return (_together(servers), _together(bots), time.process_time(), _machine_seconds(),
            time.monotonic())


def _together(pids: list[int]) -> float | None:
    seconds = [cpu_seconds(pid) for pid in pids]
    return None if None in seconds else sum(filter(None, seconds))


def cpu_seconds(pid: int) -> float | None:
    """The CPU time process ``pid`` has used so far (``None`` where /proc does not say)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _machine_seconds() -> float | None:
    """The CPU time all the machine's cores have been busy so far (not idle, not waiting)."""
    try:
        with open("/proc/stat") as stat:
            fields = [int(f) for f in stat.readline().split()[1:]]
    except OSError:
        return None
    idle, iowait = fields[3], fields[4]
    return (sum(fields[:8]) - idle - iowait) / os.sysconf("SC_CLK_TCK")


def _closing(read: Callable[[], int]) -> Callable[[], int]:
    """``read`` in a worker thread, closing that thread's database connection after."""
    def closing() -> int:
        try:
            return read()
        finally:
            connection.close()
    return closing


async def _connect(url: str, cookie: str | None) -> Any:
    headers = {"Origin": ORIGIN}
    if cookie:
        headers["Cookie"] = f"sessionid={cookie}"
    return await websockets.connect(url, additional_headers=headers, max_size=None,
                                    ping_interval=None, open_timeout=60)


def _think(rng: random.Random) -> float:
    return rng.uniform(0.5, 1.5)


@dataclass(frozen=True)
class Talk:
    """What each person says besides their moves: ``chat_per_minute`` chat lines a minute
    (at random moments, on average), and a heartbeat every ``heartbeat`` seconds as the
    table's page sends it (with its tab shown and its last round trip); 0: none."""

    chat_per_minute: float = 0
    heartbeat: float = 0

    def first(self, rng: random.Random, begin: float) -> tuple[float, float]:
        """When a person beginning at ``begin`` first chats and first sends a heartbeat."""
        return (begin + self.chat_gap(rng), begin + rng.uniform(0, self.heartbeat)
                if self.heartbeat else math.inf)

    def chat_gap(self, rng: random.Random) -> float:
        return rng.expovariate(self.chat_per_minute / 60) if self.chat_per_minute else math.inf


async def _talk(ws: Any, talk: Talk, rng: random.Random, figures: Figures,
                timers: dict[str, float], said: dict[str, float], now: float) -> None:
    """Send what is due of ``timers`` (``chat``, ``ping``: monotonic times) and set the
    next: a chat line (its id and sending time into ``said``), a heartbeat."""
    if now >= timers["chat"]:
        client_id = f"m-{len(said) + len(figures.chats)}-{rng.getrandbits(32)}"
        said[client_id] = time.perf_counter()
        await ws.send(json.dumps({"type": "chat", "id": client_id,
                                  "text": "good luck, partner " * rng.randint(1, 3)}))
        timers["chat"] = now + talk.chat_gap(rng)
    if now >= timers["ping"]:
        figures.pings += 1
        timers["ping"] = now + talk.heartbeat
        await ws.send(json.dumps({"type": "ping", "hidden": False, "lag": 20}))


def _heard(message: dict[str, Any], said: dict[str, float], figures: Figures) -> bool:
    """Whether ``message`` was the table's talk (a chat line, a refusal of one, who is
    here, a heartbeat's answer), counted into ``figures``."""
    kind, client_id = message["type"], message.get("id")
    if kind == "chat" and client_id in said:
        figures.chats.append(time.perf_counter() - said.pop(client_id))
    elif kind == "chat":
        figures.chats_heard += len(message["lines"]) if client_id is None and not message.get(
            "all") else 0
    elif kind == "error" and client_id in said:
        said.pop(client_id)
        figures.chat_errors.append(message["message"])
    return kind in ("chat", "presence", "pong") or (kind == "error" and client_id in said)


async def _human(ws: Any, table: int, begin: float, deadline: float, rng: random.Random,
                 figures: Figures, talk: Talk) -> None:
    """One person at ``table``: from ``begin`` on (a monotonic time), act after thinking
    whenever its seat may; time each act from sending it to the update that carries its
    sequence number. Chat and heartbeats as ``talk`` says, each line timed to its answer."""
    view: dict[str, Any] = {}
    act_at: float | None = None
    sent: tuple[str, float] | None = None  # the action id awaiting its update, and when
    acked: int | None = None
    count = 0
    timers = dict(zip(("chat", "ping"), talk.first(rng, begin), strict=True))
    said: dict[str, float] = {}
    while True:
        now = time.monotonic()
        if now >= deadline:
            return
        await _talk(ws, talk, rng, figures, timers, said, now)
        if sent is None and act_at is not None and now >= act_at:
            count += 1
            sent, acked, act_at = (f"b-{count}", time.perf_counter()), None, None
            await ws.send(json.dumps({"type": "act", "id": sent[0],
                                      "action": rng.choice(view["legal"])}))
            continue
        try:
            raw = await asyncio.wait_for(ws.recv(), min(act_at or deadline, deadline,
                                                        *timers.values()) - now)
        except TimeoutError:
            continue
        message = json.loads(raw)
        if _heard(message, said, figures):
            continue
        if message.get("ack") and sent and message["ack"]["id"] == sent[0]:
            acked = message["ack"]["seq"]
        if message["type"] == "error":
            figures.errors.append(f"{message.get('rule')}: {message.get('message')}")
            sent = None
        elif message["type"] == "update":
            view = message["view"]
            if sent is not None and acked is not None and view["seq"] >= acked:
                figures.latencies.append(time.perf_counter() - sent[1])
                figures.sent.append(sent[1])
                sent = None
            if view["status"] == LiveTable.Status.FINISHED:
                figures.finished.add(table)
                return
        if sent is None:
            act_at = ((act_at or max(time.monotonic(), begin) + _think(rng))
                      if view.get("legal") else None)


async def _echo(ws: Any, deadline: float, rng: random.Random, figures: Figures) -> None:
    """A bare echo once about every second: its round trip."""
    while time.monotonic() + 1.5 < deadline:
        await asyncio.sleep(_think(rng))
        start = time.perf_counter()
        await ws.send("echo")
        await ws.recv()
        figures.echoes.append(time.perf_counter() - start)
