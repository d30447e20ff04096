"""An organiser's webhooks: a URL subscribed to a tournament's events (or to those of every
tournament its organiser organises), and one delivery an event and subscription, which
``services.webhooks`` writes in the transaction of the step it tells of and
``services.webhook_delivery`` sends, retries and gives up on."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .core import Tournament


class WebhookSubscription(models.Model):
    """``url`` is told of the events named in ``events`` (``Event`` values) of
    ``tournament``, or of every tournament ``organiser`` organises when it is empty, as
    long as they organise it. ``secret`` signs each JSON delivery (HMAC-SHA256); it is
    shown to the organiser when the subscription is made."""

    class Event(models.TextChoices):
        TOURNAMENT_STARTED = "tournament.started", _("a tournament started")
        ROUND_PUBLISHED = "round.published", _("a round was published")
        TABLE_OPENED = "table.opened", _("a live table opened")
        TABLE_FINISHED = "table.finished", _("a live table finished")
        RESULT_SUBMITTED = "result.submitted", _("a result was submitted")
        RESULT_CONFIRMED = "result.confirmed", _("a result was confirmed")
        ROUND_COMPLETED = "round.completed", _("a round was completed")
        STANDINGS_CHANGED = "standings.changed", _("the standings changed")
        TOURNAMENT_FINISHED = "tournament.finished", _("a tournament finished")
        SEASON_DRAFTED = "season.drafted", _("a league's next season was drafted")
        SEASON_CONFIRMED = "season.confirmed", _("a league's drafted season began")

    class Format(models.TextChoices):
        JSON = "json", _("JSON, signed")
        DISCORD = "discord", _("a Discord message")
        SLACK = "slack", _("a Slack message")

    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                  related_name="webhooks", verbose_name=_("organiser"))
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, null=True, blank=True,
                                   related_name="webhooks", verbose_name=_("tournament"),
                                   help_text=_("empty: every tournament you organise"))
    #: checked when made (``services.webhooks.checked_url``), its address at each delivery
    url = models.CharField(_("URL"), max_length=500)
    format = models.CharField(_("format"), max_length=10, choices=Format.choices,
                              default=Format.JSON)
    #: ``Event`` values, one or more
    events = models.JSONField(_("events"), default=list)
    secret = models.CharField(_("secret"), max_length=64, editable=False)
    active = models.BooleanField(_("active"), default=True)
    #: deliveries that failed in a row (an attempt that got no 2xx); a 2xx sets it to 0
    consecutive_failures = models.PositiveIntegerField(_("failures in a row"), default=0)
    disabled_at = models.DateTimeField(_("disabled at"), null=True, blank=True)
    disabled_reason = models.CharField(_("why disabled"), max_length=300, blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("webhook subscription")
        verbose_name_plural = _("webhook subscriptions")
        ordering = ["-created", "-id"]
        # an event's fan-out: the active subscriptions of a tournament, and those of all
        indexes = [models.Index(fields=["tournament"], condition=models.Q(active=True),
                                name="webhook_active_by_tournament")]

    def __str__(self) -> str:
        return f"{self.url} ({self.get_format_display()})"


class WebhookDelivery(models.Model):
    """One event sent to one subscription: ``event_id`` is the event's (the same for every
    subscription told of it, so a receiver deduplicates on it), ``payload`` its ``data``.
    Pending until a 2xx answer (delivered, never sent again) or until a day of retries has
    passed (failed); ``next_attempt`` is when the sweep sends it next."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        DELIVERED = "delivered", _("delivered")
        FAILED = "failed", _("failed")

    subscription = models.ForeignKey(WebhookSubscription, on_delete=models.CASCADE,
                                     related_name="deliveries", verbose_name=_("subscription"))
    event_id = models.UUIDField(_("event id"))
    event_type = models.CharField(_("event"), max_length=40)
    payload = models.JSONField(_("payload"), default=dict)
    created = models.DateTimeField(_("created"))
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    next_attempt = models.DateTimeField(_("next attempt"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.PENDING)
    response_code = models.PositiveSmallIntegerField(_("response code"), null=True, blank=True)
    last_error = models.CharField(_("last error"), max_length=500, blank=True)
    delivered_at = models.DateTimeField(_("delivered at"), null=True, blank=True)

    class Meta:
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        ordering = ["-created", "-id"]
        constraints = [models.UniqueConstraint(fields=["subscription", "event_id"],
                                               name="webhook_delivery_once_an_event")]
        # the sweep's look for deliveries due: the pending ones only, few whatever the log
        indexes = [models.Index(fields=["next_attempt"], condition=models.Q(status="pending"),
                                name="webhook_delivery_due")]

    def __str__(self) -> str:
        return f"{self.event_type} {self.event_id} → {self.subscription_id}"
