"""A person's open pages: the per-user channel group that tells them, at once, of what the
site has to tell them (a notification), and the count of what they have not read.

``games`` knows nothing of what a notification says or where it is kept: the app that tells
registers, at start-up, how one is worded in the active language and how a person's unread
ones are counted (:func:`register`); the consumer (``consumers.InboxConsumer``) asks it.
The layer carries only the notification's kind, its values and its link: at most once, as
every notice on it (a page that misses one shows the right count at its next load).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .notify import group_send_all

Notice = dict[str, Any]  # "kind", "params", "link": JSON values


@dataclass(frozen=True)
class Inbox:
    #: the notice's words and where it leads, in the active language: "text", "link",
    #: "prominent" (a link the reader must follow now, as a table that is ready)
    word: Callable[[Notice], dict[str, Any]]
    #: how many notifications the user of this id has not read (a database read)
    unread: Callable[[int], int]


_inbox: Inbox | None = None
_lock = threading.Lock()


def register(inbox: Inbox) -> None:
    """Set how notices are worded and counted (the telling app's ``ready()``)."""
    global _inbox
    with _lock:
        _inbox = inbox


def registered() -> Inbox | None:
    return _inbox


def user_group(user_id: int) -> str:
    """The group of every open page of the user of this id."""
    return f"inbox-{user_id}"


def tell_each(notices: Iterable[tuple[int, Notice]]) -> None:
    """Tell each user's open pages of their notice (call it after the commit that wrote
    them): ``(user id, notice)`` pairs."""
    group_send_all([(user_group(user_id), {"type": "inbox.notice", "notice": notice})
                    for user_id, notice in notices])
