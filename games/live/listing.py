"""The tables running now, as ``/tables/`` lists them: a person's own first, then those
the visitor may watch (the tournament's spectator setting decides, as it does for the
table's page: ``kinds.may_watch``), each with its hand and who sits where. No card: where
a game stands comes from its scores (``summary``), never from a view of the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import kinds, naming, summary
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
    """One table in a list: its number, the hand in play (1 to 5), who sits in each seat
    (seat 0 first: ``naming``'s names, a person's whether or not a bot plays for them) and
    what it is played for (its event in words; "" for none)."""

    table_id: int
    hand_no: int
    seats: list[naming.SeatName]
    event: str
    tournament: bool  # a table of an event (it reports its result to one)


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
    tables = LiveTable.objects.in_bulk(list(found))
    seats: dict[int, list[LiveSeat]] = {}
    for seat in LiveSeat.objects.filter(table__in=list(found)).select_related("user"):
        seats.setdefault(seat.table_id, []).append(seat)
    names = naming.names_of(list(tables.values()), seats)

    def listed(pk: int) -> Listed:
        return Listed(pk, found[pk].progress.hand_no, names[pk].seats, names[pk].event_words,
                      bool(tables[pk].reports_to))

    return Lists([listed(pk) for pk in mine_ids if pk in found],
                 [listed(pk) for pk in watchable if pk in found], more)
