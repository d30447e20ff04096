"""The websocket protocol of a live table: join, act, refusals, resend, resume, two tabs,
spectators; on the in-memory layer and on Redis pub/sub."""

import threading
from typing import Any

import pytest
from asgiref.sync import async_to_sync

from games.engine import hand_size
from games.live import db_threads, kinds, service
from games.live.models import LiveAction, LiveTable

from .conftest import FIRST, SEED
from .sockets import TIMEOUT, joined, update_at

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("layer", "eager_tasks")]


@pytest.fixture
def table(player: Any) -> LiveTable:
    return service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)


def test_the_seat_holder_gets_its_seat_and_others_the_public_view(
        table: LiveTable, cookie: str) -> None:
    async def run() -> None:
        mine, snapshot = await joined(table.pk, cookie)
        other, public = await joined(table.pk)
        assert snapshot["view"]["seat"] == FIRST and len(snapshot["view"]["hand"]) == hand_size(1)
        assert f"{FIRST} take" in snapshot["view"]["legal"]
        assert public["view"]["seat"] is None and "hand" not in public["view"]
        await other.send_json_to({"type": "act", "action": f"{FIRST} take", "id": "x"})
        refused = await other.receive_json_from(timeout=TIMEOUT)
        assert refused["type"] == "error" and "seat" in refused["message"]
        await mine.disconnect()
        await other.disconnect()

    async_to_sync(run)()
    assert not LiveAction.objects.exists()


@pytest.mark.parametrize("table_id", [99999, 10**20])
def test_an_unknown_table_is_closed(table_id: int) -> None:
    """Also an id past the id column's range (the URL takes any digits)."""
    async def run() -> None:
        from .sockets import connect_to

        connected, code = await connect_to(table_id).connect(timeout=TIMEOUT)
        assert (connected, code) == (False, 4404)

    async_to_sync(run)()


def test_act_is_acknowledged_and_both_tabs_see_it(table: LiveTable, cookie: str) -> None:
    async def run() -> None:
        tab1, _ = await joined(table.pk, cookie)
        tab2, _ = await joined(table.pk, cookie)
        await tab1.send_json_to({"type": "act", "action": f"{FIRST} take", "id": "c1"})
        answer = await tab1.receive_json_from(timeout=TIMEOUT)
        assert (answer["type"], answer["ack"]) == ("update", {"id": "c1", "seq": 1})
        for update in (answer, await update_at(tab2, 1, [])):
            assert update["events"][0]["action"] == f"{FIRST} take"
            assert len(update["view"]["hand"]) == hand_size(1) + 1
        # the same action resent from the other tab counts once
        await tab2.send_json_to({"type": "act", "action": f"{FIRST} take", "id": "c1"})
        assert (await tab2.receive_json_from(timeout=TIMEOUT))["ack"] == {"id": "c1", "seq": 1}
        await tab1.disconnect()
        await tab2.disconnect()

    async_to_sync(run)()
    assert LiveAction.objects.count() == 1


@pytest.mark.parametrize(("message", "rule", "says"), [
    ({"type": "act", "action": f"{FIRST} discard 4C", "id": "c1"}, "R6.2", "draw"),
    ({"type": "act", "action": f"{(FIRST + 1) % 4} take", "id": "c1"}, "R6.1", "seat"),
    ({"type": "act", "action": "take everything", "id": "c1"}, "", "Malformed"),
    ({"type": "act", "action": f"{FIRST} take"}, "", "id"),
    ({"type": "shout"}, "", "Unknown message type"),
    ({"type": "resume", "since": 5}, "", "sequence number 5"),
    ([1, 2], "", "JSON object"),
])
def test_bad_messages_get_an_error_and_the_connection_stays(
        table: LiveTable, cookie: str, message: Any, rule: str, says: str) -> None:
    async def run() -> None:
        comm, _ = await joined(table.pk, cookie)
        await comm.send_json_to(message)
        error = await comm.receive_json_from(timeout=TIMEOUT)
        assert error["type"] == "error" and error["rule"] == rule and says in error["message"]
        await comm.send_to(text_data="{not json")
        assert (await comm.receive_json_from(timeout=TIMEOUT))["type"] == "error"
        # still connected and served
        await comm.send_json_to({"type": "resume", "since": 0})
        assert (await comm.receive_json_from(timeout=TIMEOUT))["view"]["seq"] == 0
        await comm.disconnect()

    async_to_sync(run)()
    assert not LiveAction.objects.exists()


