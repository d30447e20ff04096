"""Chat at a live table: what may be said, by whom, and who reads it.

Two channels per table. The people holding its seats talk on ``table``, which all four
read: there is no private line between partners, as in bridge, so nobody can tell their
partner what the table does not hear. Its spectators talk on ``spectators``, which the
people at the table do not read while the game is played (a spectator sees the table
from outside and might tell them something), and read once it is over. A spectator
never reads the people's channel. The app that seated a table may close its chat
(``kinds.chat_open``): a duplicate round's tables stay silent until it is released, as
the other tables play the same cards. Nothing of a closed chat is sent, its history
neither.

A line is stored (``ChatMessage``, kept with the table) before anyone reads it, at most
``frames.MAX_CHAT_CHARS`` characters (the frame reader refuses longer or empty ones), and a
user says at most ``BURST`` lines in any ``WINDOW`` (counted under the user's row lock, so
two tabs cannot both take the last place). Only a
logged-in person speaks or reports; anyone who may watch reads the spectators' channel.
Its text goes to the pages as text, never as markup (the page sets ``textContent``).
A mute is the reader's own: the page keeps the people it hides (``chat.js``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import kinds, rows
from .errors import TableError
from .models import ChatMessage, ChatReport, LiveTable

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    User = AbstractBaseUser | AnonymousUser | None

#: A user says at most ``BURST`` lines in any ``WINDOW`` (at every table together).
BURST = 5
WINDOW = timedelta(seconds=30)
#: The lines a connection is given on connecting: the last of its channels.
HISTORY = 50

Line = dict[str, Any]


class ChatRefused(TableError):
    """A line or a report refused: nothing stored. ``field``: the message's field at
    fault (``text``, ``message``), or None where the message itself may not be sent."""

    code = "chat_refused"

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


def channel_of(seat: int | None) -> str:
    """The channel a person speaks on: the table's for one holding a seat."""
    return ChatMessage.Channel.SPECTATORS if seat is None else ChatMessage.Channel.TABLE


def may_read(channel: str, seat: int | None, over: bool) -> bool:
    """Whether a connection holding ``seat`` (None: a spectator) reads ``channel`` at a
    table whose game is ``over`` or not."""
    if seat is None:
        return channel == ChatMessage.Channel.SPECTATORS
    return channel == ChatMessage.Channel.TABLE or over


def is_over(table: LiveTable) -> bool:
    return table.status != LiveTable.Status.PLAYING


def shown(message: ChatMessage, username: str) -> Line:
    """A line as the pages get it: ``author`` (the user's id) is what a mute hides,
    ``seat`` names a person at the table (their seat's name), ``name`` a spectator."""
    return {"id": message.pk, "channel": message.channel, "seat": message.seat,
            "name": username, "author": message.user_id, "text": message.text,
            "at": message.created.isoformat()}


def post(table_id: int, user: User, seat: int | None, text: str) -> tuple[Line, bool]:
    """Store ``user``'s line ``text`` (holding ``seat``, None: a spectator; its length and
    emptiness checked by ``frames``); the line as the pages get it, and whether the table's
    game is over (who reads it: ``may_read``). ``ChatRefused`` for a visitor not logged
    in, a closed chat or a user over the rate limit."""
    if user is None or not user.is_authenticated:
        raise ChatRefused(_("Log in to chat."))
    table = _open_table(table_id)
    with transaction.atomic():
        # one user's lines are counted one after the other: two tabs at once, the second
        # sees the first's line
        get_user_model().objects.select_for_update().filter(pk=user.pk).values_list(
            "pk").first()
        now = timezone.now()
        recent = ChatMessage.objects.filter(user_id=user.pk, created__gt=now - WINDOW)
        if recent.count() >= BURST:
            raise ChatRefused(ngettext(
                "You may send at most %(count)s chat message in %(seconds)s seconds; wait a "
                "moment.", "You may send at most %(count)s chat messages in %(seconds)s "
                "seconds; wait a moment.", BURST)
                % {"count": BURST, "seconds": int(WINDOW.total_seconds())})
        message = ChatMessage.objects.create(table=table, channel=channel_of(seat),
                                             user_id=user.pk, seat=seat, text=text)
    return shown(message, user.get_username()), is_over(table)


def history(table_id: int, seat: int | None) -> list[Line]:
    """The last ``HISTORY`` lines a connection holding ``seat`` reads, oldest first; none
    while the table's chat is closed."""
    table = rows.read_table(table_id)
    if table is None or not kinds.chat_open(table):
        return []
    channels = [c for c in ChatMessage.Channel if may_read(c, seat, is_over(table))]
    found = list(ChatMessage.objects.filter(table_id=table_id, channel__in=channels)
                 .select_related("user").order_by("-pk")[:HISTORY])
    return [shown(message, message.user.get_username()) for message in reversed(found)]


def report(table_id: int, user: User, seat: int | None, message_id: int) -> None:
    """``user`` reports the line ``message_id`` to the organisers (once; a second report
    of the same line stands as the first). ``ChatRefused`` (field ``message``) for a line
    not of this table, one they do not read, or their own."""
    if user is None or not user.is_authenticated:
        raise ChatRefused(_("Log in to report a chat message."))
    table = _open_table(table_id)
    message = ChatMessage.objects.filter(pk=message_id, table_id=table_id).first()
    if message is None or not may_read(message.channel, seat, is_over(table)):
        raise ChatRefused(_("There is no chat message %(number)s at this table for you to "
                            "report.") % {"number": message_id}, "message")
    if message.user_id == user.pk:
        raise ChatRefused(_("That chat message is your own."), "message")
    ChatReport.objects.get_or_create(message=message, reporter_id=user.pk)


def _open_table(table_id: int) -> LiveTable:
    table = rows.read_table(table_id)
    if table is None:
        raise ChatRefused(_("This table no longer exists."))
    if not kinds.chat_open(table):
        raise ChatRefused(_("This table's chat is closed: its round's boards are still "
                            "secret, so nobody at it may chat until they are released."))
    return table
