"""The bot driver: a thin, repeatable task; a stale or repeated one does nothing."""

from __future__ import annotations

from celery import shared_task

from . import service


@shared_task
def live_bot_move(table_id: int, expected_seq: int) -> int | None:
    """Let the bot to move at ``expected_seq`` act (through the same door as people)."""
    return service.bot_move(table_id, expected_seq)
