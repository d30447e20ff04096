"""Websocket clients of a live table, on the real ASGI application and channel layer."""

import asyncio
import json
from typing import Any

from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application

TIMEOUT = 30  # seconds: only reached when a message never comes (a failure)


def session_cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


#: The frames a table sends of itself besides the game: who is here (``presence``) and the
#: chat's lines (a ``chat`` answering no message of the client's).
TALK = ("presence", "chat")


class TableCommunicator(WebsocketCommunicator):
    """A table's client that, unless it ``hears`` them, leaves out the frames of
    :data:`TALK`, which come whenever someone arrives, leaves or speaks: the tests of the
    game read its frames in order (tests/live/test_chat.py and test_presence.py hear)."""

    def __init__(self, *args: Any, hears: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.hears = hears

    def _talk(self, output: dict[str, Any]) -> bool:
        if self.hears or output.get("type") != "websocket.send" or not output.get("text"):
            return False
        message = json.loads(output["text"])
        return message.get("type") in TALK and message.get("id") is None

    async def receive_output(self, timeout: float = 1) -> Any:
        while True:
            output = await super().receive_output(timeout)
            if not self._talk(output):
                return output

    async def receive_nothing(self, timeout: float = 0.1, interval: float = 0.01) -> bool:
        """Nothing but talk comes in ``timeout`` (the talk is dropped)."""
        while await super().receive_nothing(timeout, interval) is False:
            output = self.output_queue.get_nowait()
            if not self._talk(output):
                self.output_queue.put_nowait(output)  # a test reads it next
                return False
        return True


async def next_frame(ws: Any) -> Any:
    """The next frame a websockets client gets from a table but its talk (:data:`TALK`),
    read as JSON."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
        if message["type"] not in TALK or message.get("id") is not None:
            return message


def connect_to(table_id: int, cookie: str | None = None, *,
               hears: bool = False) -> TableCommunicator:
    headers = [(b"origin", b"http://localhost")]
    if cookie:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    return TableCommunicator(application, f"/ws/tables/{table_id}/", headers, hears=hears)


async def joined(table_id: int, cookie: str | None = None) -> tuple[TableCommunicator, Any]:
    """A connected client and its first message (the snapshot)."""
    comm = connect_to(table_id, cookie)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    return comm, await comm.receive_json_from(timeout=TIMEOUT)


async def ack_of(comm: WebsocketCommunicator, client_id: str, into: list[Any]) -> Any:
    """Read (collecting into ``into``) until the update acknowledging ``client_id``; it.
    Updates that notices brought meanwhile may come before it."""
    while True:
        message = await comm.receive_json_from(timeout=TIMEOUT)
        into.append(message)
        assert message["type"] != "error", message
        if message.get("ack", {}).get("id") == client_id:
            return message


async def update_at(comm: WebsocketCommunicator, seq: int, into: list[Any]) -> Any:
    """Read (collecting into ``into``) until an update reaching ``seq``; it."""
    while True:
        message = await comm.receive_json_from(timeout=TIMEOUT)
        into.append(message)
        if message["type"] == "update" and message["view"]["seq"] >= seq:
            return message


async def send_frame(comm: WebsocketCommunicator, text: str | None = None,
                     data: bytes | None = None) -> None:
    """One frame as the server would pass it on, empty ones too (``send_to`` refuses them):
    ``text`` as it is (a test may give what no real server passes, e.g. a lone surrogate),
    else the bytes ``data``."""
    frame = {"type": "websocket.receive", "text": text} if text is not None else {
        "type": "websocket.receive", "bytes": data}
    await comm.send_input(frame)


async def answer(comm: WebsocketCommunicator) -> Any:
    """The next message, checked to be a text frame a real server can send (UTF-8)."""
    text = await comm.receive_from(timeout=TIMEOUT)
    assert isinstance(text, str)
    text.encode("utf-8")  # no lone surrogate: the server could not send it
    return json.loads(text)


async def answer_of(comm: WebsocketCommunicator, kind: str, client_id: str) -> Any:
    """Read until the answer of type ``kind`` (or an error) to the message ``client_id``;
    it. Updates that notices brought meanwhile may come before it."""
    while True:
        message = await comm.receive_json_from(timeout=TIMEOUT)
        if message["type"] in (kind, "error") and message.get("id") == client_id:
            return message
