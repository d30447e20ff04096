"""A client that goes away while the server answers it (its connection reset before the
answer is sent) is the end of that connection, not an error: through a real uvicorn, the
table's log has no ERROR and no traceback, and the table is served to the next client."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import pytest
import websockets
from django.db import connection

from config.asgi_process import AsgiServer
from config.worker_process import database_url
from games.live import service
from games.live.models import LiveTable

from .conftest import FIRST, SEED
from .sockets import TIMEOUT, next_frame, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]

RESUME = json.dumps({"type": "resume", "since": 0})
PING = json.dumps({"type": "ping"})
GONE = 20  # clients that reset their connection right after a frame


@pytest.fixture
def table(player: Any) -> LiveTable:
    return service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)


def test_a_client_gone_before_its_answer_is_not_logged_as_an_error(
        table: LiveTable, player: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the server process needs the test database in PostgreSQL")
    cookie = session_cookie(player)
    process = AsgiServer({"DATABASE_URL": database_url(connection.settings_dict),
                          "CHANNEL_PREFIX": f"test-gone-{uuid.uuid4().hex[:8]}"})

    async def connect() -> Any:
        ws = await websockets.connect(
            process.url(f"/ws/tables/{table.pk}/"), open_timeout=TIMEOUT, ping_interval=None,
            additional_headers={"Origin": "http://127.0.0.1", "Cookie": f"sessionid={cookie}"})
        assert (await next_frame(ws))["type"] == "update"
        return ws

    async def run() -> None:
        for n in range(GONE):
            ws = await connect()
            await ws.send(RESUME if n % 2 else PING)
            ws.transport.abort()  # a reset: the server's answer finds the connection gone
        await asyncio.sleep(1)  # the server finishes answering the last of them
        ws = await connect()  # and still serves the table
        await ws.send(RESUME)
        assert (await next_frame(ws))["type"] == "update"
        await ws.close()

    try:
        asyncio.run(run())
    finally:
        process.stop()
    log = "".join(process.log)
    assert "Traceback" not in log and " ERROR " not in log and "ERROR:" not in log, log
