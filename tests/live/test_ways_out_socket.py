"""Resigning, leaving and a rematch over a live table's websocket (``resign``, ``leave``,
``rematch``, each answered ``done``): the others at the table see the game resigned; a bad
message, or one the table refuses, gets an error frame saying what is wrong, and changes
nothing."""

from typing import Any

import pytest
from asgiref.sync import async_to_sync

from games.live import service
from games.live.models import FriendTable, LiveSeat, LiveTable

from .conftest import FIRST, SEED
from .sockets import TIMEOUT, answer_of, joined

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("layer", "eager_tasks")]


@pytest.fixture
def table(player: Any) -> LiveTable:
    return service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)


async def _until(comm: Any, check: Any) -> Any:
    while True:
        message = await comm.receive_json_from(timeout=TIMEOUT)
        if message["type"] == "update" and check(message["view"]):
            return message


def test_a_resignation_is_done_and_the_others_see_it(table: LiveTable, cookie: str) -> None:
    async def run() -> None:
        mine, _ = await joined(table.pk, cookie)
        watcher, _ = await joined(table.pk)
        await mine.send_json_to({"type": "resign", "id": "q1"})
        assert await answer_of(mine, "done", "q1") == {
            "type": "done", "id": "q1", "do": "resign", "url": None}
        seen = await _until(watcher, lambda view: view["status"] == "resigned")
        assert seen["view"]["resigned"] == FIRST
        # and once it is over, a rematch: a practice table's opens at once
        await mine.send_json_to({"type": "rematch", "id": "q2"})
        answers.append(await answer_of(mine, "done", "q2"))
        await mine.disconnect()
        await watcher.disconnect()

    answers: list[Any] = []
    async_to_sync(run)()
    new = FriendTable.objects.get(rematch_of=table).table_id
    assert answers[0]["url"] == f"/tables/{new}/"


def test_leaving_is_done_and_sends_the_page_to_the_tables(table: LiveTable, cookie: str) -> None:
    async def run() -> None:
        mine, _ = await joined(table.pk, cookie)
        await mine.send_json_to({"type": "leave", "id": "q1"})
        assert (await answer_of(mine, "done", "q1"))["url"] == "/tables/"
        await mine.disconnect()

    async_to_sync(run)()
    assert LiveSeat.objects.get(table=table, seat=FIRST).left is not None


@pytest.mark.parametrize(("message", "field", "says"), [
    ({"type": "resign"}, "id", "needs the field \"id\""),
    ({"type": "leave", "id": "q1", "now": True}, None, "has no field \"now\""),
    ({"type": "rematch", "id": 7}, "id", "must be a string"),
    ({"type": "resign", "id": "bad id!"}, "id", "id"),
    ({"type": "rematch", "id": "q1"}, None, "once the game is over"),
])
def test_a_bad_or_refused_message_gets_an_error_and_changes_nothing(
        table: LiveTable, cookie: str, message: Any, field: str | None, says: str) -> None:
    # what a way out would change (joining begins the table: its clock starts afresh)
    fields = ("status", "seq", "resigned_seat", "record", "seating")
    before = LiveTable.objects.values(*fields).get(pk=table.pk)

    async def run() -> None:
        mine, _ = await joined(table.pk, cookie)
        await mine.send_json_to(message)
        error = await mine.receive_json_from(timeout=TIMEOUT)
        assert error["type"] == "error" and error["field"] == field, error
        assert says in error["message"], error
        await mine.disconnect()

    async_to_sync(run)()
    assert LiveTable.objects.values(*fields).get(pk=table.pk) == before
    assert not FriendTable.objects.exists()
    assert not LiveSeat.objects.filter(left__isnull=False).exists()


@pytest.mark.parametrize("kind", ["resign", "leave", "rematch"])
def test_a_spectator_cannot_resign_leave_or_ask_a_rematch(table: LiveTable, kind: str) -> None:
    async def run() -> None:
        other, _ = await joined(table.pk)
        await other.send_json_to({"type": kind, "id": "q1"})
        error = await answer_of(other, "done", "q1")
        assert error["type"] == "error" and "You do not hold a seat" in error["message"]
        await other.disconnect()

    async_to_sync(run)()
    table.refresh_from_db()
    assert table.status == LiveTable.Status.PLAYING and not FriendTable.objects.exists()
