"""Telling a table's channel group from synchronous code (the table service after a
commit), on a loop that keeps the channel layer's Redis connection.

Inside an ASGI server the service runs in a ``sync_to_async`` thread (one of the threads
the process's database work queues for, see ``db_threads.call``), and the send is handed
to the server's own loop without waiting for it: that thread goes on to the next call at
once, and a send that fails is logged (clients catch up from the log anyway). Anywhere
else (a Celery worker playing a bot, a command) ``async_to_sync`` would run every send
on a new event loop, so the Redis layer would open and close a connection per message
(about 35 ms on the project's machine). There one loop per process, in a thread of its
own, sends them all.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import threading
from typing import Any

from asgiref.sync import SyncToAsync
from channels.layers import get_channel_layer

SEND_TIMEOUT = 10  # seconds
SEND_TIMEOUT_EACH = 0.01  # seconds more a message, for many sent at once

log = logging.getLogger(__name__)

_loop: asyncio.AbstractEventLoop | None = None
_loop_pid = 0
_lock = threading.Lock()
_sending: set[asyncio.Future[None]] = set()  # the server loop's sends under way


def group_send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    server_loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    # a loop asgiref recorded for this thread and since closed (an ``async_to_sync`` call
    # that has ended, in a process that is no server) would drop the send
    if server_loop is not None and not server_loop.is_closed() and getattr(
            SyncToAsync.threadlocal, "main_event_loop_pid", None) == os.getpid():
        server_loop.call_soon_threadsafe(_start_sending, layer, group, message)
        return
    asyncio.run_coroutine_threadsafe(layer.group_send(group, message),
                                     _own_loop()).result(SEND_TIMEOUT)


def group_send_all(messages: list[tuple[str, dict[str, Any]]]) -> None:
    """:func:`group_send` for many groups at once: on the server's loop each is started at
    once; elsewhere all are sent in one call on this process's loop (one hand-over, not one
    a group: a round's start tells thousands of people)."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    server_loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if server_loop is not None and not server_loop.is_closed() and getattr(
            SyncToAsync.threadlocal, "main_event_loop_pid", None) == os.getpid():
        for group, message in messages:
            server_loop.call_soon_threadsafe(_start_sending, layer, group, message)
        return

    async def send_all() -> None:
        for group, message in messages:
            await layer.group_send(group, message)

    asyncio.run_coroutine_threadsafe(send_all(), _own_loop()).result(
        SEND_TIMEOUT + len(messages) * SEND_TIMEOUT_EACH)


def send_soon(group: str, message: dict[str, Any]) -> None:
    """On the server's loop (a consumer): start telling ``group``, without waiting for it
    and without failing with the channel layer (Redis away): a send that fails is logged,
    and its clients catch up when they connect again."""
    layer = get_channel_layer()
    if layer is not None:
        _start_sending(layer, group, message)


def _start_sending(layer: Any, group: str, message: dict[str, Any]) -> None:
    """On the server's loop: start the send, holding it until it is done (the loop itself
    holds its tasks only weakly)."""
    sending = asyncio.ensure_future(layer.group_send(group, message))
    _sending.add(sending)
    sending.add_done_callback(functools.partial(_sent, group))


def _sent(group: str, sending: asyncio.Future[None]) -> None:
    _sending.discard(sending)
    if not sending.cancelled() and sending.exception() is not None:
        log.error("telling %s failed; its clients catch up when they resume", group,
                  exc_info=sending.exception())


def _own_loop() -> asyncio.AbstractEventLoop:
    global _loop, _loop_pid
    with _lock:
        if _loop is None or _loop_pid != os.getpid():  # none yet, or a forked child's
            _loop, _loop_pid = asyncio.new_event_loop(), os.getpid()
            threading.Thread(target=_loop.run_forever, name="channel-layer",
                             daemon=True).start()
        return _loop
