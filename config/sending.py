"""Handing a Celery task to the broker by its name: the one way the tournament services' outbox
(``tournaments.services.followups``) and the live tables (``games.live.service``) send the
work they leave to a worker, once their transaction has committed.

A task is named by the string Celery registers it under, so a module that sends a task
need not import the module that defines it (which imports the sender back). A broker that
does not answer is tried twice within half a second and then left: the caller's write
stands, the refusal is logged, and what was owed is sent again later (the outbox from its
rows, a live table from its own state; both by Celery beat's sweeps).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from celery import current_app
from celery.exceptions import NotRegistered
from kombu.exceptions import OperationalError

log = logging.getLogger(__name__)

# A silent host waits for the connect timeout in settings; a refused connection is retried
# twice within half a second: the sweeps send what is left, so nobody waits for the broker.
SEND_RETRY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.25, "interval_max": 0.25}


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
    try:
        task(name).apply_async(tuple(args), kwargs or {}, retry=True, retry_policy=SEND_RETRY,
                               **options)
    except OperationalError as exc:
        log.warning("the broker did not take %s%s (%s); it is sent again later", name,
                    tuple(args), exc)
        return False
    return True
