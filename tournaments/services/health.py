"""What the health check reports (``manage.py health``): can the broker be reached, how many
tasks wait in the queue, which workers answer and consume it, and what work is stuck.

A worker on another broker or Redis database, or on another queue, starts and says "ready"
all the same (issue 9.6): only asking the workers, over the broker the web process uses,
shows whether anyone will run what it sends.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone
from kombu.exceptions import OperationalError

from tournaments.models import OutboxTask

from .jobs import jobs_stalled

# The sweep (Celery beat, every minute) sends what the outbox holds; a task waiting longer
# than two sweeps means beat or the broker is not doing its part.
OUTBOX_LATE = timedelta(minutes=2)


def health_report(*, timeout: float = 1.0) -> dict[str, Any]:
    """The report, with ``healthy`` and the ``problems`` that make it not so."""
    from config.celery import app

    queue = app.conf.task_default_queue
    report: dict[str, Any] = {"queue": {"name": queue}}
    problems: list[str] = []
    if app.conf.task_always_eager:
        report["broker"] = {"ok": True, "eager": "tasks run in the web process"}
    else:
        report["broker"] = _broker(app, queue, timeout, report["queue"], problems)
        if report["broker"]["ok"]:
            report["workers"] = _workers(app, queue, timeout, problems)
    stalled = [{"id": job.pk, "tournament": job.tournament_id, "kind": job.kind,
                "done": job.done, "total": job.total, "since": job.updated.isoformat()}
               for job in jobs_stalled()]
    if stalled:
        problems.append(f"{len(stalled)} job(s) have not moved for too long")
    late = OutboxTask.objects.filter(created__lt=timezone.now() - OUTBOX_LATE).count()
    if late:
        problems.append(f"{late} task(s) wait to be sent: is celery beat running?")
    report.update(stalled_jobs=stalled, unsent_tasks=OutboxTask.objects.count(),
                  problems=problems, healthy=not problems)
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
    inspect = app.control.inspect(timeout=timeout)
    live = sorted(inspect.ping() or {})
    consuming = sorted(name for name, queues in (inspect.active_queues() or {}).items()
                       if any(q.get("name") == queue for q in queues))
    if not consuming:
        problems.append(f"no worker answers that consumes the queue {queue!r}"
                        + (f" (workers answering: {', '.join(live)})" if live else ""))
    return {"live": live, "consuming": consuming}
