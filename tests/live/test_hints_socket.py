"""A hint over the table's websocket (``{"type": "hint", "id"}``), on the in-memory layer
and on Redis: answered ``hint`` to the asking seat's connection alone, refused with an
error frame to a spectator, off its turn and at a tournament's table; a bad frame gets the
usual error. The bot thinks off the event loop: the connection answers a ping meanwhile."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from asgiref.sync import async_to_sync

from games.live import hints, service
from games.live.models import LiveHint, LiveTable

from .conftest import FIRST, SEED
from .sockets import TIMEOUT, answer_of, joined

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("layer", "eager_tasks")]


@pytest.fixture
def table(player: Any) -> LiveTable:
    return service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)


def test_the_seat_gets_its_hint_and_nobody_else_hears_of_it(
        table: LiveTable, cookie: str) -> None:
    async def run() -> None:
        mine, snapshot = await joined(table.pk, cookie)
        watcher, _ = await joined(table.pk)
        await mine.send_json_to({"type": "hint", "id": "k1"})
        found = await answer_of(mine, "hint", "k1")
        assert found["type"] == "hint", found
        assert found["move"] in snapshot["view"]["moves"]
        assert found["seq"] == snapshot["view"]["seq"] and found["seat"] == FIRST
        assert snapshot["view"]["discard_top"] in found["reason"]
        assert await watcher.receive_nothing(0.3)  # a spectator is told nothing
        await mine.disconnect()
        await watcher.disconnect()

    async_to_sync(run)()
    assert LiveHint.objects.filter(table=table, seat=FIRST, seq=1).count() == 1


def test_the_table_answers_others_while_the_bot_thinks(
        table: LiveTable, cookie: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # the bot's thinking held until the watcher has its answer: were it in the event loop,
    # the watcher's pong could never come
    thinking, go_on = threading.Event(), threading.Event()
    think = hints.think

    def held(asked: hints.Asked) -> Any:
        thinking.set()
        assert go_on.wait(TIMEOUT)
        return think(asked)

    monkeypatch.setattr(hints, "think", held)

    async def run() -> None:
        mine, _ = await joined(table.pk, cookie)
        watcher, _ = await joined(table.pk)
        await mine.send_json_to({"type": "hint", "id": "k1"})
        assert await asyncio.to_thread(thinking.wait, TIMEOUT)
        await watcher.send_json_to({"type": "ping"})
        assert (await watcher.receive_json_from(timeout=TIMEOUT))["type"] == "pong"
        assert await mine.receive_nothing(0.1)  # no hint yet: it is still held
        go_on.set()
        assert (await answer_of(mine, "hint", "k1"))["type"] == "hint"
        await asyncio.gather(watcher.disconnect(), mine.disconnect())

    try:
        async_to_sync(run)()
    finally:
        go_on.set()


@pytest.mark.parametrize(("message", "field", "says"), [
    ({"type": "hint"}, "id", "needs the field \"id\""),
    ({"type": "hint", "id": "k1", "move": 1}, None, "has no field \"move\""),
    ({"type": "hint", "id": 5}, "id", "must be a string"),
])
def test_a_bad_hint_frame_gets_an_error_and_stores_nothing(
        table: LiveTable, cookie: str, message: Any, field: str | None, says: str) -> None:
    async def run() -> None:
        mine, _ = await joined(table.pk, cookie)
        await mine.send_json_to(message)
        error = await mine.receive_json_from(timeout=TIMEOUT)
        assert error["type"] == "error" and error["field"] == field, error
        assert says in error["message"], error
        await mine.disconnect()

    async_to_sync(run)()
    assert not LiveHint.objects.exists()


def test_a_spectator_and_a_seat_off_its_turn_are_refused(
        player: Any, people: list[Any], cookies: list[str], cookie: str) -> None:
    # four people, no bot: the turn stays where the deal put it
    table = service.create_table([service.SeatPlan(user=person)
                                  for person in (player, *people)], seed=SEED)
    waiting = (FIRST + 1) % 4
    cookie_of = [cookie, *cookies]

    async def run() -> None:
        watcher, _ = await joined(table.pk)
        await watcher.send_json_to({"type": "hint", "id": "k1"})
        error = await answer_of(watcher, "hint", "k1")
        assert error["type"] == "error" and "You do not hold a seat" in error["message"]
        other, _ = await joined(table.pk, cookie_of[waiting])
        await other.send_json_to({"type": "hint", "id": "k2"})
        error = await answer_of(other, "hint", "k2")
        assert error["type"] == "error" and error["rule"] == "R6.1", error
        assert "It is not your turn" in error["message"]
        await asyncio.gather(watcher.disconnect(), other.disconnect())

    async_to_sync(run)()
    assert not LiveHint.objects.exists()


def test_a_tournament_table_refuses_hints(player: Any, cookie: str) -> None:
    table = service.create_table([service.SeatPlan(user=player)]
                                 + [service.SeatPlan(bot="greedy")] * 3,
                                 reports_to="match", result_ref="1", seed=SEED)

    async def run() -> None:
        mine, _ = await joined(table.pk, cookie)
        await mine.send_json_to({"type": "hint", "id": "k1"})
        error = await answer_of(mine, "hint", "k1")
        assert error["type"] == "error", error
        assert "only at practice and friends' tables" in error["message"]
        await mine.disconnect()

    async_to_sync(run)()
    assert not LiveHint.objects.exists()
