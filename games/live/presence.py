"""Who is at a live table, and their substitutes (LIVE.md "Substitutes", "Liveness").

A person's client sends a heartbeat every ``HEARTBEAT_SECONDS``; connecting, each
heartbeat and leaving are signs of life, stored as the seat's ``seen`` (a heartbeat at
most every ``WRITE_EVERY`` seconds). A person seen by nobody for longer than the table's
grace (``LiveTable.grace_seconds``), or who has not come since the table opened that
long ago, is *away*: their seat's substitute bot plays the turns they miss, from the
very point of the turn it finds. Their next sign of life gives them the seat back (unless
the director pinned the substitute), at the point the substitute left it. Both happen
under the table's row lock, where every action is taken, so a return and a bot's move
for the same turn end in exactly one action: whichever takes the lock first, and the
other finds the table moved on or the seat no longer its own.

Leaving schedules the away check for when the grace would end; the sweep (every 15 s)
catches the connections that end without saying so.

Each sign of life also stores what the person's page says of itself (``LiveSeat.tab``:
shown, hidden or closed, and its ``lag``), so each seat shows its person to the table as
connected, away or gone (``SeatPresence``); the consumer tells the table's group each
change, and only a change: a heartbeat that tells nothing new costs one UPDATE, as it
did before. A page that vanished without closing its socket is gone once the server's
websocket pings find it dead (uvicorn's and daphne's, every 20 s by default, close it
within a minute), and a page connecting meanwhile is told gone after
``CONNECTED_SECONDS`` of silence. A person with two tabs
who closes one shows gone until the other's next heartbeat.

A heartbeat's write does not wait for the disk: on PostgreSQL its transaction commits with
``synchronous_commit`` off (for that transaction alone), so a crash in the moment after
may lose it, which is harmless (the next heartbeat writes it again), and at a big round's
start its thousands a second do not queue for the disk's flushes beside the actions, which
keep their full durability (docs/operating/capacity.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from config.sending import send

from . import kinds, rows, seating, service
from .followups import TASKS
from .models import LiveSeat, LiveTable
from .turns import after_commit, start_turn, stop_clock

#: How often a person's client sends a heartbeat (table.js reads it from the page).
HEARTBEAT_SECONDS = 10
#: A seat whose last sign of life is older than this is shown as not connected.
CONNECTED_SECONDS = 25
#: A seat's heartbeat is written at most this often.
WRITE_EVERY = 5
#: A lag that moved by less than this share of itself is not told to the table again.
LAG_STEP = 0.3


def heard(table_id: int, seat: int, *, leaving: bool = False, arriving: bool = False,
          hidden: bool | None = None, lag: int | None = None) -> SeatPresence | None:
    """A sign of life from the person at ``seat``: stored (a heartbeat at most every
    ``WRITE_EVERY`` seconds, at once when it tells something new), with whether their
    page is ``hidden`` and its ``lag`` (ms) when it says them; one who is away is back;
    one who leaves is checked on once the grace has passed. What the table is to be told
    of the seat: on arriving, on leaving and when the heartbeat tells something new (the
    tab hidden or shown, the lag moved by more than ``LAG_STEP``); else None."""
    now = timezone.now()
    tab = (LiveSeat.Tab.CLOSED if leaving else LiveSeat.Tab.HIDDEN if hidden
           else LiveSeat.Tab.SHOWN)
    seats = LiveSeat.objects.filter(table_id=table_id, seat=seat, user__isnull=False)
    changes: dict[str, object] = {"seen": now, "tab": tab}
    if lag is not None:
        changes["lag_ms"] = lag
    told: SeatPresence | None = SeatPresence(seat, shown_as(tab, now, now), lag)
    heartbeat = not (leaving or arriving)
    with unflushed() if heartbeat else nullcontext():
        if heartbeat:
            # the usual heartbeat tells nothing new: one UPDATE, nobody told
            same = Q(tab=tab) if lag is None else Q(tab=tab, lag_ms__range=_near(lag))
            if seats.filter(same).exclude(seen__gte=now - timedelta(seconds=WRITE_EVERY)
                                          ).update(**changes):
                told = None
            else:
                seats = seats.exclude(same)  # new, or written a moment ago
        if told is not None and not seats.update(**changes):
            return None
    table = rows.read_table(table_id)
    if table is None or table.status != LiveTable.Status.PLAYING:
        return told
    if leaving:
        if table.grace_seconds is not None:
            send(TASKS + "live_away_check", (table_id,), countdown=table.grace_seconds + 1)
        return told
    if seating.load(table.seating)[seat].away:
        come_back(table_id, seat)
    return told


@contextmanager
def unflushed() -> Iterator[None]:
    """A transaction whose commit does not wait for the disk's flush: on PostgreSQL,
    ``synchronous_commit`` off for this transaction only (``SET LOCAL``, which a pooler in
    transaction mode keeps to it too). Inside a caller's transaction, or on SQLite (whose
    writes are ``make run``'s, not a round's), nothing changes: the work runs as it
    would without it, with the caller's durability."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit = off")
        yield


