"""The channel layer of the live tables: channels-redis's pub/sub layer, made to ride out a
Redis outage.

The layer only carries "the table moved on" notices; the game is in the database. Yet
channels-redis subscribes a new connection's channel (and its table's group) before the
consumer runs, and while Redis is away that subscription raises, so the websocket
handshake failed with a 500. Here a subscription Redis refuses is retried in the
background until it takes, and the connection is served meanwhile: its consumer sends
the table as the database has it, and once the group's subscription takes, each of the
group's connections is told (``layer.subscribed``) so it catches up on what it missed.
Subscriptions that were in place when Redis went away are renewed by redis-py itself
when it reconnects.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer
from channels_redis.utils import _wrap_close
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

#: Seconds one try at subscribing may take: Redis answers in a millisecond when it is up.
SUBSCRIBE_TIMEOUT = 2.0
#: Seconds between tries while Redis is away: doubling from the first, up to the last.
RETRY_FIRST, RETRY_MOST = 0.5, 5.0
#: The message each of a group's connections gets once a refused subscription took.
SUBSCRIBED = {"type": "layer.subscribed"}

_DOWN = (RedisError, OSError, asyncio.TimeoutError)


class PubSubChannelLayer(RedisPubSubChannelLayer):
    """``RedisPubSubChannelLayer`` whose subscriptions survive Redis being away."""

    def _get_layer(self) -> RedisPubSubLoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = _LoopLayer(*self._args, **self._kwargs,
                                                    channel_layer=self)
            _wrap_close(self, loop)
        return layer


class _LoopLayer(RedisPubSubLoopLayer):
    """One event loop's layer: a refused subscription is retried, never raised."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._retrying: dict[str, asyncio.Task[None]] = {}

    async def _subscribe_to_channel(self, channel: str) -> None:
        self.channels[channel] = asyncio.Queue()
        await self._subscribe(channel)

    async def group_add(self, group: str, channel: str) -> None:
        if channel not in self.channels:
            raise RuntimeError("group_add() takes a channel of this process "
                               "(self.channel_name)")
        group_channel = self._get_group_channel_name(group)
        self.groups.setdefault(group_channel, set()).add(channel)
        await self._subscribe(group_channel)

    async def flush(self) -> None:
        for task in self._retrying.values():
            task.cancel()
        self._retrying.clear()
        await super().flush()

    async def _subscribe(self, name: str) -> None:
        if name in self._retrying:
            return  # being retried already
        try:
            await self._try(name)
        except _DOWN as exc:
            log.warning("channel layer: subscribing to %s failed (%r); retrying in the "
                        "background", name, exc)
            self._retrying[name] = asyncio.ensure_future(self._retry(name))

    async def _try(self, name: str) -> None:
        await asyncio.wait_for(self._get_shard(name).subscribe(name), SUBSCRIBE_TIMEOUT)

    async def _retry(self, name: str) -> None:
        delay = RETRY_FIRST
        try:
            while self._wanted(name):
                await asyncio.sleep(delay)
                delay = min(delay * 2, RETRY_MOST)
                try:
                    await self._try(name)
                except _DOWN:
                    continue
                log.info("channel layer: subscribed to %s", name)
                self._tell(name)
                return
        finally:
            self._retrying.pop(name, None)

    def _wanted(self, name: str) -> bool:
        return name in self.channels or bool(self.groups.get(name))

    def _tell(self, name: str) -> None:
        """Tell the connections behind ``name`` that notices reach them from now on."""
        message = self.channel_layer.serialize(SUBSCRIBED)
        for channel in self.groups.get(name, {name}):
            queue = self.channels.get(channel)
            if queue is not None:
                queue.put_nowait(message)
