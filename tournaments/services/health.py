"""What the health check reports (``manage.py health``): can the broker be reached, how many
tasks wait in the queue, which workers answer and consume it, and what work is stuck or
spinning: a task running far past its usual time, a live table acted on many times a second;
and the mail queue: the notifications' mails still due, and those that failed for good.

A worker on another broker or Redis database, or on another queue, starts and says "ready"
all the same: only asking the workers, over the broker the web process uses, shows whether
anyone will run what it sends. A task that loops keeps its worker busy and the report's
other answers good: only its running time, or the rate at which it writes, shows it.
"""

from __future__ import annotations

import math
import time
from datetime import datetime, timedelta
from typing import Any, TypedDict

from django.conf import settings
from django.db.models import Count, QuerySet
from django.utils import timezone
from kombu.exceptions import OperationalError

from config.celery import app
from games.live.models import LiveAction
from tournaments.models import OutboxTask

from .jobs import jobs_stalled
from .mail import MAIL_LATE, mail_queue

# The sweep (Celery beat, every minute) sends what the outbox holds; a task waiting longer
# than two sweeps means beat or the broker is not doing its part.
OUTBOX_LATE = timedelta(minutes=2)

# How long a task may run before it is reported as spinning, by the beginning of its name.
# The live tables' tasks (a bot's move, a turn's timer, the sweep) take well under a second,
# a result report a few: 30 s is far past any of them, and past the time after which the
# live sweep sends a quiet table's bot move again (games.live.followups.STALLED_SECONDS).
LIVE_TASK_SECONDS = 30.0
# Bot games (whole matches), standings and ratings take seconds; one past half the soft
# time limit (CELERY_TASK_SOFT_TIME_LIMIT, 240 s) is on its way to being cancelled.
OTHER_TASK_SHARE_OF_LIMIT = 0.5
SPINNING_AFTER = {"games.live.tasks.": LIVE_TASK_SECONDS}

# A live table acted on more than this often is reported: in any BUSY_TABLE_SECONDS, a
# person's turn is a few actions (as is the stand-in's, finishing a turn whose time ran
# out), up to PERSON_ACTIONS; a bot acts once per LIVE_BOT_PAUSE_SECONDS, and with no pause
# (benchmarks) each move is still a task and a commit, BOT_FASTEST_SECONDS apart at best.
# With the default pause of 1 s that allows 20 actions in 10 s.
BUSY_TABLE_SECONDS = 10
PERSON_ACTIONS = 10
BOT_FASTEST_SECONDS = 0.05

# Older Celery releases gave ``time_start`` on the worker's monotonic clock (seconds since
# it booted, say), which says nothing here; a wall-clock time is past this (2001).
_WALL_CLOCK_AFTER = 1e9


def spinning_after(task_name: str) -> float:
    """Seconds a task of this name may run before the health check calls it spinning."""
    for prefix, seconds in SPINNING_AFTER.items():
        if task_name.startswith(prefix):
            return seconds
    return float(settings.CELERY_TASK_SOFT_TIME_LIMIT * OTHER_TASK_SHARE_OF_LIMIT)


def busy_table_limit() -> int:
    """Actions a live table may take in ``BUSY_TABLE_SECONDS`` before it is reported."""
    pause = max(float(settings.LIVE_BOT_PAUSE_SECONDS), BOT_FASTEST_SECONDS)
    return PERSON_ACTIONS + math.ceil(BUSY_TABLE_SECONDS / pause)


def health_report(*, timeout: float = 1.0,
                  spinning: float | None = None) -> dict[str, Any]:
    """The report, with ``healthy`` and the ``problems`` that make it not so. ``spinning``:
    report every task running longer than that many seconds (default: by its name,
    :func:`spinning_after`)."""
    queue = app.conf.task_default_queue
    report: dict[str, Any] = {"queue": {"name": queue}}
    problems: list[str] = []
    if app.conf.task_always_eager:
        report["broker"] = {"ok": True, "eager": "tasks run in the web process"}
    else:
        report["broker"] = _broker(app, queue, timeout, report["queue"], problems)
        if report["broker"]["ok"]:
            report["workers"] = _workers(app, queue, timeout, problems)
            report["spinning_tasks"] = _spinning(report["workers"].pop("active"), spinning,
                                                 problems)
    stalled = [{"id": job.pk, "tournament": job.tournament_id, "kind": job.kind,
                "done": job.done, "total": job.total, "since": job.updated.isoformat()}
               for job in jobs_stalled()]
    if stalled:
        problems.append(f"{len(stalled)} job(s) have not moved for too long")
    late = OutboxTask.objects.filter(created__lt=timezone.now() - OUTBOX_LATE).count()
    if late:
        problems.append(f"{late} task(s) wait to be sent: is celery beat running?")
    mails = mail_queue()
    if mails["late"]:
        problems.append(f"{mails['late']} mail(s) have waited more than "
                        f"{MAIL_LATE.seconds // 60} minutes to be sent: does the mail server "
                        "answer?")
    report.update(stalled_jobs=stalled, unsent_tasks=OutboxTask.objects.count(), mail=mails,
                  busy_tables=_busy_tables(problems), problems=problems, healthy=not problems)
    return report


