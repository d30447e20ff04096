"""The tables running now, as ``/tables/`` lists them: a person's own first, then those
the visitor may watch (the tournament's spectator setting decides, as it does for the
table's page: ``kinds.may_watch``), each with its hand and who sits where. No card: where
a game stands comes from its scores (``summary``), never from a view of the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from games.vocabulary import bot_label

from . import kinds, summary
from .models import LiveSeat, LiveTable

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser

#: At most this many tables in each list: the newest (a page, not an archive).
SHOWN = 30
#: The newest tables in play looked at for the watchable list: a tournament's may be
#: refused to the visitor one by one (a query each), so the scan is bounded too.
SCANNED = 4 * SHOWN


@dataclass(frozen=True)
class Listed:
    """One table in a list: its number, the hand in play (1 to 5) and who sits in each
    seat (seat 0 first: a username, or ``""`` for a bot, with its level's label)."""

    table_id: int
    hand_no: int
    seats: list[tuple[str, str]]  # (username or "", bot level or "")
    tournament: bool  # a tournament's table (it reports its result to one)


@dataclass(frozen=True)
class Lists:
    mine: list[Listed]
    watchable: list[Listed]
    more: bool  # more tables are running than the watchable list shows


def tables_now(user: AbstractBaseUser | AnonymousUser) -> Lists:
    """The tables in play where ``user`` holds a seat (none when logged out), and the
    others ``user`` may watch, newest first, at most :data:`SHOWN` of each."""
    playing = LiveTable.objects.filter(status=LiveTable.Status.PLAYING).order_by("-pk")
    mine_ids: list[int] = []
    if user.is_authenticated:
        mine_ids = list(LiveSeat.objects.filter(user_id=user.pk, left__isnull=True,
                                                table__status=LiveTable.Status.PLAYING)
                        .order_by("-table_id").values_list("table_id", flat=True)[:SHOWN])
    watchable: list[int] = []
    scanned = list(playing.exclude(pk__in=mine_ids)[:SCANNED + 1])
    for table in scanned[:SCANNED]:
        if len(watchable) > SHOWN:
            break
        if kinds.may_watch(table, user):
            watchable.append(table.pk)
    more = len(watchable) > SHOWN or len(scanned) > SCANNED
    watchable = watchable[:SHOWN]
    found = summary.summaries([*mine_ids, *watchable])
    reports = dict(LiveTable.objects.filter(pk__in=found).values_list("pk", "reports_to"))
    return Lists([_listed(found[pk], reports[pk]) for pk in mine_ids if pk in found],
                 [_listed(found[pk], reports[pk]) for pk in watchable if pk in found], more)


def _listed(table: summary.TableSummary, reports_to: str) -> Listed:
    return Listed(table.table_id, table.progress.hand_no,
                  [(seat.username, "" if seat.person else bot_label(seat.bot))
                   for seat in table.seats],
                  bool(reports_to))
