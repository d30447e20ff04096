"""The work a service leaves to a Celery worker, sent once the service's transaction commits.

The services call these, never their callers, so every way in (admin, API, management
commands, tasks, live tables) gets the same follow-up without asking for it. Sending after
the commit means a worker never looks for a row that is not committed yet, and a write that
rolls back sends nothing. The tasks call the services, so the services name a task, and
``config.sending`` (the one sender, which the live tables use too) finds it by that name.

Each task is first written down (an ``OutboxTask`` row) in the service's transaction, and
the row is deleted when the broker has taken the task. With the broker down the service's
write still stands and its caller gets its answer: what was not sent is sent by
:func:`send_outbox` from the sweep (``tasks.sweep``, run by Celery beat) once the broker
answers again. A task may so run twice, never not at all; tasks are idempotent.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from config.sending import send
from tournaments.models import Job, OutboxTask, Schedule
from tournaments.schedule import Step

# An outbox row names its task by the name it has in ``tournaments.tasks``.
TASKS = "tournaments.tasks."


def standings_later(tournament_id: int, *, full: bool = False) -> None:
    """Recompute the tournament's current standings (``full``: every stored table)."""
    _later([("recalculate_standings", [tournament_id], {"full": full})])


def ratings_later() -> None:
    """Rebuild every player's rating from the results."""
    _later([("recalculate_ratings", [], {})])


def bot_matches_later(job: Job, match_ids: Iterable[int] | None = None) -> None:
    """Play each of the job's matches (or those of ``match_ids``), one task per match, so
    workers share them."""
    ids = job.match_ids if match_ids is None else match_ids
    _later([("play_bot_match", [match_id, job.pk], {}) for match_id in ids])


def schedule_nudge_later(tournament_id: int) -> None:
    """Once committed, tell the tournament's schedule (if it has one waiting for a round's
    tables) that a result came in: its next tick looks whether the round is done, rather
    than at its next regular look (``schedule.RECHECK``). One conditional UPDATE, after the
    commit, so it never waits for the scheduler's lock while holding a match's; a nudge lost
    with its process costs that round the wait until the regular look."""
    waiting = Schedule.objects.filter(tournament_id=tournament_id, next_step=Step.COMPLETE.value)
    if not waiting.exists():  # no schedule waits for this tournament's tables
        return

    def nudge() -> None:
        now = timezone.now()
        waiting.filter(next_step_at__gt=now).update(next_step_at=now)
    transaction.on_commit(nudge, robust=True)


def schedule_steps_later(tournament_ids: list[int], now: datetime) -> None:
    """Take each tournament's scheduled step handed out by a tick at ``now``
    (``schedule.schedule_take_step``), one task a tournament, so workers share them."""
    _later([("take_scheduled_step", [tournament_id, now.isoformat()], {})
            for tournament_id in tournament_ids])


def password_reset_mail_later(*, email: str, domain: str, use_https: bool, language: str) -> None:
    """Mail the accounts of ``email`` a password-reset link (``accounts``)."""
    _later([("send_password_reset", [email],
             {"domain": domain, "use_https": use_https, "language": language})])


def notice_mails_later(due: list[tuple[str, list[int]]]) -> None:
    """Mail the notifications due: of each key, to those users (``services.mail``); one
    task for all (a round's start mails its players one after another)."""
    _later([("send_notice_mails", [[[key, users] for key, users in due]], {})])


def confirmation_mail_later(address_id: int, token: str) -> None:
    """Mail the address of this id the link that confirms it (while ``token`` is its)."""
    _later([("send_confirmation_mail", [address_id, token], {})])


def webhooks_later(delivery_ids: list[int]) -> None:
    """Send these webhook deliveries, each by a task of its own (``webhook_delivery``)."""
    _later([("dispatch_webhooks", [delivery_ids], {})])


def _later(calls: list[tuple[str, list[Any], dict[str, Any]]]) -> None:
    rows = OutboxTask.objects.bulk_create(
        [OutboxTask(task=task, args=args, kwargs=kwargs) for task, args, kwargs in calls])
    ids = [row.pk for row in rows]
    transaction.on_commit(lambda: send_outbox(ids))


def send_outbox(ids: list[int] | None = None) -> int:
    """Send the tasks written down (those of ``ids``, or all that are left), oldest first,
    each once: its row is locked while it is sent and deleted with the sending; a row
    another sender holds is theirs. Stops at the first the broker refuses and leaves it,
    and those after it, for the sweep. Returns how many were sent."""
    pending = OutboxTask.objects.order_by("pk")
    if ids is not None:
        pending = pending.filter(pk__in=ids)
    sent = 0
    for pk in list(pending.values_list("pk", flat=True)):
        with transaction.atomic():
            row = OutboxTask.objects.select_for_update(skip_locked=True).filter(pk=pk).first()
            if row is None:
                continue
            if not send(TASKS + row.task, row.args, row.kwargs):
                return sent  # the sweep sends it, and those after it
            row.delete()
            sent += 1
    return sent
