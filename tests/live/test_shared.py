"""One read of a table for the connections asking at once (games/live/shared.py): each is
sent what a read of its own would have sent it, and none is served by a read that began
before it asked."""

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.db import connection

from games.live import service, shared, updates
from games.live.updates import Key

from .conftest import FIRST, SEED

VIEWERS = (0, 1, 2, 3, None)


def _four_people() -> Any:
    people = [get_user_model().objects.create_user(f"person-{seat}") for seat in range(4)]
    return service.create_table([service.SeatPlan(user=user) for user in people], seed=SEED,
                                move_seconds=None)


def _play(table_id: int, actions: int) -> None:
    """``actions`` actions, each the first legal one of the seat to move."""
    for _ in range(actions):
        seat = service.to_move(service._get(table_id))
        assert seat is not None
        legal = service.update_since(table_id, seat, 0).view["legal"]
        service.table_act(table_id, seat, legal[0], f"t-{service._get(table_id).seq}")


@pytest.mark.django_db
def test_each_of_several_keys_gets_what_it_would_alone() -> None:
    table = _four_people()
    _play(table.pk, 7)
    keys: list[Key] = [(seat, since) for seat in VIEWERS for since in (None, 0, 3, 6, 7)]
    together = updates.updates_since(table.pk, keys)
    for seat, since in keys:
        alone = service.update_since(table.pk, seat, 7 if since is None else since)
        found = together[seat, since]
        assert isinstance(found, updates.Update)
        # a new connection's (since None) is a full update: the hand so far besides
        full = {"log", "last_hand", "hand_pause"}
        assert (full <= set(found.view)) == (since is None)
        if since is None:
            assert found.view["log"] == service.update_since(table.pk, seat, 0).events
        assert {k: v for k, v in found.view.items() if k not in full} == alone.view
        assert found.events == ([] if since is None else alone.events)
    assert FIRST is not None and together[FIRST, 7].view["legal"] == []  # not its turn now
    late = updates.updates_since(table.pk, [(0, 99)])[0, 99]
    assert isinstance(late, service.TableError) and "99" in late.message


@pytest.mark.django_db(transaction=True)
def test_a_read_that_has_begun_takes_no_one_who_asks_after() -> None:
    """Two connections asking in the same moment share one read; one asking after that
    read began, and after an action committed meanwhile, gets a read of its own, which
    sees the action."""
    table = _four_people()
    reads: list[set[Key]] = []
    hold = threading.Event()

    def run(func: Callable[[Any], Any]) -> Callable[[Any], Awaitable[Any]]:
        def read_then_wait(batch: Any) -> Any:
            found = func(batch)
            reads.append(set(batch.keys))
            hold.wait(10)  # the read is done, the batch not yet: later askers come now
            return found
        return database_sync_to_async(read_then_wait)

    async def scenario() -> list[tuple[Any, str]]:
        both = asyncio.ensure_future(asyncio.gather(
            shared.update(run, table.pk, 0, None), shared.update(run, table.pk, None, None)))
        while not reads:
            await asyncio.sleep(0.01)
        await asyncio.to_thread(_play_once, table.pk)
        late = asyncio.ensure_future(shared.update(run, table.pk, 1, None))
        await asyncio.sleep(0.05)
        hold.set()
        found = [*await both, await late]
        await database_sync_to_async(_close)()  # the reads' thread's connection
        return found

    (first, first_text), (watcher, _), (late, late_text) = asyncio.run(scenario())
    assert reads == [{(0, None), (None, None)}, {(1, None)}]
    assert first.view["seq"] == watcher.view["seq"] == 0 and late.view["seq"] == 1
    assert first.view["seat"] == 0 and watcher.view["seat"] is None and "hand" not in watcher.view
    assert shared.frame({"type": "update", "events": [], "view": late.view}) == late_text
    assert '"seq":0' in first_text


def _close() -> None:
    connection.close()


def _play_once(table_id: int) -> None:
    try:
        _play(table_id, 1)
    finally:
        connection.close()
