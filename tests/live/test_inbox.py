"""A person's open pages are told of a new notification at once (``ws/inbox/``): the unread
count on connecting, then each new notice's words in the page's language, its link and the
new count; another person's pages hear nothing, and a visitor is refused. On the in-memory
layer and on Redis pub/sub."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.db import transaction

from config.asgi import application
from tournaments.models import Notification
from tournaments.services.notices import notify

from .sockets import TIMEOUT, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("layer")]

PARAMS = {"tournament": "Spring cup", "round": 2, "table": 5}


def inbox(cookie: str | None, lang: str = "en") -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost")]
    if cookie:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    return WebsocketCommunicator(application, f"/ws/inbox/?lang={lang}", headers)


def tell(users: list[Any], key: str, kind: str = Notification.Kind.TABLE_READY) -> None:
    with transaction.atomic():  # told after the commit, as a service tells
        notify(users, kind, key, params=PARAMS, link="/tables/9/")


def test_an_open_page_is_told_at_once_in_its_language(player: Any, cookie: str) -> None:
    other = get_user_model().objects.create_user("bob", password="pw-bob-12345")
    tell([player], "table:0")  # one unread before the page opens
    other_cookie = session_cookie(other)

    async def run() -> None:
        english, finnish = inbox(cookie), inbox(cookie, "fi")
        theirs = inbox(other_cookie)
        for page in (english, finnish, theirs):
            connected, _ = await page.connect(timeout=TIMEOUT)
            assert connected
        assert await english.receive_json_from(timeout=TIMEOUT) == {"type": "unread",
                                                                     "unread": 1}
        assert (await finnish.receive_json_from(timeout=TIMEOUT))["unread"] == 1
        assert (await theirs.receive_json_from(timeout=TIMEOUT))["unread"] == 0
        await database_sync_to_async(tell)([player], "table:1")
        assert await english.receive_json_from(timeout=TIMEOUT) == {
            "type": "notice", "unread": 2, "kind": "table_ready", "prominent": True,
            "link": "/tables/9/",
            "text": "Your table is ready: table 5, round 2 of Spring cup."}
        told = await finnish.receive_json_from(timeout=TIMEOUT)
        assert told["text"] == "Pöytäsi on valmis: pöytä 5, turnauksen Spring cup kierros 2."
        assert await theirs.receive_nothing(timeout=0.3)
        await database_sync_to_async(tell)([player], "table:1")  # told already: nothing
        await database_sync_to_async(tell)([player], "ended:1", Notification.Kind.ENDED)
        ended = await english.receive_json_from(timeout=TIMEOUT)
        assert (ended["unread"], ended["prominent"]) == (3, False)
        for page in (english, finnish, theirs):
            await page.disconnect()

    async_to_sync(run)()


def test_a_step_rolled_back_tells_no_page(player: Any, cookie: str) -> None:
    def rolled_back() -> None:
        with transaction.atomic():
            notify([player], Notification.Kind.TABLE_READY, "table:1", params=PARAMS)
            transaction.set_rollback(True)

    async def run() -> None:
        page = inbox(cookie)
        assert (await page.connect(timeout=TIMEOUT))[0]
        await page.receive_json_from(timeout=TIMEOUT)
        await database_sync_to_async(rolled_back)()
        assert await page.receive_nothing(timeout=0.3)
        await page.disconnect()

    async_to_sync(run)()


def test_a_visitor_is_refused() -> None:
    async def run() -> None:
        connected, code = await inbox(None).connect(timeout=TIMEOUT)
        assert (connected, code) == (False, 4403)

    async_to_sync(run)()
