"""The websocket edge of a live table: thin. It finds the user's seat, hands actions to
the table service (in a worker thread, never in the event loop) and, when the table's
group says the sequence number moved, sends its own seat's events read from the database.
The channel layer carries only sequence numbers, so it cannot leak a card; it may drop a
notice, so a client asks to ``resume`` from its last number whenever it sees a gap.

Messages from the client: ``{"type": "act", "action": "0 take", "id": "c-17"}``,
``{"type": "resume", "since": 12}`` and ``{"type": "ways", "id": "w-3", "cards": ["5H",
"6H", "JK"], "meld": null}`` (the seat's legal actions using exactly those cards, onto
meld ``meld`` when it is a meld id). To the client: ``ack`` (``id``, ``seq``), ``error``
(``id``, ``rule``, ``message``), ``update`` (``events`` and ``view``, the view's ``seq``
being the last event's number), ``ways`` (``id``, ``actions``: their text forms).
"""

from __future__ import annotations

import json
import os
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils.translation import gettext as _

from . import service

Message = dict[str, Any]
MAX_WAYS_CARDS = 108  # the pack (R2.1): no hand holds more

_pools: dict[int, ThreadPoolExecutor] = {}  # per process (a forked child makes its own)


def _db(func: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    """``func`` to await, run where the live tables' database work runs: in a pool of
    ``LIVE_DB_THREADS`` threads, each with its own connection, so that one commit waiting
    on the disk holds up only itself; with 0, in Channels' one thread."""
    if not settings.LIVE_DB_THREADS:
        return database_sync_to_async(func)
    pool = _pools.get(os.getpid())
    if pool is None:
        pool = _pools[os.getpid()] = ThreadPoolExecutor(settings.LIVE_DB_THREADS,
                                                         thread_name_prefix="live-db")
    return database_sync_to_async(func, thread_sensitive=False, executor=pool)


class Consumer(AsyncWebsocketConsumer):
    """Channels' websocket consumer, minus one step: before every message, Channels 4.2+
    drops old database connections in the process's one thread for database work, so an
    echo or a notice waits behind every query queued there (at 200 tables the echo took a
    second). Here each database call (``_db``, through ``database_sync_to_async``) does
    that itself, before and after, in the thread it runs in; a message that needs no
    database does not wait for it."""

    async def dispatch(self, message: Message) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class TableConsumer(Consumer):
    table_id: int
    seat: int | None
    last_seq: int

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.group = service.group_name(self.table_id)
        try:
            self.seat = await _db(service.seat_of)(
                self.table_id, self.scope.get("user"))
        except service.TableError:
            await self.close(code=4404)
            return
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        self.last_seq = 0
        # a new connection gets a snapshot (the view), not the whole history
        update = await self._update(None)
        await self._send_update(service.Update([], update.view))

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            message = json.loads(text_data or "")
        except ValueError:
            await self._error(None, _("A message must be a JSON object."))
            return
        if not isinstance(message, dict):
            await self._error(None, _("A message must be a JSON object."))
        elif message.get("type") == "act":
            await self._act(message)
        elif message.get("type") == "resume":
            await self._resume(message)
        elif message.get("type") == "ways":
            await self._ways(message)
        else:
            await self._error(message.get("id"),
                              _("Unknown message type %(type)s; send \"act\", \"resume\" "
                                "or \"ways\".") % {"type": json.dumps(message.get("type"))})

    async def _act(self, message: Message) -> None:
        client_id, action = message.get("id"), message.get("action")
        if self.seat is None:
            await self._error(client_id, _("You do not hold a seat at this table."))
            return
        if not isinstance(client_id, str) or not isinstance(action, str):
            await self._error(client_id, _("An act message needs \"action\" and \"id\" "
                                            "as strings."))
            return
        try:
            seq, update = await _db(service.act_and_update)(
                self.table_id, self.seat, action, client_id, self.last_seq)
        except service.TableError as exc:
            await self._error(client_id, exc.message, exc.rule)
            return
        await self.send(text_data=json.dumps({"type": "ack", "id": client_id, "seq": seq}))
        await self._send_update(update)

    async def _ways(self, message: Message) -> None:
        client_id, cards, meld = message.get("id"), message.get("cards"), message.get("meld")
        if self.seat is None:
            await self._error(client_id, _("You do not hold a seat at this table."))
            return
        if (not isinstance(cards, list) or not all(isinstance(c, str) for c in cards)
                or len(cards) > MAX_WAYS_CARDS):
            await self._error(client_id, _("A ways message needs \"cards\", a list of at "
                                            "most %(max)s card codes.") % {"max": MAX_WAYS_CARDS})
            return
        if meld is not None and (not isinstance(meld, int) or isinstance(meld, bool)):
            await self._error(client_id, _("A ways message's \"meld\" is a meld id (a whole "
                                            "number) or null."))
            return
        try:
            actions = await _db(service.table_ways)(
                self.table_id, self.seat, cards, meld)
        except service.TableError as exc:
            await self._error(client_id, exc.message, exc.rule)
            return
        await self.send(text_data=json.dumps({"type": "ways", "id": client_id,
                                              "actions": actions}))

    async def _resume(self, message: Message) -> None:
        since = message.get("since")
        if not isinstance(since, int) or isinstance(since, bool):
            await self._error(None, _("A resume message needs \"since\", a whole number."))
            return
        try:
            update = await self._update(since)
        except service.TableError as exc:
            await self._error(None, exc.message, exc.rule)
            return
        await self._send_update(update)

    async def table_changed(self, event: Message) -> None:
        """The group's notice that the table reached sequence number ``event["seq"]``."""
        if event["seq"] > self.last_seq:
            await self._catch_up()

    async def _catch_up(self) -> None:
        await self._send_update(await self._update(self.last_seq))

    async def _update(self, since: int | None) -> service.Update:
        return await _db(service.update_since)(
            self.table_id, self.seat, self.last_seq if since is None else since)

    async def _send_update(self, update: service.Update) -> None:
        self.last_seq = max(self.last_seq, update.view["seq"])
        await self.send(text_data=json.dumps(
            {"type": "update", "events": update.events, "view": update.view}))

    async def _error(self, client_id: Any, message: str, rule: str = "") -> None:
        await self.send(text_data=json.dumps(
            {"type": "error", "id": client_id, "rule": rule, "message": message}))


class EchoConsumer(Consumer):
    """A bare echo, routed only on bench_tables' server (``LIVE_BENCH_ECHO``): the
    transport's own round trip, to set a table's figures beside."""

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=text_data, bytes_data=bytes_data)
