"""The tables running now, as ``/tables/`` lists them: a person's own first, then those
the visitor may watch (the tournament's spectator setting decides, as it does for the
table's page: ``kinds.may_watch``), each with its hand and who sits where. No card: where
a game stands comes from its scores (``summary``), never from a view of the table. The
others' tables come from a scan kept a few seconds for every visitor (:func:`_public`): at
a round's start many open the list at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.utils.translation import get_language

from . import kinds, naming, summary
from .models import LiveSeat, LiveTable

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser

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
    """The tables in play where ``user`` holds a seat (none when logged out), read now, and
    the others ``user`` may watch, newest first, at most :data:`SHOWN` of each. The
    watchable ones come from the shared scan (:func:`_public`), at most
    :data:`FRESH_SECONDS` old: a table the public may watch is listed for anyone, one it
    may not is asked of ``kinds.may_watch`` for this ``user`` (never for a visitor not
    logged in, whom the scan answered)."""
    mine_ids: list[int] = []
    if user.is_authenticated:
        mine_ids = list(LiveSeat.objects.filter(user_id=user.pk, left__isnull=True,
                                                table__status=LiveTable.Status.PLAYING)
                        .order_by("-table_id").values_list("table_id", flat=True)[:SHOWN])
    scan = _public()
    mine = set(mine_ids)
    closed = LiveTable.objects.in_bulk([pk for pk, public in scan.tables[:SCANNED]
                                        if public is False and pk not in mine
                                        and user.is_authenticated])
    watchable: list[int] = []
    for pk, public in scan.tables[:SCANNED]:
        if len(watchable) > SHOWN or public is None:  # past enough (``_public``)
            break
        if pk not in mine and (public or (pk in closed and kinds.may_watch(closed[pk], user))):
            watchable.append(pk)
    more = len(watchable) > SHOWN or len(scan.tables) > SCANNED
    watchable = watchable[:SHOWN]
    found = scan.listed | _listed([pk for pk in [*mine_ids, *watchable]
                                   if pk in mine or pk not in scan.listed])
    return Lists([found[pk] for pk in mine_ids if pk in found],
                 [found[pk] for pk in watchable if pk in found], more)


#: Seconds the shared scan of the tables in play is kept (``/tables/`` at a round's start,
#: opened by many at once, reads the tables once in that time rather than once a visitor):
#: a table begun or ended may be listed that late to those who do not sit at it.
FRESH_SECONDS = 5


@dataclass(frozen=True)
class _Scan:
    tables: list[tuple[int, bool | None]]  # the newest in play (SCANNED + 1), the public's
    # answer (None: not asked, past enough that it allows)
    listed: dict[int, Listed]  # the first SHOWN of those the public may watch, listed


def _public() -> _Scan:
    """The scan every visitor's list starts from, kept :data:`FRESH_SECONDS` for all (one
    a language: the event's words are translated). Only the public's answers are kept:
    whom ``kinds.may_watch`` lets a visitor not logged in watch, a kind's policy lets
    every logged-in one watch too (``kinds.on_watch``), so the public's yes holds for
    anyone, and a no is asked again for the person: the one rule still decides."""
    key = f"live:tables-now:{SHOWN}:{get_language()}"
    kept: _Scan | None = cache.get(key)
    if kept is not None:
        return kept
    public = AnonymousUser()
    scanned = list(LiveTable.objects.filter(status=LiveTable.Status.PLAYING)
                   .order_by("-pk")[:SCANNED + 1])
    tables: list[tuple[int, bool | None]] = []
    shown: list[int] = []
    for table in scanned[:SCANNED]:
        # a visitor's own tables (SHOWN at most) leave the list: past this many the public
        # may watch, nobody's list reaches the tables not asked about (None)
        asked = len(shown) <= 2 * SHOWN
        tables.append((table.pk, kinds.may_watch(table, public) if asked else None))
        if tables[-1][1]:
            shown.append(table.pk)
    tables += [(table.pk, False) for table in scanned[SCANNED:]]  # only says there are more
    made = _Scan(tables, _listed(shown[:SHOWN]))
    cache.set(key, made, FRESH_SECONDS)
    return made


def _listed(table_ids: list[int]) -> dict[int, Listed]:
    """The tables ``table_ids`` still in play, listed, by id: a few queries for them all."""
    if not table_ids:
        return {}
    found = summary.summaries(table_ids)
    tables = LiveTable.objects.in_bulk(list(found))
    seats: dict[int, list[LiveSeat]] = {}
    for seat in LiveSeat.objects.filter(table__in=list(found)).select_related("user"):
        seats.setdefault(seat.table_id, []).append(seat)
    names = naming.names_of(list(tables.values()), seats)
    return {pk: Listed(pk, found[pk].progress.hand_no, names[pk].seats,
                       names[pk].event_words, bool(tables[pk].reports_to))
            for pk in found}
