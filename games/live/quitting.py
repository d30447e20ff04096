"""A person's way out of a practice table or a table for friends: resigning the game, or
leaving the table to a bot. Each is taken under the table's row lock, as every action is,
and told to the table's connections once committed.

Only a table nobody waits for (no ``reports_to``: practice and friends' tables) offers
either: a tournament's game is its match's result, played out to the end (a person gone
has their substitute play for them, and the director decides the rest), so there they are
refused.

- **Resign**: the game ends at once for everyone at the table (status ``resigned``, the
  seat that resigned stored with it); its record is the game so far, its ``end`` saying
  who resigned, so it can be replayed as a finished game is. No deadline and no more
  actions: the bots' and the timers' tasks find it no longer in play.
- **Leave**: the person's substitute plays their seat for the rest of the game (as the
  director's pin does), the table no longer counts among their open tables
  (``limits``), and they see it from then on as a spectator (``service.seat_of``).
"""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from . import limits, rows, service
from .errors import TableError
from .models import LiveSeat, LiveTable
from .state import replay
from .turns import after_commit, announce, stop_clock
from .updates import log_texts, no_table

#: The ``end`` of a resigned game's record: ``{"by": "resigned", "seat": 2}``
#: (push-record readers ignore keys they do not know).
RESIGNED = "resigned"


def _open(table_id: int, seat: int) -> rows.Locked:
    """The table, locked, when ``seat`` is a person's at a practice or friends' table still
    in play, not left; ``TableError`` saying why not otherwise (nothing changed)."""
    locked = rows.lock_table(table_id)
    if locked is None:
        raise no_table(table_id)
    table = locked.table
    if table.reports_to:
        raise TableError(_("A tournament's game is played to its end: it cannot be resigned "
                           "or left here. A bot plays for a person who is gone."))
    if table.status == LiveTable.Status.RESIGNED:
        raise TableError(_("The game is over: it was resigned."))
    if table.status == LiveTable.Status.FINISHED:
        raise TableError(_("The game is over."), "R3.1")
    limits.check_not_abandoned(table)
    if table.status != LiveTable.Status.PLAYING:
        raise TableError(_("This table was ended before the game finished."))
    if seat not in range(4) or not locked.person(seat) or locked.states[seat].pinned:
        raise TableError(_("You do not hold a seat at this table."))
    return locked


def resign(table_id: int, seat: int) -> None:
    """The person at ``seat`` resigns: the game ends at once, its record the game so far
    with who resigned (``end``)."""
    with transaction.atomic():
        locked = _open(table_id, seat)
        table = locked.table
        mover = service.to_move(table)
        if mover is not None and table.turn_started is not None:
            stop_clock(locked, mover)
        table.deadline = table.turn_started = None
        table.status, table.resigned_seat = LiveTable.Status.RESIGNED, seat
        live = replay(table.seed, log_texts(table))
        record = service.marked_record(live.record(service.players(table)).to_json(), locked)
        record["end"] = {"by": RESIGNED, "seat": seat}
        table.record = record
        rows.write_table(locked, "status", "resigned_seat", "record", "deadline",
                         "turn_started")
        transaction.on_commit(partial(announce, table_id, table.seq, changed=True))


def leave(table_id: int, seat: int) -> None:
    """The person at ``seat`` leaves the table: its substitute plays the seat for the rest
    of the game, from the turn it finds (theirs, if it is). A table whose people have all
    left begins, if it awaited them: its bots play it out."""
    with transaction.atomic():
        locked = _open(table_id, seat)
        table = locked.table
        mover = service.to_move(table)
        if mover == seat and not locked.levels[seat]:
            stop_clock(locked, seat)
        state = locked.states[seat]
        state.pinned = state.away = True
        LiveSeat.objects.filter(table_id=table_id, seat=seat).update(left=timezone.now())
        if table.awaiting and all(locked.states[s].pinned for s in range(4)
                                  if locked.person(s)):
            table.awaiting = False
        rows.write_table(locked, "deadline", "turn_started", "awaiting")
        after_commit(locked, mover, locked.bot_seats, changed=True)