def _broker(app: Any, queue: str, timeout: float, queue_report: dict[str, Any],
            problems: list[str]) -> dict[str, Any]:
    with app.connection_for_write() as connection:
        try:
            connection.ensure_connection(max_retries=1, timeout=timeout)
        except OperationalError as exc:
            problems.append(f"the broker does not answer: {exc}")
            return {"ok": False, "url": connection.as_uri(), "error": str(exc)}
        try:  # a queue no worker has declared yet holds nothing
            declared = connection.default_channel.queue_declare(queue=queue, passive=True)
            queue_report["length"] = declared.message_count
        except connection.channel_errors:
            queue_report["length"] = 0
        return {"ok": True, "url": connection.as_uri()}


def _workers(app: Any, queue: str, timeout: float, problems: list[str]) -> dict[str, Any]:
    """Who answers (every worker answers ``active_queues``, so no ``ping`` is needed: each
    question waits the whole ``timeout``), who consumes ``queue``, and what those run. A
    worker of the solo pool runs its task where it would answer, so it does not answer
    while busy; the prefork pool (Celery's default) answers from its main process.

    Asked over a connection of its own, not one from the app's pool: a pooled connection
    that a process forked since (a test's server) holds too no longer gets the answers."""
    with app.connection_for_write() as connection:
        inspect = app.control.inspect(timeout=timeout, connection=connection)
        return _answers(inspect, queue, problems)


def _answers(inspect: Any, queue: str, problems: list[str]) -> dict[str, Any]:
    queues = inspect.active_queues() or {}
    live = sorted(queues)
    consuming = sorted(name for name, listened in queues.items()
                       if any(q.get("name") == queue for q in listened))
    if not consuming:
        problems.append(f"no worker answers that consumes the queue {queue!r}"
                        + (f" (workers answering: {', '.join(live)})" if live else ""))
    # Only this queue's workers: another deployment sharing the broker is not ours to judge.
    active = (inspect.active(safe=True) or {}) if consuming else {}
    return {"live": live, "consuming": consuming,
            "active": {name: active.get(name) or [] for name in consuming}}


def running_seconds(time_start: Any, now: float) -> float | None:
    """How long a task has run, from ``time_start`` in a worker's ``active()`` answer.

    Celery 5.7 gives the worker's wall-clock time (``time.time()``) at which the task was
    accepted (``Request.on_accepted`` converts the pool's monotonic time to it), so the
    running time is ``now`` (this process's ``time.time()``) less it, good to the two
    machines' clock difference; ``None`` when it is unknown (not yet started, or an older
    Celery's monotonic time)."""
    if not isinstance(time_start, int | float) or time_start < _WALL_CLOCK_AFTER:
        return None
    return max(0.0, now - time_start)


def _spinning(active: dict[str, list[dict[str, Any]]], spinning: float | None,
              problems: list[str]) -> list[dict[str, Any]]:
    """The tasks running longer than their name allows (or than ``spinning`` seconds)."""
    now = time.time()
    found = []
    for worker, tasks in sorted(active.items()):
        for task in tasks:
            name = str(task.get("name") or "")
            seconds = running_seconds(task.get("time_start"), now)
            limit = spinning_after(name) if spinning is None else spinning
            if seconds is None or seconds <= limit:
                continue
            found.append({"name": name, "id": task.get("id"), "worker": worker,
                          "seconds": round(seconds, 1), "args": task.get("args"),
                          "limit": limit})
            problems.append(f"task {name}[{task.get('id')}] has run {seconds:.0f} s on "
                            f"{worker} (more than {limit:.0f} s): spinning or stuck")
    return found


class BusyTable(TypedDict):
    table: int
    actions: int


def busy_tables_query(since: datetime, limit: int) -> QuerySet[LiveAction, BusyTable]:
    """The tables with more than ``limit`` actions since ``since``, as ``table`` and
    ``actions``, busiest first."""
    return (LiveAction.objects.filter(created__gte=since).values("table")
            .annotate(actions=Count("pk")).filter(actions__gt=limit).order_by("-actions"))


def _busy_tables(problems: list[str]) -> list[dict[str, Any]]:
    """The live tables that took more than :func:`busy_table_limit` actions in the last
    ``BUSY_TABLE_SECONDS`` (one range of the index on the actions' time)."""
    limit = busy_table_limit()
    found = []
    for row in busy_tables_query(timezone.now() - timedelta(seconds=BUSY_TABLE_SECONDS), limit):
        rate = row["actions"] / BUSY_TABLE_SECONDS
        found.append({"table": row["table"], "actions": row["actions"],
                      "seconds": BUSY_TABLE_SECONDS, "per_second": round(rate, 1)})
        problems.append(f"live table {row['table']} took {row['actions']} actions in the last "
                        f"{BUSY_TABLE_SECONDS} s ({rate:.1f} a second; a game takes at most "
                        f"{limit}): something acts in a loop")
    return found
