"""Who is at a live table, over the websocket: each seat's person shows connected, away
(their page's tab hidden) or gone (closed, or silent too long), with the lag their page
measured; a bad heartbeat gets an error naming its field and changes nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.utils import timezone

from games.live import presence
from games.live.models import LiveSeat, LiveTable

from .sockets import TIMEOUT, TableCommunicator, connect_to
from .test_chat import next_of

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("layer", "eager_tasks")]


async def watching(table_id: int, cookie: str | None) -> tuple[TableCommunicator, Any]:
    """A connection that hears the table's talk, and the seats as it was told of them on
    connecting."""
    comm = connect_to(table_id, cookie, hears=True)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    while True:
        message = await next_of(comm, "presence")
        if len(message["seats"]) > 1:  # the snapshot (a seat's own change names one)
            return comm, {s["seat"]: s for s in message["seats"]}


async def told(comm: TableCommunicator, seat: int, state: str) -> Any:
    """Read until the table tells ``comm`` that ``seat`` is in ``state``."""
    while True:
        for shown in (await next_of(comm, "presence"))["seats"]:
            if shown["seat"] == seat and shown["state"] == state:
                return shown


def test_a_seat_shows_connected_then_away_with_its_lag_then_gone(
        table_of_two: LiveTable, cookies: list[str]) -> None:
    async def run() -> None:
        ann, _ = await watching(table_of_two.pk, cookies[0])
        bea, seats = await watching(table_of_two.pk, cookies[1])
        assert seats[0]["state"] == "connected" and set(seats) == {0, 1}  # no bot's seat
        await ann.send_json_to({"type": "ping", "hidden": True, "lag": 42})
        assert (await next_of(ann, "pong"))["type"] == "pong"
        assert (await told(bea, 0, "away"))["lag"] == 42
        await ann.send_json_to({"type": "ping", "hidden": False, "lag": 57})
        assert (await told(bea, 0, "connected"))["lag"] == 57
        await ann.disconnect()
        await told(bea, 0, "gone")
        # a spectator arriving now is told so too
        cid, seats = await watching(table_of_two.pk, cookies[2])
        assert (seats[0]["state"], seats[1]["state"]) == ("gone", "connected")
        for comm in (bea, cid):
            await comm.disconnect()

    async_to_sync(run)()
    assert LiveSeat.objects.get(table=table_of_two, seat=0).lag_ms == 57


@pytest.mark.parametrize(("ping", "field"), [
    ({"type": "ping", "hidden": "yes"}, "hidden"),
    ({"type": "ping", "lag": -1}, "lag"),
    ({"type": "ping", "lag": 60_001}, "lag"),
    ({"type": "ping", "lag": 1.5}, "lag"),
])
def test_a_bad_heartbeat_gets_an_error_naming_its_field_and_changes_nothing(
        table_of_two: LiveTable, cookies: list[str], ping: dict[str, Any],
        field: str) -> None:
    async def run() -> None:
        ann, _ = await watching(table_of_two.pk, cookies[0])
        before = await _seat(table_of_two)
        await ann.send_json_to(ping)
        error = await next_of(ann, "pong")
        assert (error["type"], error["field"]) == ("error", field)
        assert await _seat(table_of_two) == before
        await ann.disconnect()

    async_to_sync(run)()


async def _seat(table: LiveTable) -> Any:
    return await sync_to_async(lambda: LiveSeat.objects.filter(table=table, seat=0).values(
        "seen", "tab", "lag_ms").get())()


def test_a_seat_silent_longer_than_connected_seconds_is_gone() -> None:
    now = timezone.now()
    quiet = now - timedelta(seconds=presence.CONNECTED_SECONDS + 1)
    assert presence.shown_as(LiveSeat.Tab.SHOWN, now, now) == "connected"
    assert presence.shown_as(LiveSeat.Tab.HIDDEN, now, now) == "away"
    assert presence.shown_as(LiveSeat.Tab.CLOSED, now, now) == "gone"
    assert presence.shown_as(LiveSeat.Tab.SHOWN, quiet, now) == "gone"
    assert presence.shown_as(LiveSeat.Tab.HIDDEN, None, now) == "gone"


def test_only_a_heartbeat_that_tells_something_new_is_told_to_the_table(
        table_of_two: LiveTable) -> None:
    """The table is told of an arrival, a tab hidden or shown and a lag that moved by more
    than ``LAG_STEP``; a heartbeat like the last is only stored (``seen``), once every
    ``WRITE_EVERY`` seconds."""
    def heard(**said: Any) -> Any:
        return presence.heard(table_of_two.pk, 0, **said)

    def seen() -> Any:
        return LiveSeat.objects.get(table=table_of_two, seat=0).seen

    assert heard(arriving=True) == presence.SeatPresence(0, "connected", None)
    assert heard(hidden=False, lag=40) == presence.SeatPresence(0, "connected", 40)
    before = seen()
    assert heard(hidden=False, lag=50) is None and seen() == before  # a moment ago
    LiveSeat.objects.filter(table=table_of_two, seat=0).update(
        seen=before - timedelta(seconds=presence.WRITE_EVERY + 1))
    assert heard(hidden=False, lag=55) is None and seen() > before  # stored, not told
    assert heard(hidden=True, lag=55) == presence.SeatPresence(0, "away", 55)
    assert heard(hidden=True, lag=200) == presence.SeatPresence(0, "away", 200)
    assert heard(leaving=True) == presence.SeatPresence(0, "gone", None)
    assert LiveSeat.objects.get(table=table_of_two, seat=0).lag_ms == 200
