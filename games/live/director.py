"""What a tournament's director does to a live table in play: pause and resume it, seat
its substitute bot for a person for the rest of the game (pin) and give the seat back,
add time to a person's clock, send the table a message, and end one whose game cannot
finish. Each is taken under the table's row lock, as every action is, and told to the
table's connections once committed; who may do it is the caller's business (the
tournament's organisers). Nothing here reads or sends a card.

An ended table is over without a record (as a practice table nobody played at is), with
no deadline and no more actions (``service`` refuses them, the bots' and the
timers' tasks find it no longer in play). Whoever ends it decides what the game would
have decided (a tournament enters the match's result in the same transaction).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import timedelta
from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from . import rows, service
from .errors import TableError
from .models import LiveTable
from .state import replay
from .turns import after_commit, announce, arm_timer, start_turn, stop_clock

log = logging.getLogger(__name__)

#: The most time a director adds at once, in seconds.
MAX_ADDED_SECONDS = 3600
MAX_MESSAGE = 300


def _change(table_id: int, change: Callable[[rows.Locked, int | None], bool]) -> bool:
    """Run ``change(locked, mover)`` on the table in play, under its lock; when it says it
    changed something, write the table and tell its connections (a bot to move moves)."""
    with transaction.atomic():
        locked = rows.lock_table(table_id)
        if locked is None:
            raise TableError(_("There is no table %(table)s.") % {"table": table_id})
        table = locked.table
        if table.status != LiveTable.Status.PLAYING:
            raise TableError(_("The game at table %(table)s is no longer in play.")
                             % {"table": table_id})
        mover = service.to_move(table)
        if not change(locked, mover):
            return False
        arm_timer(locked)  # a deadline that moved on (resumed, time added) may need one
        rows.write_table(locked, "deadline", "turn_started", "paused_at")
        after_commit(locked, mover, locked.bot_seats, changed=True)
    return True


def pause(table_id: int) -> bool:
    """Stop the table: no action is taken and no clock runs until it is resumed."""
    def paused(locked: rows.Locked, mover: int | None) -> bool:
        if locked.table.paused_at is not None:
            return False
        locked.table.paused_at = timezone.now()
        return True
    return _change(table_id, paused)


def resume(table_id: int) -> bool:
    """Play on: the turn in play gets back the time it had when the table was paused."""
    def resumed(locked: rows.Locked, mover: int | None) -> bool:
        table = locked.table
        if table.paused_at is None:
            return False
        pause = timezone.now() - table.paused_at
        table.paused_at = None
        if table.deadline is not None:
            table.deadline += pause
        if table.turn_started is not None:
            table.turn_started += pause
        return True
    return _change(table_id, resumed)


def _person(locked: rows.Locked, seat: int) -> None:
    if seat not in range(4) or not locked.person(seat):
        raise TableError(_("Seat %(seat)s is not a person's seat.") % {"seat": seat})


def pin(table_id: int, seat: int) -> bool:
    """Seat the substitute for the person at ``seat`` for the rest of the game: it plays
    from the point of the turn it finds, and the person coming back does not take the
    seat until it is given back."""
    def pinned(locked: rows.Locked, mover: int | None) -> bool:
        _person(locked, seat)
        state = locked.states[seat]
        if state.pinned:
            return False
        if mover == seat and not locked.levels[seat]:
            stop_clock(locked, seat)
        state.pinned = state.away = True
        return True
    return _change(table_id, pinned)


def give_back(table_id: int, seat: int) -> bool:
    """The person plays ``seat`` again (their substitute steps aside); if they are still
    gone, the grace rule seats it again."""
    def given(locked: rows.Locked, mover: int | None) -> bool:
        _person(locked, seat)
        state = locked.states[seat]
        if not (state.pinned or state.away):
            return False
        state.pinned = state.away = False
        if mover == seat and locked.table.paused_at is None:
            start_turn(locked, mover)
        return True
    return _change(table_id, given)


def add_time(table_id: int, seat: int, seconds: int) -> bool:
    """Add ``seconds`` to the reserve of the person at ``seat`` (their turn in play lasts
    that much longer)."""
    if not 0 < seconds <= MAX_ADDED_SECONDS:
        raise TableError(_("Add between 1 and %(most)s seconds.") % {"most": MAX_ADDED_SECONDS})

    def added(locked: rows.Locked, mover: int | None) -> bool:
        _person(locked, seat)
        if locked.table.move_seconds is None:
            raise TableError(_("This table has no clock."))
        state = locked.states[seat]
        state.reserve = (state.reserve or 0.0) + seconds
        if mover == seat and locked.table.deadline is not None:
            locked.table.deadline += timedelta(seconds=seconds)
        return True
    return _change(table_id, added)


def send_message(table_ids: Iterable[int], text: str) -> int:
    """Show ``text`` to everyone at each of the tables in play (the director's word to a
    round); how many got it."""
    text = text.strip()
    if not text or len(text) > MAX_MESSAGE:
        raise TableError(_("A message is 1 to %(most)s characters.") % {"most": MAX_MESSAGE})
    with transaction.atomic():
        tables = list(LiveTable.objects.filter(pk__in=list(table_ids),
                                               status=LiveTable.Status.PLAYING)
                      .select_for_update().order_by("pk").values_list("pk", "seq"))
        LiveTable.objects.filter(pk__in=[pk for pk, _ in tables]).update(message=text)
        for table_id, seq in tables:
            transaction.on_commit(partial(announce, table_id, seq, changed=True))
    return len(tables)


def end_table(table_id: int, reason: str) -> bool:
    """End the game at the table, under its row lock (in the caller's transaction, when
    there is one): status ``abandoned``, no deadline. Whether it changed anything: False
    for a table already over (finished or ended) or gone. ``reason`` (why it was ended) is
    logged; ``TableError`` when there is none."""
    reason = reason.strip()
    if not reason:
        raise TableError(_("Say why the table is ended."))
    with transaction.atomic():
        locked = rows.lock_table(table_id)
        if locked is None or locked.table.status != LiveTable.Status.PLAYING:
            return False
        table = locked.table
        table.status, table.deadline, table.turn_started = LiveTable.Status.ENDED, None, None
        rows.write_table(locked, "status", "deadline", "turn_started")
        seq = table.seq
        log.warning("live table %s is ended by its organiser at action %s: %s",
                    table_id, seq, reason)
        transaction.on_commit(partial(announce, table_id, seq, changed=True))
    return True


def hands_so_far(table_id: int) -> list[tuple[tuple[int, int], int | None]]:
    """The scores and the seat that went out (None: the stock ran out) of each hand the
    table has finished, from its log (an adjudicator's sheet starts from these)."""
    table = rows.read_table(table_id)
    if table is None:
        raise TableError(_("There is no table %(table)s.") % {"table": table_id})
    live = replay(table.seed, rows.logged_actions(table_id, 0, table.seq))
    return [(outcome.scores, outcome.out_seat) for outcome in live.game.results]
