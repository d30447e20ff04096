"""What the platform tells a person: one row a notification, shown in the site (with an
unread count) and, where its owner chose, mailed (``services.notices``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Notification(models.Model):
    """One thing ``user`` is told. ``key`` names the event it tells of (``table:12``,
    ``partner:7``): a user gets one notification a key, so a step taken twice (a repeated
    task, two schedulers at once) never tells anyone twice. The words are the kind's, filled
    with ``params`` in the reader's language when shown or mailed."""

    class Kind(models.TextChoices):
        PARTNER_ASKS = "partner_asks", _("a partner asks you to enter with them")
        ENTRY = "entry", _("your entry is accepted, waiting or refused")
        CHECK_IN = "check_in", _("check-in opens")
        TABLE_READY = "table_ready", _("your table is ready")
        SUBSTITUTED = "substituted", _("a bot took your seat")
        CONFIRM_RESULT = "confirm_result", _("a result waits for your confirmation")
        ENDED = "ended", _("a round or a tournament ended")
        DIVISION = "division", _("your team went up or down a division")
        WEBHOOK_DISABLED = "webhook_disabled", _("a webhook of yours was disabled")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="notifications", verbose_name=_("user"))
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    key = models.CharField(_("key"), max_length=200)
    params = models.JSONField(_("details"), default=dict, blank=True)
    link = models.CharField(_("link"), max_length=300, blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    read = models.DateTimeField(_("read"), null=True, blank=True)

    class Mail(models.TextChoices):
        NONE = "", _("not mailed")
        DUE = "due", _("to be mailed")
        SENT = "sent", _("mailed")
        FAILED = "failed", _("mailing failed")
        DROPPED = "dropped", _("not mailed after all")

    #: whether it goes by mail: due when written for a confirmed address whose owner wants
    #: its kind by mail (``services.mail``); sent once, in the transaction that claimed it
    mail = models.CharField(_("mail"), max_length=10, choices=Mail.choices, default="",
                            blank=True)
    mail_tries = models.PositiveSmallIntegerField(_("mail tries"), default=0)
    mailed = models.DateTimeField(_("mailed"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created", "-id"]
        constraints = [models.UniqueConstraint(fields=["user", "key"],
                                               name="notification_once_a_key")]
        indexes = [models.Index(fields=["user", "read"], name="notification_unread"),
                   # the sweep's look for mails still due: few rows, whatever the table holds
                   models.Index(fields=["created"], condition=models.Q(mail="due"),
                                name="notification_mail_due")]

    def __str__(self) -> str:
        return f"{self.user}: {self.kind} ({self.key})"
