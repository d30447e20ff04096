"""The background work's rows: the organisers' long jobs with their progress, and the
tasks a service owes the broker (written in the service's own transaction)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .core import Tournament


class Job(models.Model):
    """A long organiser action running in Celery, with its progress for the admin."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="jobs",
                                   verbose_name=_("tournament"))
    kind = models.CharField(_("kind"), max_length=40)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.QUEUED)
    match_ids = models.JSONField(_("matches"), default=list,
                                 help_text=_("the matches this job plays"))
    total = models.PositiveIntegerField(_("total"), default=0)
    done = models.PositiveIntegerField(_("completed"), default=0,
                                       help_text=_("counted, never incremented, so a "
                                                   "repeated task can't count twice"))
    message = models.TextField(_("message"), blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("job")
        verbose_name_plural = _("jobs")
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.kind}: {self.done}/{self.total} ({self.get_status_display()})"


class OutboxTask(models.Model):
    """A Celery task a service owes, written in the service's own transaction and deleted
    once the broker took it (services/followups.py): with the broker down the write still
    stands, and the sweep (tasks.sweep, run by Celery beat) sends what is left."""

    task = models.CharField(_("task"), max_length=100,
                            help_text=_("a task of tournaments.tasks"))
    args = models.JSONField(_("arguments"), default=list)
    kwargs = models.JSONField(_("keyword arguments"), default=dict)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("task to send")
        verbose_name_plural = _("tasks to send")
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)}"
