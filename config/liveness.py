"""The health URL the load balancer asks each server process (deploy/haproxy.py), answered
before Django: ``GET /health/`` is 200 ``ok`` while the process serves, and a websocket to
``/ws/health/`` is accepted, told ``ok`` and closed (a monitor's check that upgrades pass
through the load balancer).

It says only that this process answers: the database and Redis are shared by every
server, so a server that cannot reach them is no worse than the others, and
``manage.py health`` reports on them. Answered ahead of Django, it needs no allowed host
(the load balancer asks by address) and no HTTPS redirect, and it shows nothing but ``ok``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
Application = Callable[[Scope, Receive, Send], Awaitable[None]]

PATH = "/health/"
SOCKET_PATH = "/ws/health/"
OK = "ok\n"


def with_health(application: Any) -> Application:
    """``application``, with the health URL and socket answered in front of it. (Any:
    Channels' router types its scopes and events by kind, which this wrapper only
    passes on.)"""

    async def serve(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == PATH:
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                    (b"cache-control", b"no-store")]})
            await send({"type": "http.response.body", "body": OK.encode()})
        elif scope["type"] == "websocket" and scope["path"] == SOCKET_PATH:
            if (await receive())["type"] == "websocket.connect":
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.send", "text": OK})
                await send({"type": "websocket.close", "code": 1000})
        else:
            await application(scope, receive, send)

    return serve