def test_resume_returns_what_a_dropped_client_missed(table: LiveTable, cookie: str) -> None:
    service.table_act(table.pk, FIRST, f"{FIRST} take", "c1")
    discard = next(a for a in service.update_since(table.pk, FIRST, 0).view["legal"]
                   if " discard " in a)
    service.table_act(table.pk, FIRST, discard, "c2")

    async def run() -> None:
        comm, snapshot = await joined(table.pk, cookie)
        assert snapshot["view"]["seq"] >= 2 and snapshot["events"] == []
        await comm.send_json_to({"type": "resume", "since": 1})
        missed = await comm.receive_json_from(timeout=TIMEOUT)
        assert missed["events"][0] == {"seq": 2, "hand_no": 1, "seat": FIRST,
                                       "action": discard, "card": None, "move": {
                                           "do": "discard", "seat": FIRST, "text": discard,
                                           "card": discard.split()[-1]}}
        assert missed["view"]["seq"] == snapshot["view"]["seq"]
        await comm.disconnect()

    async_to_sync(run)()


def test_a_message_needing_no_database_does_not_wait_for_the_database_thread() -> None:
    """Channels 4.2+ runs a database clean-up in the process's one database thread before
    every message; our consumers leave that to their database calls, so while that thread
    is busy (held here until the echo has come back) a message needing no database is
    answered. Were the echo queued behind the thread, it would never come."""
    import asyncio
    import threading

    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from games.live.consumers import EchoConsumer

    async def run() -> None:
        release = threading.Event()
        holding = asyncio.ensure_future(
            sync_to_async(release.wait, thread_sensitive=True)(TIMEOUT))
        echo = WebsocketCommunicator(EchoConsumer.as_asgi(), "/ws/bench-echo/")
        try:
            connected, _ = await echo.connect(timeout=TIMEOUT)
            assert connected
            await echo.send_to(text_data="ping")
            assert await echo.receive_from(timeout=TIMEOUT) == "ping"
            assert not holding.done()  # the database thread was busy all along
        finally:
            release.set()
            await holding
            await echo.disconnect()

    async_to_sync(run)()


@pytest.mark.parametrize("threads", [0, 2])
def test_the_database_work_runs_in_the_pool_or_in_channels_thread(
        settings: Any, threads: int) -> None:
    """``LIVE_DB_THREADS`` threads of its own (production), or Channels' one thread, which
    is the test's (0, the in-process tests)."""
    settings.LIVE_DB_THREADS = threads
    name = async_to_sync(db_threads.call(lambda: threading.current_thread().name))()
    assert name.startswith("live-db_") == bool(threads)
    assert (name == threading.current_thread().name) == (not threads)


def private(table: LiveTable, user: Any) -> bool:
    """A watch policy that lets nobody watch (as a tournament's "nobody" does)."""
    return False


kinds.on_watch("test-private", private)


def test_a_watcher_the_tables_kind_refuses_is_closed_and_the_seat_holder_plays(
        player: Any, cookie: str) -> None:
    table = service.create_table(
        [service.SeatPlan(user=player) if seat == FIRST else service.SeatPlan(bot="greedy")
         for seat in range(4)], seed=SEED, reports_to="test-private")

    async def run() -> None:
        from .sockets import connect_to

        connected, code = await connect_to(table.pk).connect(timeout=TIMEOUT)
        assert (connected, code) == (False, 4403)
        mine, snapshot = await joined(table.pk, cookie)
        assert snapshot["view"]["seat"] == FIRST
        await mine.disconnect()

    async_to_sync(run)()