def _near(lag: int) -> tuple[int, int]:
    """The lags a page shows as ``lag`` still: within ``LAG_STEP`` of it (at least 20 ms)."""
    step = max(20, int(lag * LAG_STEP))
    return lag - step, lag + step


def come_back(table_id: int, seat: int) -> bool:
    """The person at ``seat`` takes their seat back from its substitute (not from one the
    director pinned); their clock starts if it is their turn. Whether it changed."""
    with transaction.atomic():
        locked = rows.lock_table(table_id)
        if locked is None or locked.table.status != LiveTable.Status.PLAYING:
            return False
        state = locked.states[seat]
        if not state.away or state.pinned:
            return False
        state.away = False
        table = locked.table
        mover = service.to_move(table)
        mine = mover == seat and table.paused_at is None
        if mine:
            start_turn(locked, mover)
        rows.write_table(locked, "deadline", "turn_started")
        after_commit(locked, mover, set(), changed=True)
    return True


def check_away(table_id: int) -> list[int]:
    """Let the substitutes play for the people gone longer than the grace; their seats.
    Nothing at a table without a grace, paused, over or awaiting its first person; a person
    not yet seen is gone from when the table began (or was opened, for one that awaited
    nobody)."""
    now = timezone.now()
    with transaction.atomic():
        locked = rows.lock_table(table_id)
        if locked is None:
            return []
        table = locked.table
        if (table.status != LiveTable.Status.PLAYING or table.grace_seconds is None
                or table.paused_at is not None or table.awaiting):
            return []
        cutoff = now - timedelta(seconds=table.grace_seconds)
        gone = []
        for seat, seen in LiveSeat.objects.filter(table_id=table_id, user__isnull=False
                                                  ).values_list("seat", "seen"):
            state = locked.states[seat]
            if not (state.away or state.pinned) and (seen or table.began or table.created
                                                      ) < cutoff:
                state.away = True
                gone.append(seat)
        if not gone:
            return []
        mover = service.to_move(table)
        if mover in gone:
            stop_clock(locked, mover)
        rows.write_table(locked, "deadline", "turn_started")
        after_commit(locked, mover, locked.bot_seats, changed=True)
        kinds.substituted(table, gone)  # the people are told with the mark, or neither
    return gone


def connected(seen: datetime | None, now: datetime | None = None) -> bool:
    """Whether a seat last seen at ``seen`` counts as connected."""
    return seen is not None and seen >= (now or timezone.now()) - timedelta(
        seconds=CONNECTED_SECONDS)


@dataclass(frozen=True)
class SeatPresence:
    """How a seat shows its person: ``state`` one of ``STATES``, and their page's ``lag``
    (ms; None: not known)."""

    seat: int
    state: str
    lag: int | None

    def as_dict(self) -> dict[str, object]:
        return {"seat": self.seat, "state": self.state, "lag": self.lag}


#: How a seat shows its person: their page open and shown, open in a hidden tab, or
#: closed (or silent for longer than ``CONNECTED_SECONDS``).
STATES = ("connected", "away", "gone")


def shown_as(tab: str, seen: datetime | None, now: datetime) -> str:
    """The state (one of ``STATES``) of a person whose page said ``tab`` at ``seen``."""
    if tab == LiveSeat.Tab.CLOSED or not connected(seen, now):
        return "gone"
    return "away" if tab == LiveSeat.Tab.HIDDEN else "connected"


def seats_now(table_id: int) -> list[SeatPresence]:
    """How each seat of a person at the table shows them now (for a new connection: the
    table tells it each change after)."""
    now = timezone.now()
    return [SeatPresence(seat, shown_as(tab, seen, now), lag)
            for seat, tab, seen, lag in LiveSeat.objects.filter(
                table_id=table_id, user__isnull=False).order_by("seat").values_list(
                "seat", "tab", "seen", "lag_ms")]
