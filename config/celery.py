"""The Celery app. Start a worker with `celery -A config worker`."""

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("push")
# Every CELERY_* Django setting configures Celery (CELERY_TASK_ACKS_LATE -> task_acks_late).
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def _connections_as_a_request(task: Any = None, **_: Any) -> None:
    """A worker's task, like a request, starts and ends by dropping a database connection
    that is broken or older than CONN_MAX_AGE (settings.CELERY_DB_REUSE_MAX: the worker
    keeps its connection otherwise). Not a task run in-process (eager): that one runs
    inside its caller's work, perhaps in its transaction."""
    if task is None or getattr(task.request, "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()


@worker_process_init.connect
def _own_process_group(**_: Any) -> None:
    """A pool process leaves the worker's process group for one of its own. A supervisor
    that stops the worker by signalling its group (honcho, under ``make serve``) then
    reaches the worker alone, which finishes the tasks in hand and stops its pool;
    signalled too, the pool's processes would die mid-task (WorkerLostError)."""
    os.setpgid(0, 0)
