"""The websocket edge of a live table: thin. It finds the user's seat, hands actions to
the table service (in a worker thread, never in the event loop) and, when the table's
group says the sequence number moved, sends its own seat's events read from the database.
The channel layer carries only sequence numbers, so it cannot leak a card; it may drop a
notice, so a client asks to ``resume`` from its last number whenever it sees a gap.

Messages from the client: ``{"type": "act", "action": "0 take", "id": "c-17"}``,
``{"type": "resume", "since": 12}``, ``{"type": "ways", "id": "w-3", "cards": ["5H",
"6H", "JK"], "meld": null}`` (the seat's legal actions using exactly those cards, onto
meld ``meld`` when it is a meld id), ``{"type": "hand_log", "id": "h-2", "hand": 2}`` (a
hand already dealt, 1 to 5, as this connection saw it), ``{"type": "ping"}``, a seat
holder's heartbeat (``presence``), a hint at the seat holder's own turn at a practice or
friends' table, ``{"type": "hint", "id": "k-1"}`` (``hints``), answered ``hint`` (``id``,
``seq``, ``hand``, ``index``, ``seat``, ``move``: the suggested action structured as below,
``reason``: why, in words), and a seat holder's ways out of a practice or friends'
table, ``{"type": "resign" | "leave" | "rematch", "id": "q-1"}`` (``quitting``), answered
``done`` (``id``, ``do``, ``url``: the page to go to, or null); and the table's talk
(``chat``): ``{"type": "chat", "id", "text"}``, answered ``chat`` (``id``, ``lines``: the
line said), and ``{"type": "report", "id", "message"}``, answered ``reported``. Unasked,
a connection gets ``presence`` (``seats``: each a ``presence.SeatPresence``; all on
connecting, then each change) and ``chat`` (``id`` null, ``lines``; ``all`` on connecting:
the last lines it reads). To the client: ``error``
(``id``, ``rule``, ``field``, ``message``), ``update`` (``events`` and ``view``, the
view's ``seq`` being the last event's number; the one answering an ``act`` also has
``ack``: the act's ``id`` and the ``seq`` it was logged at, one frame fewer an action
than a separate answer), ``ways`` (``id``, ``actions``: their text forms, and ``moves``:
the same in their structured form), ``hand_log`` (``id``, ``hand``, ``events`` as an
update's, ``result``: the hand's summary as a view's ``last_hand``, or null while it is
played; an error with ``field`` "hand" for a hand not dealt yet) and ``pong``.

An update's events are those after the connection's number; a *full* update (the first
on a connection, or one whose events reach beyond the hand in play) also has in its view
``log`` (every event of the hand in play: it replaces the client's), ``last_hand`` (the
summary of the last hand that ended, or null: ``ended_by``, ``out_seat``, ``scores``,
``hands``, the cards each seat held at its end, and their ``penalties``; a hand-ending
event's ``hand_result`` has the same) and ``hand_pause`` (the seconds the bots wait after
a hand's end, for the summary to be read). A person's first connection to a table that
awaited them begins its play (``service.begin``).

Structured moves: wherever an action goes to the client as text (an event's ``action``, a
seat's view's ``legal``, a ``ways`` answer's ``actions``), its structured form goes beside
it (an event's ``move``, a view's ``moves``, the answer's ``moves``), so that a page never
parses the text: ``state.move_of`` makes it from the engine's own action, as the game
record's JSON form (push-record/1) plus ``text``: ``{"do": "layoff", "seat": 2, "meld": 3,
"cards": ["JK=8", "9S"], "text": "2 layoff 3 JK=8 9S"}``; ``do`` is one of take, push,
discard (``card``), contract and meld (``melds``: ``kind`` and ``cards`` each), layoff
(``meld``, ``cards``) and swap (``meld``, ``card``, ``wild``). The text forms stay, for
clients that read them; an ``act`` still sends the text (a move's ``text``).
Each frame is read by ``frames``: one that is not such a message gets an error saying what
is wrong (and which field) and the connection stays; one over ``frames.MAX_FRAME_BYTES``
closes it (1009). A connection sending frames faster than its ``allowance`` gets an
error for each frame beyond it, unread.
"""

from __future__ import annotations

import logging
import time
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from . import (
    allowance,
    chat,
    frames,
    hints,
    inbox,
    notify,
    prepared,
    presence,
    quitting,
    rematch,
    service,
    shared,
)
from .db_threads import call as _db

Message = dict[str, Any]

log = logging.getLogger(__name__)

