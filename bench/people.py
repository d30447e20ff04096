"""The simulated people of ``several_hosts``: a round of tables, each with four people,
played to the end through the load balancer, then checked against the database.

Run on the people's host as ``python -m bench.people '<json>'`` (``Round``'s fields): it
opens the round's tables (four people each, a clock on every turn, the seat's stand-in
bot finishing a turn whose time ran out), connects every person at once, lets them all
play, and prints one JSON object a line: ``{"playing": t}`` when they begin (``t``:
``time.monotonic()``, the machine's clock every namespace shares), then ``{"figures":
...}`` (:class:`Figures`). Its database is ``DATABASE_URL``, the same the web hosts use.

Each person acts whenever its seat may, after thinking a moment (now and then longer
than the clock allows, so that the stand-in plays: the worker's timers), choosing a
contract, a meld or a push when it may (a game of about 450 actions, not 850 at random).
It times each action from sending it to the update carrying its number. When its
connection ends (its web host died) it connects again through the load balancer and
resends the action awaiting an answer under the same id: the server answers a resend with
its first outcome, so an action is applied once however often it was sent. When nothing
comes for a while it asks for what it missed (``resume``), as a page does: the channel
layer may drop a notice (a Redis restart).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

import websockets

#: Seconds without a message, while waiting, before a person asks for what it missed.
QUIET = 3.0
#: What a person prefers to play, first to last; otherwise any legal action.
PREFERRED = ("contract", "meld", "push")


@dataclass(frozen=True)
class Round:
    """What to play: ``tables`` tables of four people through ``url`` (the load balancer,
    ``ws://host:port``), ``move_seconds`` a turn; each person thinks ``think`` seconds
    (from, to) and, once in ``slow`` of its turns, past its clock; all give up after
    ``timeout`` seconds."""

    url: str
    tables: int = 64
    move_seconds: int = 8
    think: tuple[float, float] = (0.05, 0.25)
    slow: float = 0.003
    timeout: float = 600
    seed: int = 0


@dataclass
class Figures:
    """What the round did: each person's action as (sent, seconds to its update), sent
    on the machine's monotonic clock; and what the database says of it."""

    tables: int = 0
    people: int = 0
    actions: list[tuple[float, float]] = field(default_factory=list)
    reconnects: int = 0
    resent: int = 0
    # why actions were refused (a rule, or the message's start): how many
    refused: dict[str, int] = field(default_factory=dict)
    finished: int = 0  # tables whose game ended
    logged: int = 0  # actions in the tables' logs
    stand_ins: int = 0  # of them, a stand-in bot's (a clock ran out)
    stand_in_times: list[float] = field(default_factory=list)  # when each was logged
    lost: int = 0  # acknowledged to a person, yet not in the log at that number
    doubled: int = 0  # a person's action logged, or acknowledged, more than once
    unknown: int = 0  # logged at a person's seat under an id it never sent
    told_wrong: int = 0  # events a person was told that differ from the log
    gaps: int = 0  # tables whose log's numbers are not 1, 2, 3, ...


@dataclass
class Person:
    table: int
    seat: int
    session: str
    sent: dict[str, str] = field(default_factory=dict)  # id: action text
    acked: dict[str, int] = field(default_factory=dict)  # id: the number it was logged at
    told: dict[int, str] = field(default_factory=dict)  # seq: the action's text
    done: bool = False


def open_round(plan: Round) -> list[Person]:
    """The round's tables and people (users and sessions of a tag of their own), in the
    database; every turn on a clock of ``plan.move_seconds``."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games.live.service import SeatPlan, TablePlan, create_tables

    rng = random.Random(plan.seed)
    tag = f"hosts-{rng.getrandbits(32):08x}"
    users = [[get_user_model().objects.create_user(f"{tag}-{t}-{s}") for s in range(4)]
             for t in range(plan.tables)]
    tables = create_tables([
        TablePlan([SeatPlan(user=user) for user in seated], seed=rng.getrandbits(62),
                  move_seconds=plan.move_seconds, awaiting=True) for seated in users])
    people = []
    for table, seated in zip(tables, users, strict=True):
        for seat, user in enumerate(seated):
            client = Client()
            client.force_login(user)
            people.append(Person(table.pk, seat, client.cookies["sessionid"].value))
    return people


def choose(view: dict[str, Any], rng: random.Random) -> str:
    moves = view["moves"]
    for kind in PREFERRED:
        found = [str(m["text"]) for m in moves if m["do"] == kind]
        if found:
            return rng.choice(found)
    return str(rng.choice(view["legal"]))


async def _connect(url: str, person: Person) -> Any:
    return await websockets.connect(
        f"{url}/ws/tables/{person.table}/", open_timeout=30, ping_interval=None,
        max_size=None, additional_headers={"Origin": url.replace("ws://", "http://"),
                                           "Cookie": f"sessionid={person.session}"})


class Player:
    """One person's play over one connection after another."""

    def __init__(self, person: Person, plan: Round, figures: Figures, rng: random.Random,
                 start: asyncio.Event) -> None:
        self.person, self.plan, self.figures, self.rng = person, plan, figures, rng
        self.start = start
        self.view: dict[str, Any] = {}
        self.pending: tuple[str, str, float] | None = None  # id, action, first sent
        self.act_at: float | None = None
        self.count = 0

    async def play(self, ws: Any, deadline: float) -> None:
        await self.start.wait()
        while time.monotonic() < deadline:
            with contextlib.suppress(websockets.ConnectionClosed, OSError, TimeoutError):
                await self._session(ws, deadline)
            if self.person.done:
                break
            self.figures.reconnects += 1
            try:
                ws = await self._reconnect(deadline)
            except (OSError, TimeoutError, websockets.InvalidHandshake):
                return  # past the deadline: the check tells what is unfinished
        await ws.close()

    async def _reconnect(self, deadline: float) -> Any:
        delay = 0.2
        while True:
            try:
                return await _connect(self.plan.url, self.person)
            except (OSError, TimeoutError, websockets.InvalidHandshake):
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(delay)
                delay = min(2 * delay, 2.0)

    async def _session(self, ws: Any, deadline: float) -> None:
        if self.pending is not None:  # unanswered when the last connection ended
            self.figures.resent += 1
            await self._send(ws, self.pending[0], self.pending[1])
        quiet_since = time.monotonic()
        while not self.person.done:
            now = time.monotonic()
            if now >= deadline:
                return
            if self.pending is None and self.act_at is not None and now >= self.act_at:
                self.count += 1
                action_id = f"p{self.person.seat}-{self.count}"
                self.pending = (action_id, choose(self.view, self.rng), time.monotonic())
                self.act_at = None
                await self._send(ws, action_id, self.pending[1])
                continue
            wait = min(self.act_at or deadline, deadline, quiet_since + QUIET) - now
            try:
                raw = await asyncio.wait_for(ws.recv(), max(wait, 0.001))
            except TimeoutError:
                if time.monotonic() >= quiet_since + QUIET:
                    quiet_since = time.monotonic()
                    await ws.send(json.dumps({"type": "resume",
                                              "since": self.view.get("seq", 0)}))
                continue
            quiet_since = time.monotonic()
            self._read(json.loads(raw))

    async def _send(self, ws: Any, action_id: str, action: str) -> None:
        self.person.sent[action_id] = action
        await ws.send(json.dumps({"type": "act", "id": action_id, "action": action}))

    def _read(self, message: dict[str, Any]) -> None:
        ack = message.get("ack")
        if message["type"] == "error":
            if self.pending is not None and message.get("id") == self.pending[0]:
                why = message.get("rule") or message["message"][:60]
                self.figures.refused[why] = self.figures.refused.get(why, 0) + 1
                self.pending = None
        elif message["type"] == "update":
            for event in message["events"]:
                self.person.told[event["seq"]] = event["action"]
            if message["view"]["seq"] >= self.view.get("seq", -1):
                self.view = message["view"]
            if ack and self.person.acked.setdefault(ack["id"], ack["seq"]) != ack["seq"]:
                self.figures.doubled += 1  # answered with a second number: applied twice
            if ack and self.pending is not None and ack["id"] == self.pending[0]:
                self.figures.actions.append(
                    (self.pending[2], time.monotonic() - self.pending[2]))
                self.pending = None
            if self.view["status"] == "finished":
                self.person.done = True
        else:
            return
        if self.pending is None and self.view.get("legal"):
            if self.act_at is None:
                think = (self.plan.move_seconds + 1 if self.rng.random() < self.plan.slow
                         else self.rng.uniform(*self.plan.think))
                self.act_at = time.monotonic() + think
        elif not self.view.get("legal"):
            self.act_at = None  # not this seat's turn (any more: a stand-in played it)


async def play_round(plan: Round, people: list[Person], figures: Figures) -> None:
    """Connect everyone, then let them all begin in the same moment."""
    rng = random.Random(plan.seed + 1)
    sockets = await asyncio.gather(*(_connect(plan.url, p) for p in people))
    start = asyncio.Event()
    players = [Player(p, plan, figures, random.Random(rng.random()), start) for p in people]
    deadline = time.monotonic() + plan.timeout
    tasks = [asyncio.ensure_future(player.play(ws, deadline))
             for player, ws in zip(players, sockets, strict=True)]
    print(json.dumps({"playing": time.monotonic()}), flush=True)
    start.set()
    await asyncio.gather(*tasks)


def check(people: list[Person], figures: Figures) -> None:
    """Into ``figures``: what the tables' logs say of what the people sent and were told."""
    from games.live.models import LiveAction, LiveTable

    tables = sorted({p.table for p in people})
    figures.finished = LiveTable.objects.filter(
        pk__in=tables, status=LiveTable.Status.FINISHED).count()
    log: dict[tuple[int, int], tuple[int, str, str]] = {}
    ids: Counter[tuple[int, int, str]] = Counter()
    by_table: dict[int, list[int]] = {}
    monotonic = time.monotonic() - time.time()  # the database's clock is the machine's
    for table, seq, seat, client_id, action, created in LiveAction.objects.filter(
            table__in=tables).values_list("table", "seq", "seat", "client_id", "action",
                                          "created"):
        log[table, seq] = (seat, client_id, action)
        ids[table, seat, client_id] += 1
        by_table.setdefault(table, []).append(seq)
        if client_id.startswith("!stand-in"):
            figures.stand_ins += 1
            figures.stand_in_times.append(created.timestamp() + monotonic)
    figures.logged = len(log)
    figures.gaps = sum(sorted(seqs) != list(range(1, len(seqs) + 1))
                       for seqs in by_table.values())
    figures.doubled += sum(count - 1 for count in ids.values())
    for person in people:
        for action_id, seq in person.acked.items():
            found = log.get((person.table, seq))
            figures.lost += found is None or found[:2] != (person.seat, action_id)
        for (table, seat, client_id) in ids:
            if (table, seat) == (person.table, person.seat) and not client_id.startswith("!"):
                figures.unknown += client_id not in person.sent
        figures.told_wrong += sum(log.get((person.table, seq), (0, "", ""))[2] != action
                                  for seq, action in person.told.items())


def main(argv: list[str]) -> None:
    import django

    django.setup()
    raw = json.loads(argv[0])
    plan = Round(**{**raw, "think": tuple(raw.get("think", Round.think))})
    people = open_round(plan)
    figures = Figures(tables=plan.tables, people=len(people))
    asyncio.run(play_round(plan, people, figures))
    print(json.dumps({"ended": time.monotonic()}), flush=True)
    check(people, figures)
    print(json.dumps({"figures": asdict(figures)}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
