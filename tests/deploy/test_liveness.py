"""The health URL and socket answered ahead of the site (config/liveness.py); through
HAProxy and a real uvicorn in tests/deploy/test_serve.py."""

from __future__ import annotations

import asyncio
from typing import Any

from asgiref.testing import ApplicationCommunicator

from config.liveness import OK, PATH, SOCKET_PATH, Receive, Scope, Send, with_health
from deploy.haproxy import HEALTH_PATH

SITE = b"the site"


async def _site(scope: Scope, receive: Receive, send: Send) -> None:
    await send({"type": "http.response.start", "status": 404, "headers": []})
    await send({"type": "http.response.body", "body": SITE})


def _run(scope: Scope, *sent: dict[str, Any]) -> list[dict[str, Any]]:
    async def talk() -> list[dict[str, Any]]:
        communicator = ApplicationCommunicator(with_health(_site), scope)
        for message in sent:
            await communicator.send_input(message)
        out = [await communicator.receive_output(5)]
        while not await communicator.receive_nothing(0.05):
            out.append(await communicator.receive_output(5))
        return out

    return asyncio.run(talk())


def test_the_load_balancer_asks_this_url() -> None:
    assert HEALTH_PATH == PATH


def test_health_url_is_ok() -> None:
    start, body = _run({"type": "http", "path": PATH, "method": "GET", "headers": []},
                       {"type": "http.request", "body": b""})
    assert start["status"] == 200 and (b"cache-control", b"no-store") in start["headers"]
    assert body["body"] == OK.encode()


def test_other_urls_go_to_the_site() -> None:
    start, body = _run({"type": "http", "path": "/health", "method": "GET", "headers": []},
                       {"type": "http.request", "body": b""})
    assert start["status"] == 404 and body["body"] == SITE


def test_health_socket_accepts_says_ok_and_closes() -> None:
    messages = _run({"type": "websocket", "path": SOCKET_PATH, "headers": []},
                    {"type": "websocket.connect"})
    assert messages == [{"type": "websocket.accept"},
                        {"type": "websocket.send", "text": OK},
                        {"type": "websocket.close", "code": 1000}]
