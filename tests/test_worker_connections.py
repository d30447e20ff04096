"""A Celery worker keeps its database connection from task to task (config/celery.py,
settings.CELERY_DB_REUSE_MAX): Celery's own Django fixup, as the worker runs it around
every task, and our signal handlers beside it. Without the setting the fixup closes the
connection after every task, and each bot move would start a new PostgreSQL backend."""

from collections.abc import Iterator
from typing import Any

import pytest
from celery.fixups.django import DjangoWorkerFixup
from celery.signals import task_postrun, task_prerun
from django.db import connection

from config.celery import app

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def fixup() -> Iterator[DjangoWorkerFixup]:
    if connection.vendor != "postgresql":  # CI runs on PostgreSQL (PUSH_REQUIRE_SERVICES)
        pytest.skip("workers run on PostgreSQL; SQLite's in-memory test database is never "
                    "closed, so there is nothing to keep; set DATABASE_URL=postgres://...")
    worker = DjangoWorkerFixup(app)
    yield worker
    connection.close()


def _run_task(fixup: DjangoWorkerFixup) -> Any:
    """Around a task as a worker does it (the fixup, then the signals' receivers); the
    database connection the task used."""
    request: Any = type("Request", (), {"is_eager": False})()
    task: Any = type("Task", (), {"request": request})()
    fixup.on_task_prerun(sender=task)
    task_prerun.send(sender=task, task_id="t", task=task)
    connection.ensure_connection()
    used = connection.connection
    fixup.on_task_postrun(sender=task)
    task_postrun.send(sender=task, task_id="t", task=task)
    return used


def test_a_worker_keeps_its_connection_from_task_to_task(fixup: DjangoWorkerFixup,
                                                         settings: Any) -> None:
    settings.DATABASES["default"]["CONN_MAX_AGE"] = 60
    first = _run_task(fixup)
    assert all(_run_task(fixup) is first for _ in range(5))
    assert connection.connection is first and not connection.connection.closed


def test_a_connection_past_its_age_is_renewed_between_tasks(fixup: DjangoWorkerFixup) -> None:
    first = _run_task(fixup)
    connection.close_at = 0  # as if CONN_MAX_AGE had passed since it was opened
    assert _run_task(fixup) is not first
