"""The director at a live table: pause and resume (the clocks stop), pin a person's
substitute and give the seat back, add time, message the tables; and the table's
connections told of each at once. Every refusal says why and changes nothing."""

from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.utils import timezone

from games.live import director, presence, service
from games.live.models import LiveAction, LiveTable
from games.live.seating import load
from games.live.tasks import live_turn_timeout

from .conftest import FIRST, SEED, run_out
from .sockets import TIMEOUT, joined, send_frame

pytestmark = pytest.mark.django_db

TURN, RESERVE = 60, 120


@pytest.fixture
def table(player: Any) -> LiveTable:
    return service.create_table(
        [service.SeatPlan(user=player) if s == FIRST else service.SeatPlan(bot="greedy")
         for s in range(4)], seed=SEED, move_seconds=TURN, reserve_seconds=RESERVE,
        grace_seconds=90)


def _row(table: LiveTable) -> LiveTable:
    return LiveTable.objects.get(pk=table.pk)


def _view(table: LiveTable, seat: int | None = FIRST) -> dict[str, Any]:
    return service.update_since(table.pk, seat, 0).view


def test_a_paused_table_takes_no_action_and_its_clock_stands(table: LiveTable) -> None:
    assert director.pause(table.pk) is True and director.pause(table.pk) is False
    view = _view(table)
    assert view["paused"] is True and view["time_left"] is not None
    with pytest.raises(service.TableError, match="paused"):
        service.table_act(table.pk, FIRST, f"{FIRST} take", "c1")
    deadline = run_out(table)  # the deadline passes while paused: no stand-in
    assert live_turn_timeout(table.pk, deadline) == 0
    assert not LiveAction.objects.filter(table=table).exists()


def test_resuming_gives_the_turn_the_time_it_had(table: LiveTable) -> None:
    before = _row(table).deadline
    assert before is not None
    director.pause(table.pk)
    LiveTable.objects.filter(pk=table.pk).update(  # paused for ten minutes
        paused_at=timezone.now() - timedelta(minutes=10))
    assert director.resume(table.pk) is True and director.resume(table.pk) is False
    after = _row(table).deadline
    assert after is not None and abs((after - before).total_seconds() - 600) < 5
    assert service.table_act(table.pk, FIRST, f"{FIRST} take", "c1") == 1


def test_a_paused_table_moves_no_bot(player: Any) -> None:
    table = service.create_table(
        [service.SeatPlan(user=player) if s == (FIRST + 1) % 4 else service.SeatPlan(bot="greedy")
         for s in range(4)], seed=SEED)
    director.pause(table.pk)
    assert service.bot_move(table.pk, 0) is None
    director.resume(table.pk)
    assert service.bot_move(table.pk, 0) == 1


def test_a_pinned_substitute_keeps_the_seat_until_given_back(table: LiveTable) -> None:
    assert _view(table)["legal"]  # the person's turn
    assert director.pin(table.pk, FIRST) is True
    row = _row(table)
    assert load(row.seating)[FIRST].pinned and row.deadline is None  # the bot's turn now
    assert _view(table)["legal"] == []  # nothing the seat may do: its bot plays
    presence.heard(table.pk, FIRST, arriving=True)  # the person comes: not back
    assert load(_row(table).seating)[FIRST].pinned
    with pytest.raises(service.TableError, match="seated a bot in your seat"):
        service.table_act(table.pk, FIRST, f"{FIRST} take", "c1")  # before the bot moves
    assert not LiveAction.objects.filter(table=table).exists()
    assert service.bot_move(table.pk, 0) == 1
    assert LiveAction.objects.get(table=table, seq=1).client_id == "!substitute-0"
    assert director.give_back(table.pk, FIRST) is True
    row = _row(table)
    assert not load(row.seating)[FIRST].away and row.deadline is not None
    assert service.bot_move(table.pk, 1) is None  # the person's seat again


def test_added_time_goes_to_the_reserve_and_the_turn_in_play(table: LiveTable) -> None:
    before = _row(table).deadline
    assert before is not None
    assert director.add_time(table.pk, FIRST, 30) is True
    row = _row(table)
    assert row.deadline == before + timedelta(seconds=30)
    assert load(row.seating)[FIRST].reserve == RESERVE + 30


def test_a_message_reaches_every_table_in_play(table: LiveTable, player: Any) -> None:
    other = service.create_practice_table(player, "greedy", seed=SEED)
    assert director.send_message([table.pk, other.pk], "  Round ends at 21:00.  ") == 2
    assert _view(table)["message"] == "Round ends at 21:00."
    assert _view(other, None)["message"] == "Round ends at 21:00."


@pytest.mark.parametrize(("do", "says"), [
    (lambda t: director.pin(t, (FIRST + 1) % 4), "not a person's seat"),
    (lambda t: director.give_back(t, 7), "not a person's seat"),
    (lambda t: director.add_time(t, FIRST, 0), "between 1 and 3600"),
    (lambda t: director.add_time(t, FIRST, 100_000), "between 1 and 3600"),
    (lambda t: director.send_message([t], "   "), "1 to 300"),
    (lambda t: director.send_message([t], "x" * 301), "1 to 300"),
    (lambda t: director.pause(10**9), "no table"),
])
def test_refusals_say_why_and_change_nothing(table: LiveTable, do: Any, says: str) -> None:
    before = _row(table)
    with pytest.raises(service.TableError, match=says):
        do(table.pk)
    after = _row(table)
    assert (after.seating, after.deadline, after.paused_at, after.message) == (
        before.seating, before.deadline, before.paused_at, before.message)


def test_a_finished_or_ended_game_is_no_directors_to_change(table: LiveTable) -> None:
    LiveTable.objects.filter(pk=table.pk).update(status=LiveTable.Status.ABANDONED)
    with pytest.raises(service.TableError, match="no longer in play"):
        director.pause(table.pk)


def test_a_table_without_a_clock_gets_no_time(player: Any) -> None:
    table = service.create_table([service.SeatPlan(user=player)]
                                 + [service.SeatPlan(bot="greedy")] * 3,
                                 seed=SEED, move_seconds=None)
    with pytest.raises(service.TableError, match="no clock"):
        director.add_time(table.pk, 0, 30)


@pytest.mark.usefixtures("layer", "eager_tasks")
@pytest.mark.django_db(transaction=True)
def test_connections_hear_of_a_pause_and_a_heartbeat_is_answered(
        table: LiveTable, cookie: str) -> None:
    """Over the real application and channel layer (in memory and Redis)."""
    async def run() -> None:
        comm, snapshot = await joined(table.pk, cookie)
        assert snapshot["view"]["paused"] is False
        await send_frame(comm, '{"type": "ping"}')
        assert (await comm.receive_json_from(timeout=TIMEOUT)) == {"type": "pong"}
        await database_sync_to_async(director.pause)(table.pk)
        update = await comm.receive_json_from(timeout=TIMEOUT)
        assert update["type"] == "update" and update["view"]["paused"] is True
        assert update["events"] == []
        await comm.disconnect()

    async_to_sync(run)()
    assert _row(table).paused_at is not None
