"""The live tables' tasks: thin and repeatable; a stale or repeated one does nothing."""

from __future__ import annotations

from celery import shared_task

from . import followups, presence, service


@shared_task
def live_bot_move(table_id: int, expected_seq: int) -> int | None:
    """Let the bot to move at ``expected_seq`` act (through the same door as people)."""
    return service.bot_move(table_id, expected_seq)


@shared_task
def live_turn_timeout(table_id: int, due: str) -> int:
    """The table's turn timer, sent for the moment ``due`` (ISO, shown in the worker's log)
    a person's turn runs out: the stand-in bot finishes the turn if its deadline has passed
    then; otherwise the timer is sent again for the deadline in play."""
    return service.turn_timeout(table_id)


@shared_task
def live_away_check(table_id: int) -> list[int]:
    """Let the substitutes play for the people at the table gone longer than its grace."""
    return presence.check_away(table_id)


# A handler that fails (its service down, a bug) is tried again a few times, waiting longer
# each time; after that the sweep tries again every minute.
@shared_task(autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
def live_report(table_id: int) -> bool:
    """Tell the finished game's handler (``finished``), once."""
    return followups.report_result(table_id)


@shared_task
def live_sweep() -> dict[str, int]:
    """Celery beat runs this every minute (settings.CELERY_BEAT_SCHEDULE): the timers of
    deadlines that passed and the reports of finished games, in case they were lost."""
    return followups.sweep()
