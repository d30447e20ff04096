"""Websocket clients of a live table, on the real ASGI application and channel layer."""

import os
from collections.abc import Iterator
from typing import Any

import pytest
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application

TIMEOUT = 30  # seconds: only reached when a message never comes (a failure)


def _redis_url() -> str | None:
    """The Redis the channel layer may use (CI sets CELERY_BROKER_URL), if it answers."""
    import redis

    url = os.environ.get("CHANNEL_REDIS_URL") or os.environ.get("CELERY_BROKER_URL", "")
    if not url.startswith("redis"):
        return None
    try:
        redis.Redis.from_url(url, socket_timeout=2).ping()
    except redis.RedisError:
        return None
    return url


@pytest.fixture(params=["memory", "redis"])
def layer(request: Any, settings: Any) -> Iterator[str]:
    """The in-memory layer, and Redis pub/sub when a Redis answers (never a mock)."""
    if request.param == "memory":
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    else:
        url = _redis_url()
        if url is None:
            pytest.skip("no Redis answers for the channel layer")
        # pub/sub ignores the db number; a prefix of its own keeps parallel runs apart
        settings.CHANNEL_LAYERS = {"default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [url], "prefix": f"test-live-{os.getpid()}"}}}
    channel_layers.backends.clear()
    yield request.param
    channel_layers.backends.clear()


def session_cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def connect_to(table_id: int, cookie: str | None = None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost")]
    if cookie:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    return WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers)


async def joined(table_id: int, cookie: str | None = None) -> tuple[WebsocketCommunicator, Any]:
    """A connected client and its first message (the snapshot)."""
    comm = connect_to(table_id, cookie)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    return comm, await comm.receive_json_from(timeout=TIMEOUT)


async def update_at(comm: WebsocketCommunicator, seq: int, into: list[Any]) -> Any:
    """Read (collecting into ``into``) until an update reaching ``seq``; it."""
    while True:
        message = await comm.receive_json_from(timeout=TIMEOUT)
        into.append(message)
        if message["type"] == "update" and message["view"]["seq"] >= seq:
            return message
