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
                 log: Path, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """A one-process worker consuming ``queue``; wait for it with :func:`wait_ready` (and
    only then :func:`lower_priority`, if it is to run below the caller). It is named after
    its log file, so workers started side by side answer the health check's questions each
    under a name of its own. ``env`` adds to its environment. What it says outside its log
    (a refused setting, a traceback before its logging starts) goes to ``errors(log)``."""
    env = {**os.environ, **(env or {}), "CELERY_BROKER_URL": broker,
           "CELERY_RESULT_BACKEND": backend, "CELERY_QUEUE": queue, "DATABASE_URL": database}
    with errors(log).open("ab") as stderr:
        return subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-Q",
             queue, "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "info",
             "-n", f"{log.stem}-{queue}@%h",
             f"--logfile={log}"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=stderr)


def errors(log: Path) -> Path:
    """Where a worker logging to ``log`` writes its standard error."""
    return log.with_name(log.name + ".stderr")


#: Seconds a worker may take to say it is ready: a last guard. It imports the whole
#: platform (about 2.5 s of CPU), which on a machine loaded far beyond its cores (load
#: average 25 to 30 on 2) takes tens of seconds even at the caller's priority.
READY_SECONDS = 180.0


def wait_ready(log: Path, process: subprocess.Popen[bytes] | None = None,
               seconds: float = READY_SECONDS) -> None:
    """Return once the worker logging to ``log`` says it is ready (Celery's "ready."
    line, looked for five times a second). With the log's end: RuntimeError as soon as
    ``process`` (the worker, if given) has ended instead, TimeoutError once ``seconds``
    have passed."""
    deadline = time.monotonic() + seconds
    while not _says_ready(log):
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the Celery worker ended (exit status {process.returncode}) "
                               f"before it was ready:\n{_tail(log)}")
        if time.monotonic() > deadline:
            raise TimeoutError(f"the Celery worker did not say it was ready within "
                               f"{seconds:g} s:\n{_tail(log)}")
        time.sleep(0.2)


def _says_ready(log: Path) -> bool:
    try:
        return "ready." in log.read_text(errors="replace")
    except FileNotFoundError:  # not opened yet
        return False


def _tail(log: Path, lines: int = 20) -> str:
    """The last ``lines`` of the worker's log and of its standard error."""
    said = []
    for path in (log, errors(log)):
        try:
            text = "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
        except FileNotFoundError:
            text = ""
        said.append(f"{path.name}: {text or '(nothing)'}")
    return "\n".join(said)


def lower_priority(pid: int, by: int) -> None:
    """Lower the CPU priority of every thread of process ``pid`` by ``by`` (as ``renice``;
    the threads it starts later inherit it). For a ready worker: one started at a low
    priority on a busy machine got so little of the CPU that it took minutes to import
    the platform and say it was ready."""
    threads = Path(f"/proc/{pid}/task")
    ids = [int(task.name) for task in threads.iterdir()] if threads.exists() else [pid]
    for thread in ids:
        try:
            os.setpriority(os.PRIO_PROCESS, thread,
                           min(19, os.getpriority(os.PRIO_PROCESS, thread) + by))
        except ProcessLookupError:  # the thread ended meanwhile
            continue


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
