"""Handing a Celery task to the broker by its name: the one way the tournament services' outbox
(``tournaments.services.followups``) and the live tables (``games.live.service``) send the
work they leave to a worker, once their transaction has committed.

A task is named by the string Celery registers it under, so a module that sends a task
need not import the module that defines it (which imports the sender back). A broker that
does not answer is tried twice within half a second and then left: the caller's write
stands, the refusal is logged, and what was owed is sent again later (the outbox from its
rows, a live table from its own state; both by Celery beat's sweeps).

Where tasks run in-process (eager: no broker, as ``make run`` has it), a task sent while
another one runs in this thread waits until that one has ended, as it would in a worker's
queue, rather than running inside it: a live table's bots each send the next one's move
once their own has committed, and run inside one another a game of bots nested a frame
deeper each move, until Python's recursion limit stopped it about ninety moves in. A task
sent for later (``countdown``, ``eta``) waits for its time in the process's timer thread
(``config.in_process``) when ``CELERY_EAGER_DELAYS`` is on (``make run``); the tests run
such tasks at once unless they turn it on.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from celery import current_app
from celery.exceptions import NotRegistered
from django.conf import settings
from django.utils import timezone
from kombu.exceptions import OperationalError

from config import in_process

log = logging.getLogger(__name__)

# A silent host waits for the connect timeout in settings; a refused connection is retried
# twice within half a second: the sweeps send what is left, so nobody waits for the broker.
SEND_RETRY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.25, "interval_max": 0.25}

Sent = tuple[str, Sequence[Any], dict[str, Any], dict[str, Any]]
_in_process = threading.local()  # ``queue``: the tasks sent while one runs in this thread


def task(name: str) -> Any:
    """The task registered as ``name``. A web process has not imported the task modules
    the first time it sends one: the app imports them then, as a worker does at its start."""
    try:
        return current_app.tasks[name]
    except NotRegistered:
        current_app.loader.import_default_modules()
        return current_app.tasks[name]


def send(name: str, args: Sequence[Any] = (), kwargs: dict[str, Any] | None = None,
         **options: Any) -> bool:
    """Give task ``name`` to the broker (``options`` as ``apply_async``'s: ``countdown``,
    ``eta``); False, logged, when the broker does not take it."""
    if current_app.conf.task_always_eager:
        sent: Sent = (name, args, kwargs or {}, {})
        wait = _delay(options)
        if wait > 0 and settings.CELERY_EAGER_DELAYS:
            in_process.later(wait, lambda: _run_in_process(sent))
        else:
            _run_in_process(sent)
        return True
    try:
        task(name).apply_async(tuple(args), kwargs or {}, retry=True, retry_policy=SEND_RETRY,
                               **options)
    except OperationalError as exc:
        log.warning("the broker did not take %s%s (%s); it is sent again later", name,
                    tuple(args), exc)
        return False
    return True


def _delay(options: dict[str, Any]) -> float:
    """The seconds an ``apply_async`` ``countdown`` or ``eta`` asks the task to wait."""
    eta: datetime | None = options.get("eta")
    if eta is not None:
        return (eta - timezone.now()).total_seconds()
    return float(options.get("countdown") or 0)


def _run_in_process(sent: Sent) -> None:
    """Run ``sent`` here, after the tasks sent before it while one was running in this
    thread; the first error of them all is raised once each has run (in-process tasks'
    errors propagate)."""
    queue: deque[Sent] | None = getattr(_in_process, "queue", None)
    if queue is not None:  # inside a task: it runs once that one (and those before) end
        queue.append(sent)
        return
    _in_process.queue = queue = deque([sent])
    error: BaseException | None = None
    try:
        while queue:
            name, args, kwargs, options = queue.popleft()
            try:
                task(name).apply_async(tuple(args), kwargs, **options)
            except Exception as exc:  # noqa: BLE001 - raised below, once the rest have run
                error = error or exc
    finally:
        _in_process.queue = None
    if error is not None:
        raise error