def _way_out(table_id: int, seat: int, do: str) -> str | None:
    """Take ``do`` (a ``frames.QUITS``) for ``seat``; the page its person goes to then:
    the tables' list after leaving, the rematch (its table, or its waiting page while the
    others are asked), none after resigning (the page shows the game resigned)."""
    if do == "resign":
        quitting.resign(table_id, seat)
        return None
    if do == "leave":
        quitting.leave(table_id, seat)
        return reverse("live:tables")
    found = rematch.rematch(table_id, seat)
    return (reverse("live:table", args=[found.table]) if found.table is not None
            else reverse("live:friends", args=[found.friend_table]))


class Consumer(AsyncWebsocketConsumer):
    """Channels' websocket consumer, minus one step: before every message, Channels 4.2+
    drops old database connections in the process's one thread for database work, so an
    echo or a notice waits behind every query queued there (at 200 tables the echo took a
    second). Here each database call (``db_threads.call``, through ``database_sync_to_async``) does
    that itself, before and after, in the thread it runs in; a message that needs no
    database does not wait for it."""

    async def dispatch(self, message: Message) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def layer_subscribed(self, event: Message) -> None:
        """The channel layer's word that a subscription Redis had refused took
        (``games.live.layer``): notices come from now on."""

    closing = False  # set once the connection is over on either side: nothing more is sent

    # the signature of AsyncWebsocketConsumer.send, which its stubs mark as this override
    async def send(  # type: ignore[override]
            self, text_data: str | None = None, bytes_data: bytes | None = None,
            close: bool = False) -> None:
        """Send a frame, unless the client has gone. A client that resets its connection
        while its answer is made is gone before the send: the server says so with an
        ``OSError`` (uvicorn's ``ClientDisconnected``), and its disconnect comes next.
        That is the connection's end, not a fault, so it is logged quietly and nothing
        more is sent on it."""
        if self.closing:  # a notice may come after the connection was closed
            return
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except OSError as exc:
            self.closing = True
            log.info("a live connection was gone before its frame was sent (%r)", exc)


