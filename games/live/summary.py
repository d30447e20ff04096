"""What the director's view and a round's page show of live tables: where each game
stands, whose turn it is, the clocks, and for each seat whether a person or a bot plays
it and whether its person is connected. No card of any hand: it is built from the game's
scores and the tables' rows, never from a view of the table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from django.utils import timezone

from . import presence, seating, service
from .models import LiveAction, LiveSeat, LiveTable


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    person: bool  # a person holds the seat (whoever plays it now)
    username: str
    bot: str  # who plays it now: its own bot, or the person's substitute ("": the person)
    pinned: bool
    connected: bool
    reserve: float | None
    bot_actions: int  # the actions a bot played for the person


@dataclass(frozen=True)
class TableSummary:
    table_id: int
    status: str
    progress: service.Progress
    paused: bool
    time_left: float | None
    message: str
    seats: list[SeatSummary]

    @property
    def playing(self) -> bool:
        return self.status == LiveTable.Status.PLAYING


def summaries(table_ids: Iterable[int]) -> dict[int, TableSummary]:
    """The tables ``table_ids`` (those that exist), by id."""
    tables = list(LiveTable.objects.filter(pk__in=list(table_ids)).order_by("pk"))
    seats: dict[int, list[LiveSeat]] = {}
    for seat in LiveSeat.objects.filter(table__in=tables).select_related("user"):
        seats.setdefault(seat.table_id, []).append(seat)
    server = Counter(LiveAction.objects.filter(table__in=tables, client_id__startswith="!")
                     .values_list("table_id", "seat"))
    now = timezone.now()
    found = {}
    for table in tables:
        states = seating.load(table.seating)
        rows = []
        for seat in sorted(seats.get(table.pk, []), key=lambda s: s.seat):
            state = states[seat.seat]
            person = seat.user is not None
            rows.append(SeatSummary(
                seat.seat, person, seat.user.get_username() if seat.user else "",
                seating.level(seat.bot, seat.substitute, state), state.pinned,
                person and presence.connected(seat.seen, now), state.reserve,
                server[(table.pk, seat.seat)] if person else 0))
        found[table.pk] = TableSummary(
            table.pk, table.status, service.progress(table), table.paused_at is not None,
            seating.seconds_left(table.deadline, table.paused_at, now)
            if table.status == LiveTable.Status.PLAYING else None, table.message, rows)
    return found
