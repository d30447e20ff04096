"""A live table's turns: starting and stopping the clock of the person to move, and what
goes out once a change commits (the notice, the next bot's move, the turn's timer, the
report of a finished game). Used under the table's row lock by every door that changes a
table: the table service (actions), the substitutes (``presence``) and the director.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from config.sending import send

from . import notify, pacing, seating
from .followups import TASKS
from .models import LiveTable
from .rows import Locked

log = logging.getLogger(__name__)

#: The bot that finishes a person's turn whose time ran out.
STAND_IN = "greedy"


def group_name(table_id: int) -> str:
    """The channel-layer group of a table's connections."""
    return f"live-table-{table_id}"


def start_turn(locked: Locked, mover: int | None) -> None:
    """The countdown of ``mover``'s turn: when the table has a clock and a person plays the
    seat now, its deadline is the turn's time plus what is left of the seat's reserve;
    none for a bot or once the game is over (the clock runs only on a person's own turn,
    LIVE.md "Time")."""
    table = locked.table
    person = (mover is not None and table.move_seconds is not None
              and not locked.levels[mover])
    now = timezone.now()
    table.turn_started = now if person else None
    table.deadline = (seating.turn_deadline(now, table.move_seconds, locked.states[mover])
                      if person and mover is not None else None)
    arm_timer(locked)


def arm_timer(locked: Locked) -> None:
    """Send the table's turn timer for its deadline once committed, unless the one already
    out is due before it: a table has one timer, not one per turn (a turn lasts seconds,
    its deadline is minutes away), which sends itself again for the deadline it finds
    still ahead when it fires (``service.turn_timeout``). A table awaiting its first person
    has none: its clock starts when play begins (``service.begin``), and a timer for a
    deadline that passed meanwhile would only be sent again for it, at once, for ever."""
    table = locked.table
    if table.paused_at is None and not table.awaiting and seating.timer_needed(
            timezone.now(), table.deadline, table.timer_due):
        table.timer_due = locked.timer = table.deadline


def stop_clock(locked: Locked, seat: int) -> None:
    """The person at ``seat`` stops playing this turn (it ended, or their substitute takes
    it over): what it cost beyond the turn's time comes off their reserve."""
    table = locked.table
    if table.turn_started is not None and table.move_seconds is not None:
        seating.spend(locked.states[seat], table.turn_started, timezone.now(),
                      table.move_seconds)
    table.turn_started = None
    table.deadline = None


def after_commit(locked: Locked, mover: int | None, bots: set[int], *,
                 changed: bool = False, hand_ended: bool = False,
                 notice: bool = True) -> None:
    """Once committed: announce the new state, let the next bot (of ``bots``) move, send
    the table's timer when one was armed (``arm_timer``) and report the result when the
    game has ended. Nothing moves while the table is paused, and no bot while it awaits
    its first person (``LiveTable.awaiting``). ``changed``: something other than an
    action changed (a pause, a substitute), which every connection reads again.
    ``hand_ended``: the action ended a hand, and the bot waits for people to see it
    (``pacing``). ``notice=False``: the caller announces it itself, once it has made what
    the notice's connections are to be sent (``prepared``)."""
    table = locked.table
    table_id, seq, timer = table.pk, table.seq, locked.timer
    playing = table.paused_at is None
    bot_to_move = playing and not table.awaiting and mover in bots
    # a table that reports its game (a tournament's) where no person plays any more has
    # nobody to wait for; a table of bots alone otherwise (a benchmark's, a test's) keeps
    # the pace it is given
    people = not table.reports_to or any(
        locked.person(seat) and not locked.states[seat].pinned for seat in range(4))
    pause = pacing.bot_delay(hand_ended, settings.LIVE_BOT_PAUSE_SECONDS,
                             settings.LIVE_HAND_PAUSE_SECONDS, people)
    finished = table.status == LiveTable.Status.FINISHED and bool(table.reports_to)

    def follow_up() -> None:
        # The game's own follow-ups first; the notice last, as clients can do without it.
        # The move stands whatever happens here: a task the broker refuses is logged, and
        # the sweep (followups.sweep) sends lost bot moves, timers and reports again.
        with _logged("the bot's move", table_id):
            if bot_to_move:
                send(TASKS + "live_bot_move", (table_id, seq), countdown=pause)
        if timer is not None and playing:
            _send_timer(table_id, timer)
        with _logged("reporting the result", table_id):
            if finished:
                send(TASKS + "live_report", (table_id,))
        if notice:
            announce(table_id, seq, changed=changed)

    transaction.on_commit(follow_up)


def timer_on_commit(locked: Locked) -> None:
    """Send the timer ``arm_timer`` armed, if it did, once committed."""
    table_id, timer = locked.table.pk, locked.timer
    if timer is not None:
        transaction.on_commit(lambda: _send_timer(table_id, timer))


def _send_timer(table_id: int, due: datetime) -> None:
    with _logged("the turn's timer", table_id):
        send(TASKS + "live_turn_timeout", (table_id, due.isoformat()), eta=due)


def announce(table_id: int, seq: int, *, changed: bool = False) -> None:
    """Tell the table's connections it is at ``seq`` (``changed``: and something other
    than an action changed, which they read again whatever their number)."""
    with _logged("the notice", table_id):  # clients also catch up when they resume
        notify.group_send(group_name(table_id),
                          {"type": "table.changed", "seq": seq, "changed": changed})


@contextmanager
def _logged(what: str, table_id: int) -> Iterator[None]:
    try:
        yield
    except Exception:  # noqa: BLE001 - a broker error must not reach the mover
        log.exception("sending %s at live table %s failed; the sweep sends it again",
                      what, table_id)
