"""Limits on practice tables: how many one user may hold open at once, and how long one
nobody plays at stays open.

A practice table is one nobody waits for (no ``reports_to``: no match or other caller
waits for its result). Each open one costs the server its follow-ups for as long as it is open (the
sweep's questions, the stand-in's timers), so a user holds at most
``LIVE_MAX_OPEN_PRACTICE_TABLES`` at once, and a table nobody acted at for
``LIVE_ABANDON_AFTER`` is ended: status ``abandoned``, no deadline, no more actions.
A table for friends (``friends``) counts as one for everyone seated at it, while it waits
and, as the practice table it becomes, once started; one nobody starts for
``LIVE_ABANDON_AFTER`` after its last seat was taken is ended too.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .errors import TableError
from .models import FriendTable, LiveAction, LiveTable

if TYPE_CHECKING:
    from django.contrib.auth.models import User

#: Tables ended in one UPDATE at most (the statement lists each table's id and number).
ABANDON_BATCH = 500


def open_practice_tables(user: User) -> list[int]:
    """The ids of the unfinished practice tables where ``user`` holds a seat they have not
    left (``quitting``), oldest first."""
    return list(LiveTable.objects.filter(status=LiveTable.Status.PLAYING, reports_to="",
                                         seats__user=user, seats__left__isnull=True)
                .order_by("pk").values_list("pk", flat=True).distinct())


def waiting_friend_tables(user: User) -> list[int]:
    """The ids of the tables for friends not yet started where ``user`` has a seat (as
    host or friend), oldest first."""
    return list(FriendTable.objects.filter(status=FriendTable.Status.WAITING, seats__user=user)
                .order_by("pk").values_list("pk", flat=True).distinct())


def check_open_tables(user: User) -> None:
    """``TableError`` when ``user`` already holds ``LIVE_MAX_OPEN_PRACTICE_TABLES``
    unfinished practice tables (a table for friends still waiting counts as one). Call it
    inside the transaction that then creates the table (or seats the user): it locks the
    user's row until that transaction ends, so two "Play now"s of one user count one after
    the other and the second sees the first's table."""
    limit = settings.LIVE_MAX_OPEN_PRACTICE_TABLES
    if not limit:
        return
    if connection.get_autocommit():  # SQLite would not say so itself: it has no row locks
        raise transaction.TransactionManagementError(
            "check_open_tables() must run inside the transaction that creates the table")
    get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk").first()
    tables, waiting = open_practice_tables(user), waiting_friend_tables(user)
    count = len(tables) + len(waiting)
    if count >= limit:
        raise TableError(ngettext(
            "You already have %(count)s practice table open (%(tables)s); finish it before "
            "you start another. A table nobody plays at for %(hours)s hours ends by itself.",
            "You already have %(count)s practice tables open (%(tables)s); finish one before "
            "you start another. A table nobody plays at for %(hours)s hours ends by itself.",
            count) % {"count": count, "tables": table_names(tables, waiting),
                      "hours": abandon_hours()})


def table_names(tables: Sequence[int], waiting: Sequence[int] = ()) -> str:
    """``table 12, table 15, waiting table for friends 3``: tables (and tables for friends
    not yet started) as a sentence names them."""
    return ", ".join([*(_("table %(number)s") % {"number": pk} for pk in tables),
                      *(_("waiting table for friends %(number)s") % {"number": pk}
                        for pk in waiting)])


def abandon_hours() -> str:
    """``LIVE_ABANDON_AFTER`` in hours, for people (``24``, ``1.5``)."""
    return f"{settings.LIVE_ABANDON_AFTER.total_seconds() / 3600:g}"


def check_not_abandoned(table: LiveTable) -> None:
    """``TableError`` when ``table`` was ended for want of play: it takes no more actions."""
    if table.status == LiveTable.Status.ABANDONED:
        raise TableError(
            _("This table was ended after %(hours)s hours without play; it takes no more "
              "moves. Start a new game with Play now.") % {"hours": abandon_hours()})


def end_abandoned_tables(now: datetime | None = None) -> int:
    """End the practice tables nobody acted at for ``LIVE_ABANDON_AFTER`` before ``now``
    (the last action's time, or the table's own without actions), and the tables for
    friends nobody started that long after their last seat was taken (or their opening);
    how many were ended.

    One UPDATE per batch, each table named with the sequence number it was found idle at.
    A person acting meanwhile holds the table's row lock: the UPDATE waits for it and then
    checks the row again (PostgreSQL re-evaluates its condition on the row as committed),
    and a table whose number moved on is left playing. Had the UPDATE locked the row first,
    the action, taken under the same lock, finds the table abandoned and is refused."""
    cutoff = (now or timezone.now()) - settings.LIVE_ABANDON_AFTER
    recent = LiveAction.objects.filter(table=OuterRef("pk"), created__gte=cutoff)
    idle = list(LiveTable.objects.filter(status=LiveTable.Status.PLAYING, reports_to="",
                                         created__lt=cutoff)
                .filter(~Exists(recent)).order_by("pk").values_list("pk", "seq"))
    ended = 0
    for start in range(0, len(idle), ABANDON_BATCH):
        found = Q()
        for pk, seq in idle[start:start + ABANDON_BATCH]:
            found |= Q(pk=pk, seq=seq)
        ended += (LiveTable.objects.filter(found, status=LiveTable.Status.PLAYING)
                  .update(status=LiveTable.Status.ABANDONED, deadline=None))
    # A seat taken or the start, meanwhile, holds the waiting table's row lock and changes
    # ``active`` or the status, which the UPDATE checks again on the committed row.
    ended += (FriendTable.objects.filter(status=FriendTable.Status.WAITING, active__lt=cutoff)
              .update(status=FriendTable.Status.ABANDONED))
    return ended
