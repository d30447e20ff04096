"""Start real Celery workers as child processes (for the end-to-end tests and benchmarks)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from config.celery import app

ROOT = Path(__file__).resolve().parent.parent


def database_url(settings_dict: dict[str, Any]) -> str:
    """A DATABASE_URL for the PostgreSQL database Django is connected to."""
    user, host = settings_dict["USER"], settings_dict["HOST"] or "127.0.0.1"
    password = f":{settings_dict['PASSWORD']}" if settings_dict.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{host}:{settings_dict['PORT'] or 5432}/" \
           f"{settings_dict['NAME']}"


def start_worker(*, queue: str, database: str, broker: str, backend: str,
                 log: Path, env: dict[str, str] | None = None,
                 nice: int = 0) -> subprocess.Popen[bytes]:
    """A one-process worker consuming ``queue``; wait for it with :func:`wait_ready`. It is
    named after its log file, so workers started side by side answer the health check's
    questions each under a name of its own. ``env`` adds to its environment; ``nice``
    lowers its CPU priority by that much (as ``nice -n``)."""
    env = {**os.environ, **(env or {}), "CELERY_BROKER_URL": broker,
           "CELERY_RESULT_BACKEND": backend, "CELERY_QUEUE": queue, "DATABASE_URL": database}
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-Q", queue,
         "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "info",
         "-n", f"{log.stem}-{queue}@%h",
         f"--logfile={log}"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    if nice:  # before it is ready: every thread it starts inherits the priority
        os.setpriority(os.PRIO_PROCESS, process.pid, os.getpriority(os.PRIO_PROCESS, 0) + nice)
    return process


def wait_ready(log: Path, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not (log.exists() and "ready." in log.read_text()):
        if time.monotonic() > deadline:
            raise TimeoutError(f"the Celery worker did not start within {seconds:.0f} s; "
                               f"see {log}")
        time.sleep(0.2)


@contextmanager
def sending_to(queue: str) -> Iterator[None]:
    """Meanwhile, what this process enqueues (the services' follow-up work) goes to
    ``queue``, where the workers started here listen."""
    saved = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    try:
        yield
    finally:
        app.conf.task_default_queue = saved
