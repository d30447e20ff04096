"""The live tables' channel layer (``games.live.layer``) with Redis away: a connection's
channel and its table's group are taken all the same, and once Redis answers the
subscriptions take, the channel is told, and the group's notices arrive. On a Redis of the
test's own (never a mock); it needs the ``redis-server`` program."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

from games.live.layer import SUBSCRIBED, PubSubChannelLayer
from tests.services import require

from .redis_server import RedisServer, no_redis_server

TIMEOUT = 30  # seconds: only reached when a message never comes (a failure)


async def _until_type(layer: Any, channel: str, kind: str) -> list[dict[str, Any]]:
    """The messages ``channel`` receives up to and including the first of type ``kind``."""
    received = []
    while not received or received[-1]["type"] != kind:
        received.append(await asyncio.wait_for(layer.receive(channel), TIMEOUT))
    return received


def test_subscriptions_refused_while_redis_is_away_take_once_it_is_back(
        tmp_path: Path) -> None:
    require(no_redis_server(), "the channel layer through a Redis outage")
    redis = RedisServer(tmp_path)
    redis.stop()
    layer = PubSubChannelLayer(hosts=[redis.url], prefix=f"test-layer-{uuid.uuid4().hex[:8]}")

    async def scenario() -> list[dict[str, Any]]:
        channel = await layer.new_channel()  # no error: Redis is away
        await layer.group_add("live-table-1", channel)
        await asyncio.to_thread(redis.start)
        # told twice: once its own channel's subscription took, once its group's did
        told = await _until_type(layer, channel, SUBSCRIBED["type"])
        told += await _until_type(layer, channel, SUBSCRIBED["type"])
        await layer.group_send("live-table-1", {"type": "table.changed", "seq": 7})
        told += await _until_type(layer, channel, "table.changed")
        await layer.flush()
        return told

    try:
        told = asyncio.run(scenario())
    finally:
        redis.stop()
    assert told[-1] == {"type": "table.changed", "seq": 7}
    assert told[:-1] == [SUBSCRIBED, SUBSCRIBED]
