"""Waiting for a real Celery worker to start (``config.worker_process``): one that dies
on the way is reported at once with what it said, and one that never says it is ready is
reported when the wait is over, each naming what did not start. No broker is needed: the
workers here never get as far as one."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from config.worker_process import start_worker, wait_ready


def test_a_worker_that_dies_starting_is_reported_at_once_with_what_it_said(
        tmp_path: Path) -> None:
    log = tmp_path / "worker.log"
    worker = start_worker(queue="push-test-dies", database="sqlite:///unused.sqlite3",
                          broker="redis://127.0.0.1:1/0", backend="", log=log,
                          env={"LIVE_MOVE_SECONDS": "abc"})
    began = time.monotonic()
    with pytest.raises(RuntimeError) as refused:
        wait_ready(log, worker, seconds=120)

    assert time.monotonic() - began < 100  # not the whole wait
    assert "the Celery worker ended (exit status 1) before it was ready" in str(refused.value)
    assert ("LIVE_MOVE_SECONDS=abc: expected a whole number of seconds from 0 to 86400"
            in str(refused.value))


def test_a_worker_that_never_says_it_is_ready_is_reported_when_the_wait_ends(
        tmp_path: Path) -> None:
    log = tmp_path / "worker.log"
    log.write_text("[INFO/MainProcess] Connected to redis://127.0.0.1:6379/0\n")

    with pytest.raises(TimeoutError) as late:
        wait_ready(log, seconds=0.5)

    assert str(late.value).splitlines() == [
        "the Celery worker did not say it was ready within 0.5 s:",
        "worker.log: [INFO/MainProcess] Connected to redis://127.0.0.1:6379/0",
        "worker.log.stderr: (nothing)"]
