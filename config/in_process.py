"""Tasks due later, where tasks run in this process (eager: no broker, as ``make run`` has
it): a bot's pause, a person's turn timer, a substitute's grace and Celery beat's sweeps
wait in one thread of the process and run at their time, as a worker would run them.

Without it an eager task runs the moment it is sent: the bots answered inside the
person's request, all of them at once, and a turn's timer fired at once, found its
deadline still ahead and did nothing, so the clock stood at 0:00 and no stand-in moved.

A task is run with the event loop of the thread that sent it recorded as asgiref's
"main" loop, so that what it tells the table's connections (``games.live.notify``) goes
through the server's own loop, as a sync view's would, and the in-memory channel layer
(bound to that loop) wakes them. What a short-lived process leaves waiting (a command
that opens tables and ends) is lost with it; the live tables' sweep, run here every 15 s
like beat's other entries, sends it again.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from asgiref.sync import SyncToAsync
from django.db import connections

log = logging.getLogger(__name__)

Job = Callable[[], None]

_due: list[tuple[float, int, Job, Any]] = []  # (when, order, job, the sender's loop)
_order = itertools.count()
_wake = threading.Condition()
_thread: threading.Thread | None = None
_beat_started = False


def later(seconds: float, job: Job) -> None:
    """Run ``job`` in this process's timer thread in ``seconds``."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        loop = None
    with _wake:
        heapq.heappush(_due, (time.monotonic() + max(seconds, 0.0), next(_order), job, loop))
        _start()
        _wake.notify()


def every(seconds: float, job: Callable[[], object]) -> None:
    """Run ``job`` every ``seconds`` from now on (beat's schedule, in this process)."""
    def again() -> None:
        try:
            job()
        finally:
            later(seconds, again)
    later(seconds, again)


def start_beat(schedule: dict[str, dict[str, Any]], send: Callable[[str], object]) -> None:
    """Send each task of Celery beat's ``schedule`` at its interval, once per process."""
    global _beat_started
    with _wake:
        if _beat_started:
            return
        _beat_started = True
    for entry in schedule.values():
        every(float(entry["schedule"]), functools.partial(send, entry["task"]))


def pending() -> int:
    """How many jobs wait."""
    with _wake:
        return len(_due)


def clear() -> None:
    """Drop every job waiting (a test's, when it ends)."""
    with _wake:
        _due.clear()


def _start() -> None:
    global _thread
    if _thread is None or not _thread.is_alive():
        _thread = threading.Thread(target=_run, name="tasks-due-later", daemon=True)
        _thread.start()


def _run() -> None:
    while True:
        with _wake:
            while not _due or _due[0][0] > time.monotonic():
                _wake.wait(_due[0][0] - time.monotonic() if _due else None)
            _, _, job, loop = heapq.heappop(_due)
        SyncToAsync.threadlocal.main_event_loop = loop
        SyncToAsync.threadlocal.main_event_loop_pid = os.getpid() if loop else None
        try:
            job()
        except Exception:  # noqa: BLE001 - one job's failure must not stop the others
            log.exception("a task due later failed in-process")
        finally:  # it may sleep long before the next: no database session held meanwhile
            connections.close_all()
