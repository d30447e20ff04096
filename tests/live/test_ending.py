"""The director ends a live table whose game cannot finish (games/live/director.py): the
table stops under its row lock, takes no more actions, and its connected clients are told;
on the in-memory layer and on Redis pub/sub."""

from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from games.live import director, service
from games.live.errors import TableError
from games.live.models import LiveAction, LiveTable

from .conftest import FIRST, SEED
from .sockets import TIMEOUT, joined

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("layer", "eager_tasks")]


@pytest.fixture
def table(player: Any) -> LiveTable:
    return service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)


async def ended_view(comm: Any) -> Any:
    """Read until an update whose view shows the table ended; that view."""
    while True:
        message = await comm.receive_json_from(timeout=TIMEOUT)
        if message["type"] == "update" and message["view"]["status"] == "ended":
            return message["view"]


def test_an_ended_table_tells_its_clients_and_takes_no_more_actions(
        table: LiveTable, cookie: str) -> None:
    async def run() -> None:
        mine, snapshot = await joined(table.pk, cookie)
        watcher, _ = await joined(table.pk)
        assert snapshot["view"]["status"] == "playing"
        assert await sync_to_async(director.end_table)(table.pk, "the table hangs") is True
        for comm in (mine, watcher):
            view = await ended_view(comm)
            assert view["seq"] == 0 and view["deadline"] is None
        await mine.send_json_to({"type": "act", "action": f"{FIRST} take", "id": "c1"})
        while (refused := await mine.receive_json_from(timeout=TIMEOUT))["type"] != "error":
            pass
        assert "no more" in refused["message"]
        await mine.disconnect()
        await watcher.disconnect()

    async_to_sync(run)()
    table.refresh_from_db()
    assert table.status == LiveTable.Status.ENDED and table.deadline is None
    assert not LiveAction.objects.exists()
    assert director.end_table(table.pk, "again") is False  # over already: nothing changes


def test_a_finished_or_missing_table_is_not_ended_and_a_reason_is_required(
        table: LiveTable) -> None:
    with pytest.raises(TableError, match="Say why"):
        director.end_table(table.pk, "  ")
    assert LiveTable.objects.get(pk=table.pk).status == LiveTable.Status.PLAYING
    LiveTable.objects.filter(pk=table.pk).update(status=LiveTable.Status.FINISHED)
    assert director.end_table(table.pk, "stuck") is False
    assert LiveTable.objects.get(pk=table.pk).status == LiveTable.Status.FINISHED
    assert director.end_table(table.pk + 1000, "stuck") is False