class TableConsumer(Consumer):
    table_id: int
    seat: int | None
    last_seq: int
    counted = False  # set once ``prepared`` counts this connection at its table

    async def connect(self) -> None:
        self.allowance = allowance.Allowance(settings.LIVE_FRAMES_AT_ONCE,
                                             settings.LIVE_FRAMES_A_SECOND)
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.group = service.group_name(self.table_id)
        try:
            self.seat = await _db(service.seat_of)(
                self.table_id, self.scope.get("user"))
        except service.WatchRefused:
            await self.close(code=4403)
            return
        except service.TableError:
            await self.close(code=4404)
            return
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        self.last_seq = 0
        prepared.arrived(self.table_id, self.seat)
        self.counted = True
        if self.seat is not None:  # a person back at their seat takes it from the bot
            self._tell_presence(await _db(presence.heard)(
                self.table_id, self.seat, arriving=True))
        # a new connection gets a snapshot (the view and the hand so far), who is here
        # and the chat so far
        await self._send_update(*await self._update(None))
        seats = await _db(presence.seats_now)(self.table_id)
        await self._send_json({"type": "presence", "seats": [s.as_dict() for s in seats]})
        lines = await _db(chat.history)(self.table_id, self.seat)
        await self._send_json({"type": "chat", "id": None, "lines": lines, "all": True})
        if self.seat is not None:  # a table awaiting its first person begins, once seen
            await _db(service.begin)(self.table_id)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            seat = getattr(self, "seat", None)
            if self.counted:
                prepared.left(self.table_id, seat)
            if seat is not None:
                self._tell_presence(await _db(presence.heard)(
                    self.table_id, seat, leaving=True))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """One frame from the client: always one answer, at worst an error frame, and the
        connection stays; only a frame over the size limit closes it (1009, with a reason).
        A bug in handling one frame is logged with its traceback and answered with a
        generic error, rather than ending the connection (the log still shows it)."""
        if self.closing:
            return  # frames that arrived after ours closed the connection
        try:
            await self._receive(text_data, bytes_data)
        except Exception:  # noqa: BLE001 - logged, with the traceback
            log.exception("live table %s: handling a frame failed: %.200r", self.table_id,
                          text_data if bytes_data is None else bytes_data)
            await self._error(None, _("The server could not handle this message."))

    async def _receive(self, text_data: str | None, bytes_data: bytes | None) -> None:
        if frames.too_large(text_data, bytes_data):
            await self._close_too_large()
            return
        if not self.allowance.take(time.monotonic()):
            await self._error(None, _("Too many messages: at most %(rate)s a second; this "
                                      "one was not read.")
                              % {"rate": f"{settings.LIVE_FRAMES_A_SECOND:g}"})
            return
        if text_data is None:
            await self._error(None, _("Send text frames of JSON, not binary frames."))
            return
        try:
            request = frames.read(text_data)
        except frames.FrameError as exc:
            await self._error(exc.client_id, exc.message, field=exc.field)
            return
        if isinstance(request, frames.Act):
            await self._act(request)
        elif isinstance(request, frames.Resume):
            await self._resume(request)
        elif isinstance(request, frames.Ping):
            await self._send_json({"type": "pong"})  # first: the page times its round trip
            if self.seat is not None:
                self._tell_presence(await _db(presence.heard)(
                    self.table_id, self.seat, hidden=request.hidden, lag=request.lag))
        elif isinstance(request, frames.HandLog):
            await self._hand_log(request)
        elif isinstance(request, frames.Quit):
            await self._quit(request)
        elif isinstance(request, frames.Chat | frames.Report):
            await self._chat(request)
        elif isinstance(request, frames.Hint):
            await self._hint(request)
        else:
            await self._ways(request)

    async def _close_too_large(self) -> None:
        """Close with 1009 (Message Too Big) and a reason; nothing more is sent. daphne
        refuses 1009 from an application (autobahn allows only 1000 and 3000-4999, and
        passes on no reason): there the code is 4009."""
        self.closing = True
        reason = _("A message is at most %(size)s bytes.") % {"size": frames.MAX_FRAME_BYTES}
        try:
            await self.close(code=1009, reason=reason)
        except Exception:  # noqa: BLE001 - autobahn's plain Exception; any other fails again
            await self.close(code=4009, reason=reason)

    async def _act(self, request: frames.Act) -> None:
        if self.seat is None:
            await self._error(request.id, _("You do not hold a seat at this table."))
            return
        try:
            seq, update = await _db(service.act_and_update)(
                self.table_id, self.seat, request.action, request.id, self.last_seq,
                prepared.seats(self.table_id))
        except service.TableError as exc:
            await self._error(request.id, exc.message, exc.rule)
            return
        self.last_seq = max(self.last_seq, update.view["seq"])
        await self._send_json({"type": "update", "ack": {"id": request.id, "seq": seq},
                               "events": update.events, "view": update.view})

    async def _ways(self, request: frames.Ways) -> None:
        if self.seat is None:
            await self._error(request.id, _("You do not hold a seat at this table."))
            return
        try:
            moves = await _db(service.table_ways)(
                self.table_id, self.seat, request.cards, request.meld)
        except service.TableError as exc:
            await self._error(request.id, exc.message, exc.rule)
            return
        await self._send_json({"type": "ways", "id": request.id,
                               "actions": [move["text"] for move in moves], "moves": moves})

    async def _quit(self, request: frames.Quit) -> None:
        """Resign, leave or a rematch (``quitting``, ``rematch``): answered ``done`` with
        the page to go to (``url``: null to stay), or an error, nothing changed."""
        if self.seat is None:
            await self._error(request.id, _("You do not hold a seat at this table."))
            return
        try:
            url = await _db(_way_out)(self.table_id, self.seat, request.do)
        except service.TableError as exc:
            await self._error(request.id, exc.message, exc.rule)
            return
        await self._send_json({"type": "done", "id": request.id, "do": request.do, "url": url})

    async def _hint(self, request: frames.Hint) -> None:
        """A hint for this seat's turn (``hints``), answered to this connection only:
        ``hint`` with the suggested ``move`` and its ``reason``, or an error, nothing
        stored. The bot thinks in the hints' own threads, not in the event loop."""
        if self.seat is None:
            await self._error(request.id, _("You do not hold a seat at this table."))
            return
        try:
            found = await _db(hints.ask)(self.table_id, self.seat)
            if isinstance(found, hints.Asked):
                found = await _db(hints.store)(found, await hints.think_off_loop(found))
        except service.TableError as exc:
            await self._error(request.id, exc.message, exc.rule)
            return
        await self._send_json({"type": "hint", "id": request.id, **found})

    async def _chat(self, request: frames.Chat | frames.Report) -> None:
        """A line said (answered ``chat`` with it, and the table told) or reported
        (answered ``reported``); an error naming the field at fault, nothing stored."""
        user = self.scope.get("user")
        try:
            if isinstance(request, frames.Report):
                await _db(chat.report)(self.table_id, user, self.seat, request.message)
                await self._send_json({"type": "reported", "id": request.id,
                                       "message": request.message})
                return
            line, over = await _db(chat.post)(self.table_id, user, self.seat, request.text)
        except chat.ChatRefused as exc:
            await self._error(request.id, exc.message, field=exc.field)
            return
        await self._send_json({"type": "chat", "id": request.id, "lines": [line]})
        notify.send_soon(self.group, {"type": "chat.line", "line": line, "over": over,
                                      "sender": self.channel_name})

    async def chat_line(self, event: Message) -> None:
        """A line said at the table: passed on where this connection reads its channel
        (its sender has had it as the answer)."""
        if (event["sender"] != self.channel_name
                and chat.may_read(event["line"]["channel"], self.seat, event["over"])):
            await self._send_json({"type": "chat", "id": None, "lines": [event["line"]]})

    def _tell_presence(self, told: presence.SeatPresence | None) -> None:
        if told is not None:
            notify.send_soon(self.group, {"type": "seat.presence", "seat": told.as_dict()})

    async def seat_presence(self, event: Message) -> None:
        await self._send_json({"type": "presence", "seats": [event["seat"]]})

    async def _hand_log(self, request: frames.HandLog) -> None:
        try:
            events, result = await _db(service.hand_log)(self.table_id, self.seat, request.hand)
        except service.TableError as exc:
            await self._error(request.id, exc.message, exc.rule, field="hand")
            return
        await self._send_json({"type": "hand_log", "id": request.id, "hand": request.hand,
                               "events": events, "result": result})

    async def _resume(self, request: frames.Resume) -> None:
        try:
            update, text = await self._update(request.since)
        except service.TableError as exc:
            await self._error(None, exc.message, exc.rule)
            return
        await self._send_update(update, text)

    async def table_changed(self, event: Message) -> None:
        """The group's notice that the table reached sequence number ``event["seq"]``, or
        that something besides an action changed (``changed``: a pause, a substitute)."""
        if event.get("changed"):
            await self._catch_up()
        elif event["seq"] > self.last_seq:
            made = prepared.take(self.table_id, event["seq"], (self.seat, self.last_seq))
            if made is None:
                await self._catch_up()
            else:
                await self._send_update(*made)

    async def layer_subscribed(self, event: Message) -> None:
        """Notices reach this connection from now on; those sent before did not."""
        await self._catch_up()

    async def _catch_up(self) -> None:
        await self._send_update(*await self._update(self.last_seq))

    async def _update(self, since: int | None) -> tuple[service.Update, str]:
        """The update after ``since`` (``None``: only the view), read with those of the
        other connections at the table asking now (``shared``), and its frame's text."""
        return await shared.update(_db, self.table_id, self.seat, since)

    async def _send_update(self, update: service.Update, text: str | None) -> None:
        """Send ``update``: ``text``, its frame made already, or made here."""
        self.last_seq = max(self.last_seq, update.view["seq"])
        if text is None:
            await self._send_json({"type": "update", "events": update.events,
                                   "view": update.view})
        else:
            await self.send(text_data=text)

    async def _error(self, client_id: str | None, message: str, rule: str = "",
                     field: str | None = None) -> None:
        """An error frame; ``client_id`` is the message's id, echoed only when valid
        (``frames``), so the answer never carries what the client should not have sent."""
        await self._send_json({"type": "error", "id": client_id, "rule": rule,
                               "field": field, "message": message})

    async def _send_json(self, message: Message) -> None:
        await self.send(text_data=shared.frame(message))


