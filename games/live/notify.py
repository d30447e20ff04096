"""Telling a table's channel group from synchronous code (the table service after a
commit), on a loop that keeps the channel layer's Redis connection.

Inside an ASGI server the service runs in a ``sync_to_async`` thread, and ``async_to_sync``
hands the send to the server's own loop. Anywhere else (a Celery worker playing a bot, a
command) ``async_to_sync`` would run every send on a new event loop, so the Redis layer
would open and close a connection per message (about 35 ms on the project's machine).
There one loop per process, in a thread of its own, sends them all.
"""

from __future__ import annotations

import asyncio
import os
import threading
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

SEND_TIMEOUT = 10  # seconds

_loop: asyncio.AbstractEventLoop | None = None
_loop_pid = 0
_lock = threading.Lock()


def group_send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    server_loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if server_loop is not None and getattr(
            SyncToAsync.threadlocal, "main_event_loop_pid", None) == os.getpid():
        async_to_sync(layer.group_send)(group, message)
        return
    asyncio.run_coroutine_threadsafe(layer.group_send(group, message),
                                     _own_loop()).result(SEND_TIMEOUT)


def _own_loop() -> asyncio.AbstractEventLoop:
    global _loop, _loop_pid
    with _lock:
        if _loop is None or _loop_pid != os.getpid():  # none yet, or a forked child's
            _loop, _loop_pid = asyncio.new_event_loop(), os.getpid()
            threading.Thread(target=_loop.run_forever, name="channel-layer",
                             daemon=True).start()
        return _loop
