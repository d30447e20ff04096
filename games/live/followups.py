"""A live table's follow-ups that may be lost and are sent again: results to report, the
timers of turns whose time ran out (``service.turn_timeout``), and bots' moves.

A finished game's handler (``kinds``) runs under the table's lock, in the same
transaction that marks the table reported: what the handler writes and the mark commit
together, and a handler that fails leaves the table unreported for the next try. The
sweep (Celery beat) sends the timers and reports that were lost.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Max
from django.db.models.functions import Coalesce
from django.utils import timezone

from config.sending import send

from . import limits, seating
from .kinds import finished_handler
from .models import LiveSeat, LiveTable

#: The live tables' tasks are sent by name (config.sending): tasks.py imports this module.
TASKS = "games.live.tasks."

#: After this long without an action and without a person's countdown, the sweep sends
#: the bot's move again (a bot takes well under a second; its pause is a second or two).
#: With the sweep every 15 s, a table whose bot's move was lost (a broker outage) plays
#: on within half a minute or so of the broker's return.
STALLED_SECONDS = 15


def report_result(table_id: int) -> bool:
    """Tell the handler registered for the table's kind (``kinds``) that its game has
    ended, and mark the table reported, in one transaction; whether it ran now."""
    with transaction.atomic():
        table = LiveTable.objects.select_for_update().filter(pk=table_id).first()
        if (table is None or table.status != LiveTable.Status.FINISHED or table.reported
                or not table.reports_to):
            return False
        finished_handler(table.reports_to)(table)
        table.reported = True
        table.save(update_fields=["reported"])
    return True


def sweep() -> dict[str, int]:
    """End the practice tables nobody plays at (``limits``), then send again what may have
    been lost: the timers of passed deadlines, the reports of finished games, the bots'
    moves of quiet tables and the away checks of people gone silent; the tasks themselves
    decide whether anything is left to do."""
    now = timezone.now()
    ended = limits.end_abandoned_tables(now)

    due = list(LiveTable.objects.filter(status=LiveTable.Status.PLAYING,
                                        deadline__lte=now, paused_at=None, awaiting=False)
               .values_list("pk", "deadline"))
    for pk, deadline in due:
        assert deadline is not None  # the filter takes only tables with a deadline
        send(TASKS + "live_turn_timeout", (pk, deadline.isoformat()))
    unreported = list(LiveTable.objects.filter(status=LiveTable.Status.FINISHED, reported=False)
                      .exclude(reports_to="").values_list("pk", flat=True))
    for pk in unreported:
        send(TASKS + "live_report", (pk,))
    # A table where nothing happened for a while and no person's countdown runs: a bot's
    # move may have been lost (the broker down after the commit). The task acts only if
    # a bot is to move at that very sequence number.
    # A table awaiting its first person has no bot's move to lose (turns.after_commit).
    quiet = list(LiveTable.objects.filter(status=LiveTable.Status.PLAYING, deadline=None,
                                          paused_at=None, awaiting=False)
                 .annotate(last=Coalesce(Max("actions__created"), "created"))
                 .filter(last__lte=now - timedelta(seconds=STALLED_SECONDS))
                 .values_list("pk", "seq"))
    for pk, seq in quiet:
        send(TASKS + "live_bot_move", (pk, seq))
    # People gone without a word (a connection that ended unseen): their substitutes.
    away = tables_to_check(now)
    for pk in away:
        send(TASKS + "live_away_check", (pk,))
    return {"turns_timed_out": len(due), "reports_sent": len(unreported),
            "bot_moves_sent": len(quiet), "tables_ended": ended, "away_checks_sent": len(away)}


def tables_to_check(now: datetime) -> list[int]:
    """The tables in play where a person may have been gone longer than the grace
    (``presence.check_away`` decides)."""
    found = set()
    for table_id, grace, created, states, seat, seen in (
            LiveSeat.objects.filter(table__status=LiveTable.Status.PLAYING,
                                    table__grace_seconds__isnull=False,
                                    table__paused_at=None, user__isnull=False)
            .values_list("table_id", "table__grace_seconds", "table__created",
                         "table__seating", "seat", "seen")):
        state = seating.load(states)[seat]
        if not (state.away or state.pinned) and (seen or created) < now - timedelta(
                seconds=grace or 0):  # the filter takes only tables with a grace
            found.add(table_id)
    return sorted(found)