class InboxConsumer(Consumer):
    """A logged-in person's open page (``ws/inbox/?lang=fi``): told at once of each new
    notification (``inbox``), with the count of those unread. Sends ``{"type": "unread",
    "unread": n}`` on connecting and ``{"type": "notice", "unread": n, "kind", "text",
    "link", "prominent"}`` for each new one, its words in the page's language (``lang``,
    one of ``LANGUAGES``; else the default). A visitor who is not logged in is closed
    (4403). The page sends nothing; a frame it sends is ignored."""

    user_id: int
    language: str

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4403)
            return
        self.user_id = int(user.pk)
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        wanted = (query.get("lang") or [""])[0]
        self.language = (wanted if wanted in dict(settings.LANGUAGES)
                         else settings.LANGUAGE_CODE)
        self.group = inbox.user_group(self.user_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        told = inbox.registered()
        if told is not None:
            await self._send_json({"type": "unread",
                                   "unread": await _db(told.unread)(self.user_id)})

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Nothing is asked of an inbox: frames are ignored, over-large ones closed."""
        if frames.too_large(text_data, bytes_data):
            self.closing = True
            await self.close(code=4009)

    async def inbox_notice(self, event: Message) -> None:
        told = inbox.registered()
        if told is None:
            return
        with translation.override(self.language):
            worded = told.word(event["notice"])
        unread = await _db(told.unread)(self.user_id)
        await self._send_json({"type": "notice", "unread": unread,
                               "kind": event["notice"].get("kind", ""), **worded})

    async def _send_json(self, message: Message) -> None:
        await self.send(text_data=shared.frame(message))


class EchoConsumer(Consumer):
    """A bare echo, routed only on bench_tables' server (``LIVE_BENCH_ECHO``): the
    transport's own round trip, to set a table's figures beside."""

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=text_data, bytes_data=bytes_data)
